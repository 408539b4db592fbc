import SegueJSON
import Testing

@testable import SegueDaemon
@testable import SegueTransport

/// A frame event is encoded once and the same bytes go to every subscriber (`EventBus.publish`): over the real
/// connection code on socket pairs, two subscribers of a scene read byte-identical frame lines — for a small frame
/// (queued, written at the flush) and for a frame over `SocketConnection.directWriteBytes` (written from the bus's
/// buffer at once).
@Suite("Frame events shared by subscribers")
struct SharedFrameBytesTests {
    /// The frame lines of `text` (what a subscriber read), in order.
    static func frameLines(_ text: String?) -> [Substring] {
        (text ?? "").split(separator: "\n").filter { $0.contains(#""type":"frame""#) }
    }

    func check(containers: Int, minimumBytes: Int) throws {
        let h = try Harness { $0.limits.maxLineBytes = 4096 }
        try h.call("scene.create", ["id": "s", "size": ["w": 320, "h": 480], "clock": "manual"])
        for i in 0..<containers {
            try h.call("vc.create", ["id": .string("a\(i)")])
            try h.call("vc.create", ["id": .string("b\(i)")])
            try h.call("container.create", ["id": .string("c\(i)"), "kind": "custom", "children": [.string("a\(i)"), .string("b\(i)")]])
        }
        let first = try Harness.connect(h.daemon)
        let second = try Harness.connect(h.daemon)
        for peer in [first, second] {
            _ = try peer.writeInbound(#"{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"scene":"s","types":["frame"]}}"# + "\n")
            #expect(peer.readOutbound()?.contains(#""result""#) == true)
        }
        for i in 0..<containers { try h.call("container.select", ["container": .string("c\(i)"), "index": 1]) }
        var a: [Substring] = [], b: [Substring] = []
        for id in 0..<5 {
            try h.call("clock.step", ["frames": 1], id: .number(Double(10 + id)))
            // Read after each frame, so neither subscriber falls behind (a slow reader's frames are coalesced).
            a += Self.frameLines(first.readOutbound())
            b += Self.frameLines(second.readOutbound())
        }
        #expect(a.count == 5)
        #expect(a == b)
        #expect((a.first?.utf8.count ?? 0) >= minimumBytes)
        // The same text the encoder makes on its own for the event (the bytes are a frame event, not a copy gone
        // astray): each line parses, names its scene and carries views.
        for line in a {
            let event = try JSONParser.parse(String(line))
            #expect(event["params"]?["scene"] == "s")
            #expect(event["params"]?["views"]?.arrayValue?.isEmpty == false)
        }
    }

    @Test("two subscribers read byte-identical frame lines (a small frame, queued for the flush)")
    func smallFrame() throws {
        try check(containers: 2, minimumBytes: 100)
    }

    @Test("two subscribers read byte-identical frame lines (a frame over directWriteBytes, written at once)")
    func bigFrame() throws {
        try check(containers: 80, minimumBytes: SocketConnection.directWriteBytes)
    }
}
