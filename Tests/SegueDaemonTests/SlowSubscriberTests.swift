import SegueJSON
import Testing

@testable import SegueDaemon

/// A connection output that keeps its lines and can pretend its reader stopped reading.
final class RecordingOutput: ConnectionOutput {
    var isWritable = true
    var lines: [String] = []
    var closed = false
    func send(_ line: String) { lines.append(line) }
    func flush() {}
    func close() { closed = true }

    func take() -> [JSONValue] {
        defer { lines.removeAll() }
        return lines.compactMap { try? JSONParser.parse($0) }
    }
}

@Suite("A slow subscriber")
struct SlowSubscriberTests {
    @Test("frames for a reader that stopped are coalesced; others events still go; on catching up: events.dropped, then the latest frame")
    func coalescing() throws {
        let h = try Harness()
        try h.setUpScene()
        let output = RecordingOutput()
        let slow = h.daemon.connect(output: output)
        _ = h.daemon.handle(line: #"{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"scene":"main","types":["frame","transition"]}}"#, from: slow)
        output.isWritable = false
        // The fast client drives the scene and is answered as usual.
        let select = try h.call("container.select", ["container": "tabs", "index": 1, "animator": "cross-dissolve"], id: 2)
        #expect(select.last?["result"]?["transition"] == "t-1")
        for i in 0..<10 {
            #expect(try h.call("clock.step", ["frames": 1], id: .number(Double(10 + i))).last?["id"] == .number(Double(10 + i)))
        }
        let whileBlocked = output.take()
        #expect(whileBlocked.map { $0["params"]?["type"] ?? .null } == ["transition.began"])  // no frame got through
        let stats = try #require(try h.result("daemon.stats"))
        #expect(stats["events_dropped"] == 9)  // ten frames, the last one held back
        output.isWritable = true
        h.daemon.connectionDrained(slow)
        let caughtUp = output.take()
        #expect(caughtUp.count == 2)
        #expect(caughtUp.first?["params"]?["type"] == "events.dropped")
        #expect(caughtUp.first?["params"]?["count"] == 9)
        #expect(caughtUp.first?["params"]?["types"] == ["frame"])
        #expect(caughtUp.last?["params"]?["type"] == "frame")
        #expect(abs((caughtUp.last?["params"]?["time"]?.doubleValue ?? 0) - 10.0 / 60) < 1e-6)  // the latest
        #expect(!output.closed)
        // Back to normal: the next frame goes straight out.
        try h.call("clock.step", ["frames": 1])
        #expect(output.take().map { $0["params"]?["type"] ?? .null } == ["frame"])
    }

    @Test("a reader that is only late gets its held frame without an events.dropped")
    func lateNotDropped() throws {
        let h = try Harness()
        try h.setUpScene()
        let output = RecordingOutput()
        let slow = h.daemon.connect(output: output)
        _ = h.daemon.handle(line: #"{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"types":["frame"]}}"#, from: slow)
        try h.call("container.select", ["container": "tabs", "index": 1, "animator": "cross-dissolve"])
        _ = output.take()
        output.isWritable = false
        try h.call("clock.step", ["frames": 1])
        output.isWritable = true
        h.daemon.connectionDrained(slow)
        #expect(output.take().map { $0["params"]?["type"] ?? .null } == ["frame"])
    }
}

@Suite("A choked subscriber")
struct ChokedSubscriberTests {
    @Test("a reader whose unread output passes the 8 MiB cap is closed; the request that caused it and other clients go on")
    func choked() throws {
        let folder = "/tmp/sgk-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36)
        try FileSystemHelper.write(folder: folder, name: "chatty.lua", text: """
            return segue.animator {
              duration = function(ctx) return 0.1 end,
              animate = function(ctx)
                -- segue.log keeps 8 KiB of a message: 1 200 of them pass the 8 MiB cap.
                local big = string.rep("x", 8000)
                for i = 1, 1200 do segue.log(big) end
                ctx.container:add(ctx:view("to"))
                ctx:complete(true)
              end,
            }
            """)
        defer { FileSystemHelper.remove(folder) }
        // The wall-clock backstop stays out of the way on a loaded machine: the 1 200 logs must all happen.
        let h = try Harness {
            $0.pluginsDir = folder
            $0.lua.callTimeoutMs = 60_000
        }
        try h.setUpScene()
        let output = RecordingOutput()
        let slow = h.daemon.connect(output: output)
        _ = h.daemon.handle(line: #"{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"types":["log"]}}"#, from: slow)
        _ = output.take()
        output.isWritable = false
        let select = try h.call("container.select", ["container": "tabs", "index": 1, "animator": "chatty"])
        #expect(select.last?["result"]?["transition"] == "t-1")
        #expect(output.closed, "\(output.lines.count) lines, \(output.lines.map(\.description.count).reduce(0, +)) bytes; \(select)")
        #expect(output.lines.count < 1200)  // it stopped queueing at the cap
        #expect(try h.call("daemon.ping").last?["result"] == "pong")
    }
}

import Foundation

enum FileSystemHelper {
    static func write(folder: String, name: String, text: String) throws {
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8)
    }

    static func remove(_ folder: String) { try? FileManager.default.removeItem(atPath: folder) }
}
