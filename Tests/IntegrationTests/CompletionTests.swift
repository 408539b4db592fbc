import Foundation
import SegueClient
import SegueJSON
import Testing

/// seguectl's shell completion of plugin and scene names, asked of the daemon (the way the generated bash script
/// calls it: `seguectl ---completion SUBCOMMAND -- ARGUMENT WORD-INDEX CURSOR WORDS…`).
@Suite("seguectl completions", .serialized)
struct CompletionTests {
    func complete(_ arguments: [String], environment: [String: String] = [:]) throws -> (Int32, [String]) {
        let result = try runCommand(binaryDirectory + "/seguectl", ["---completion"] + arguments, environment: environment)
        return (result.status, result.out.split(separator: "\n").map(String.init))
    }

    @Test("plugin names for check, scene ids for tree --scene, from the daemon named by --socket on the line")
    func names() throws {
        let daemon = try DaemonProcess()
        let (status, plugins) = try complete(["check", "--", "positional@0", "2", "3",
                                              "seguectl", "check", "cro", "--socket", daemon.socket])
        #expect(status == 0)
        #expect(plugins == ["cross-dissolve"])
        let client = try SegueClient(socketPath: daemon.socket)
        _ = try client.call("scene.create", JSONObject([("id", "main"), ("size", ["w": 10, "h": 10]), ("clock", "manual")]))
        let (_, scenes) = try complete(["tree", "--", "--scene", "3", "0", "seguectl", "tree", "--scene", ""],
                                       environment: ["SEGUED_SOCKET": daemon.socket])
        #expect(scenes == ["main"])
        #expect(daemon.terminate() == 0)
    }

    @Test("without a daemon: nothing printed, status 0, at once")
    func noDaemon() throws {
        let started = Date()
        let (status, lines) = try complete(["check", "--", "positional@0", "2", "0", "seguectl", "check", ""],
                                           environment: ["SEGUED_SOCKET": "/nonexistent/segued.sock"])
        #expect(status == 0)
        #expect(lines.isEmpty)
        #expect(Date().timeIntervalSince(started) < 5)
    }
}
