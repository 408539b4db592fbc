import Foundation
import SegueClient
import SegueJSON
import Testing

/// The stall detector against the real binary. `SEGUED_TEST_STALL_MS` (read from the daemon's own environment, so
/// no client can turn it on) makes `segue.log("segued:test-stall")` hold the event loop inside a host function,
/// where neither the instruction budget nor the wall-clock backstop reaches.
@Suite("The stall detector in a real daemon", .serialized)
struct StallDetectorIntegrationTests {
    static func config(stallMs: Int) throws -> String {
        let bundled = try String(contentsOfFile: repositoryRoot + "/config/segued.toml", encoding: .utf8)
        return bundled
            .replacingOccurrences(of: "# stall_timeout_ms = 10000", with: "stall_timeout_ms = \(stallMs)")
            .replacingOccurrences(of: "# call_timeout_ms = 100", with: "call_timeout_ms = 60000")
    }

    static let stallPlugin = """
        return segue.animator { duration = 0.3, animate = function(ctx)
          segue.log("segued:test-stall")
          ctx.container:add(ctx:view('to'))
          ctx:complete(true)
        end }
        """

    @Test("a stalled loop is named in the log (request, plugin, function) and the process exits with status 70")
    func stalledLoopExits() throws {
        let daemon = try DaemonProcess(
            pluginFiles: ["stall.lua": Self.stallPlugin], config: try Self.config(stallMs: 300),
            environment: ["SEGUED_TEST_STALL_MS": "60000"])
        let client = try daemon.client()
        try setUpContainer(client, kind: "custom")
        #expect(throws: (any Error).self) {
            _ = try client.call("container.select", ["container": "c", "index": 1, "animator": "stall"], timeoutMs: 20_000)
        }
        // The generous wait guards a hang; it measures nothing (the stall lasts a minute, the detector's limit is
        // 300 ms).
        let deadline = Date().addingTimeInterval(20)
        while daemon.process.isRunning, Date() < deadline { usleep(20_000) }
        #expect(!daemon.process.isRunning)
        #expect(daemon.process.terminationStatus == 70)
        let log = daemon.stderrText()
        #expect(log.contains("event loop stalled"), "\(log)")
        #expect(log.contains("request container.select"), "\(log)")
        #expect(log.contains("stall.lua: animate (defined at line 1)"), "\(log)")
        #expect(log.contains("exiting with status 70"), "\(log)")
    }

    @Test("an idle daemon, and one serving requests, is not taken for a stalled one")
    func idleIsNotStalled() throws {
        let daemon = try DaemonProcess(
            pluginFiles: ["stall.lua": Self.stallPlugin], config: try Self.config(stallMs: 100))
        let client = try daemon.client()
        // Idle for several timeouts: asleep in epoll_wait, not stalled.
        usleep(600_000)
        #expect(try client.call("daemon.ping") == "pong")
        // Without the test switch, segue.log("segued:test-stall") is only a log line.
        try setUpContainer(client, kind: "custom")
        _ = try client.call("container.select", ["container": "c", "index": 1, "animator": "stall"])
        for _ in 0..<200 { #expect(try client.call("daemon.ping") == "pong") }
        #expect(daemon.process.isRunning)
    }
}
