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
