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

    /// An animator whose frames each call the test switch, for 20 frames: with SEGUED_TEST_STALL_MS=150 an
    /// advance through them holds the loop about 3 s.
    static let slowFramesPlugin = """
        return segue.animator { duration = 1, animate = function(ctx)
          ctx.container:add(ctx:view('to'))
          local n = 0
          local function frame()
            n = n + 1
            segue.log("segued:test-stall")
            if n < 20 then segue.after(0.016, frame) else ctx:complete(true) end
          end
          segue.after(0, frame)
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

    @Test("a long clock.advance whose frames each take a while is no stall: every frame is a turn")
    func longAdvanceIsNotStalled() throws {
        // 20 frames of 150 ms each (the test switch, in a timer the animator re-arms every frame): one advance holds
        // the loop about 3 s, six times the detector's 500 ms. Before frames counted as turns, the daemon exited 70.
        let daemon = try DaemonProcess(
            pluginFiles: ["slow.lua": Self.slowFramesPlugin], config: try Self.config(stallMs: 500),
            environment: ["SEGUED_TEST_STALL_MS": "150"])
        let client = try daemon.client()
        try setUpContainer(client, kind: "custom")
        _ = try client.call("container.select", ["container": "c", "index": 1, "animator": "slow"])
        let advanced = try client.call("clock.advance", ["ms": 1000], timeoutMs: 60_000)
        #expect(advanced["time"] == 1.0)
        let transitions = try client.call("transition.list", [:])
        #expect("\(transitions)".contains("completed"), "\(transitions)")
        #expect(try client.call("daemon.ping") == "pong")
        #expect(daemon.process.isRunning)
        #expect(!daemon.stderrText().contains("event loop stalled"))
    }

    @Test("systemd's watchdog is fed between the frames of a long advance (its loop timer cannot fire until it ends)")
    func watchdogFedDuringLongAdvance() throws {
        let root = try TemporaryFolder()
        let plugins = root.path + "/plugins"
        try FileManager.default.createDirectory(atPath: plugins, withIntermediateDirectories: true)
        try Self.slowFramesPlugin.write(toFile: plugins + "/slow.lua", atomically: true, encoding: .utf8)
        try Self.config(stallMs: 5000).write(toFile: root.path + "/segued.toml", atomically: true, encoding: .utf8)
        let receiver = try DatagramReceiver(name: root.path + "/notify")
        let socket = root.path + "/s.sock"
        // WatchdogSec 0.4 s: a ping every 0.2 s, and the stall limit in force 0.3 s (three quarters of it).
        let daemon = try ServiceProcess(
            arguments: ["--config", root.path + "/segued.toml", "--socket", socket, "--plugins", plugins],
            environment: ["HOME": root.path, "NOTIFY_SOCKET": root.path + "/notify", "WATCHDOG_USEC": "400000",
                          "SEGUED_TEST_STALL_MS": "150"],
            logFile: root.path + "/log")
        #expect(receiver.receiveState()?.hasPrefix("READY=1") == true, "\(daemon.log)")
        let client = try SegueClient(socketPath: socket)
        try setUpContainer(client, kind: "custom")
        _ = try client.call("container.select", ["container": "c", "index": 1, "animator": "slow"])
        while receiver.receive(seconds: 0) != nil {}
        _ = try client.call("clock.advance", ["ms": 1000], timeoutMs: 60_000)
        // About 3 s of frames: some 15 pings between them. Without them, the loop's timer sends one when it ends.
        var pings = 0
        while let message = receiver.receive(seconds: 0) {
            if message == "WATCHDOG=1" { pings += 1 }
        }
        #expect(pings >= 5, "\(pings) pings; \(daemon.log)")
        #expect(try client.call("daemon.ping") == "pong")
        #expect(daemon.terminate() == 0)
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

    @Test("a folder of many files whose top level runs until the backstop stops it is no stall: each file is a turn")
    func manySlowFilesAtStartUp() throws {
        // 30 files of one backstop (100 ms) each hold start-up about 3 s; the detector's limit is 1.5 s, 15 times a
        // file's. Before each file counted as a turn, start-up was one turn and the detector ended the daemon.
        let bundled = try String(contentsOfFile: repositoryRoot + "/config/segued.toml", encoding: .utf8)
        let config = bundled.replacingOccurrences(of: "# stall_timeout_ms = 10000", with: "stall_timeout_ms = 1500")
            .replacingOccurrences(of: "# instruction_budget = 5000000", with: "instruction_budget = 2000000000")
        var files: [String: String] = [:]
        for i in 0..<30 { files["spin\(i).lua"] = "local x = 0 while true do x = x + 1 end" }
        let daemon = try DaemonProcess(pluginFiles: files, config: config)
        let client = try daemon.client()
        #expect(try client.call("daemon.ping") == "pong")
        let list = try client.call("plugins.list")
        let records = list["plugins"]?.arrayValue ?? list.arrayValue ?? []
        #expect(records.filter { $0["status"]?.stringValue == "failed" }.count == 30)
        #expect(daemon.process.isRunning)
        #expect(!daemon.stderrText().contains("event loop stalled"))
    }

    @Test("when the stall cannot even be logged (stderr a full pipe), the process still ends, by SIGALRM")
    func unloggableStall() throws {
        // A log pipe nobody reads: the next log line blocks the loop (plugins.reload logs "plugin loaded"), and the
        // detector's report blocks behind it. The detector armed alarm(3) before reporting, so the process ends.
        let directory = "/tmp/sgt-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory + "/plugins", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try Self.stallPlugin.write(toFile: directory + "/plugins/stall.lua", atomically: true, encoding: .utf8)
        try Self.config(stallMs: 200).write(toFile: directory + "/segued.toml", atomically: true, encoding: .utf8)
        var ends: [Int32] = [0, 0]
        #expect(pipe(&ends) == 0)
        defer {
            close(ends[0])
            close(ends[1])
        }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binaryDirectory + "/segued")
        let socket = directory + "/s.sock"
        process.arguments = ["--config", directory + "/segued.toml", "--socket", socket, "--plugins", directory + "/plugins"]
        process.standardError = FileHandle(fileDescriptor: ends[1], closeOnDealloc: false)
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { kill(process.processIdentifier, SIGKILL) } }
        var client: SegueClient?
        for _ in 0..<400 where client == nil {
            client = try? SegueClient(socketPath: socket)
            if client == nil { usleep(25_000) }
        }
        let connected = try #require(client)
        #expect(try connected.call("daemon.ping") == "pong")
        // Fill the pipe without blocking, then make it blocking again (the flag belongs to the pipe, which segued
        // shares).
        let flags = fcntl(ends[1], F_GETFL)
        _ = fcntl(ends[1], F_SETFL, flags | O_NONBLOCK)
        let filler = [UInt8](repeating: UInt8(ascii: "."), count: 4096)
        var filled = 0
        while true {
            let n = filler.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            if n <= 0 { break }
            filled += n
        }
        _ = fcntl(ends[1], F_SETFL, flags)
        #expect(filled > 0)
        #expect(throws: (any Error).self) { _ = try connected.call("plugins.reload", [:], timeoutMs: 20_000) }
        // The generous wait guards a hang; it measures nothing.
        let deadline = Date().addingTimeInterval(20)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        #expect(!process.isRunning)
        #expect(process.terminationReason == .uncaughtSignal)
        #expect(process.terminationStatus == SIGALRM)
    }
}
