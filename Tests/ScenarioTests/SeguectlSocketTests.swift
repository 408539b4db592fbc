import Foundation
import SegueClient
import SegueCtlKit
import SegueJSON
import Testing

/// How seguectl finds the daemon: `--socket` before or after the subcommand, else `SEGUED_SOCKET`, else the default.
@Suite("seguectl's socket")
struct SeguectlSocketTests {
    static let nowhere = "/tmp/sgs-nowhere-\(getpid()).sock"

    @Test("SEGUED_SOCKET names the daemon when --socket is not given")
    func environment() throws {
        let daemon = try startDaemon()
        let run = try ctl(["call", "daemon.ping"], environment: ["SEGUED_SOCKET": daemon.socket])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "\"pong\"\n")
        let missing = try ctl(["call", "daemon.ping"], environment: ["SEGUED_SOCKET": SeguectlSocketTests.nowhere])
        #expect(missing.status == 2)
        #expect(missing.err.contains(SeguectlSocketTests.nowhere))
    }

    @Test("--socket works before the subcommand as after it, and beats SEGUED_SOCKET", arguments: [
        ["--socket", "SOCKET", "call", "daemon.ping"],
        ["--socket=SOCKET", "call", "daemon.ping"],
        ["call", "--socket", "SOCKET", "daemon.ping"],
        ["call", "daemon.ping", "--socket", "SOCKET"],
        // Both: the one after the subcommand is the more particular, and wins.
        ["--socket", "/tmp/sgs-not-this-one.sock", "call", "daemon.ping", "--socket", "SOCKET"],
    ])
    func placement(arguments: [String]) throws {
        let daemon = try startDaemon()
        let run = try ctl(arguments.map { $0.replacingOccurrences(of: "SOCKET", with: daemon.socket) },
                          environment: ["SEGUED_SOCKET": SeguectlSocketTests.nowhere])
        #expect(run.status == 0, "\(run.err)")
        #expect(run.out == "\"pong\"\n")
    }

    @Test("--socket's help names its default once, SEGUED_SOCKET included")
    func help() throws {
        let run = try ctl(["call", "--help"])
        #expect(run.status == 0)
        #expect(run.out.components(separatedBy: "$XDG_RUNTIME_DIR/segued.sock").count == 2, "\(run.out)")
        #expect(run.out.contains("$SEGUED_SOCKET"))
        #expect(!run.out.contains("(default: /"))
    }

    @Test("test --spawn with a plugins folder that does not exist warns, naming it")
    func spawnWithoutPlugins() throws {
        let missing = "/tmp/sgs-no-plugins-\(getpid())"
        let run = try ctl(["test", "--spawn", "--plugins", missing, "Tests/ScenarioFixtures/invalid.json"])
        #expect(run.err.contains("seguectl: warning: the spawned segued's plugins folder \(missing) does not exist"))
        let bundled = try ctl(["test", "--spawn", "Tests/ScenarioFixtures/invalid.json"])
        #expect(!bundled.err.contains("warning"))
    }
}
