import SegueJSON
import Testing

@testable import SegueDaemon

/// One test per class of bad input (docs/PROTOCOL.md "Errors"): each gets its error, and the connection stays usable.
@Suite("Bad input")
struct BadInputTests {
    /// Sends raw bytes (a newline is added) and returns the lines written back.
    func sendBytes(_ h: Harness, _ bytes: [UInt8]) throws -> [JSONValue] {
        try h.channel.writeInbound(bytes + [UInt8(ascii: "\n")])
        return try h.readLines()
    }

    func expectStillServing(_ h: Harness) throws {
        #expect(h.channel.isActive)
        #expect(try h.call("daemon.ping", id: 99) == [["jsonrpc": "2.0", "id": 99, "result": "pong"]])
    }

    @Test("malformed JSON is -32700 with id null, and the connection stays open", arguments: [
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping""#,  // truncated
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"} x"#,  // trailing garbage
        #"{'jsonrpc':'2.0','id':1,'method':'daemon.ping'}"#,  // single quotes
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping",}"#,  // trailing comma
        "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon\tping\"}",  // a bare control character in a string
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"x":"\ud800"}}"#,  // an unpaired surrogate
        #"{"jsonrpc":"2.0","id":01,"method":"daemon.ping"}"#,  // a leading zero
        "",  // an empty line
    ])
    func malformedJSON(line: String) throws {
        let h = try Harness()
        let lines = try h.send(line)
        #expect(lines.count == 1)
        #expect(lines.first?["error"]?["code"] == -32700)
        #expect(lines.first?["error"]?["data"]?["kind"] == "parse_error")
        #expect(lines.first?["id"] == .null)
        try expectStillServing(h)
    }

    @Test("invalid UTF-8 is -32700, whatever the flaw", arguments: [
        [0xC3, 0x28],  // a lead byte without its continuation
        [0xC0, 0xAF],  // an overlong encoding of '/'
        [0xED, 0xA0, 0x80],  // a UTF-16 surrogate encoded in UTF-8
        [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
        [0xFF],  // never valid
    ] as [[UInt8]])
    func invalidUTF8(flaw: [UInt8]) throws {
        let h = try Harness()
        let bytes = Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"x":""#.utf8) + flaw + Array("\"}}".utf8)
        let lines = try sendBytes(h, bytes)
        #expect(lines.first?["error"]?["code"] == -32700)
        #expect(lines.first?["id"] == .null)
        try expectStillServing(h)
    }

    @Test("nesting deeper than 64 levels is -32700; 10 000 levels do not crash the daemon")
    func deepNesting() throws {
        let h = try Harness(maxLineBytes: 1 << 16)
        for depth in [70, 10_000] {
            let deep = String(repeating: "[", count: depth) + String(repeating: "]", count: depth)
            let lines = try h.send(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"x":"# + deep + "}}")
            #expect(lines.first?["error"]?["code"] == -32700)
            #expect(lines.first?["error"]?["message"]?.stringValue?.contains("nesting") == true)
        }
        // Within the bound, the request reaches the method, which refuses the unknown parameter.
        let shallow = String(repeating: "[", count: 10) + String(repeating: "]", count: 10)
        let ok = try h.send(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"x":"# + shallow + "}}")
        #expect(ok.first?["error"]?["data"]?["param"] == "x")
        try expectStillServing(h)
    }

    @Test("NaN, Infinity and numbers beyond a double are not JSON: -32700", arguments: ["NaN", "Infinity", "-Infinity", "1e400", "-1e400"])
    func nonFiniteNumbers(number: String) throws {
        let h = try Harness()
        try h.setUpScene()
        let lines = try h.send(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"ms":"# + number + "}}")
        #expect(lines.first?["error"]?["code"] == -32700)
        #expect(try h.result("clock.now")?["time"] == 0)
        try expectStillServing(h)
    }

    @Test("huge, negative and fractional numbers are -32602 naming the parameter, and change nothing")
    func outOfRangeNumbers() throws {
        let h = try Harness()
        try h.setUpScene()
        let cases: [(String, JSONValue, String)] = [
            ("clock.advance", ["ms": 1e300], "ms"),
            ("clock.advance", ["ms": -1], "ms"),
            ("clock.step", ["frames": -1], "frames"),
            ("clock.step", ["frames": 1.5], "frames"),
            ("clock.step", ["frames": 1e20], "frames"),
            ("clock.set_speed", ["speed": 0], "speed"),
            ("clock.set_speed", ["speed": -2], "speed"),
            ("container.select", ["container": "tabs", "index": -1], "index"),
            ("container.select", ["container": "tabs", "index": 0.5], "index"),
            ("scene.resize", ["size": ["w": -320, "h": 480]], "size"),
            ("scene.resize", ["size": ["w": 1e300, "h": 480]], "size"),
            ("events.unsubscribe", ["subscription": -1], "subscription"),
        ]
        for (method, params, param) in cases {
            let error = try h.call(method, params).last?["error"]
            #expect(error?["code"] == -32602, "\(method) \(params.serialized())")
            #expect(error?["data"]?["param"] == .string(param), "\(method) \(params.serialized())")
        }
        #expect(try h.result("clock.now")?["time"] == 0)
        #expect(try h.result("container.get", ["container": "tabs"])?["selected"] == 0)
        #expect(try h.result("scene.list")?.arrayValue?.first?["size"] == ["w": 320, "h": 480])
        try expectStillServing(h)
    }

    @Test("a request id over 256 bytes is -32600; 256 bytes are echoed back")
    func overLongRequestID() throws {
        let h = try Harness()
        let long = String(repeating: "i", count: 257)
        let refused = try h.call("daemon.ping", id: .string(long))
        #expect(refused.first?["error"]?["code"] == -32600)
        #expect(refused.first?["id"] == .null)
        let longest = String(repeating: "i", count: 256)
        #expect(try h.call("daemon.ping", id: .string(longest)).first?["id"] == .string(longest))
    }

    @Test("an object id over 64 characters, or with other characters, is -32602 naming it")
    func overLongObjectID() throws {
        let h = try Harness()
        let size: JSONValue = ["w": 100, "h": 100]
        for bad in [String(repeating: "s", count: 65), "", "a b", "é"] {
            let error = try h.call("scene.create", ["id": .string(bad), "size": size, "clock": "manual"]).last?["error"]
            #expect(error?["code"] == -32602)
            #expect(error?["data"]?["param"] == "id")
        }
        #expect(try h.result("scene.list") == [])
        let longest = String(repeating: "s", count: 64)
        #expect(try h.result("scene.create", ["id": .string(longest), "size": size, "clock": "manual"])?["scene"] == .string(longest))
    }

    @Test("a request member that JSON-RPC does not define is -32600; params that are not an object are refused")
    func envelope() throws {
        let h = try Harness()
        let extra = try h.send(#"{"jsonrpc":"2.0","id":4,"method":"daemon.ping","extra":1}"#)
        #expect(extra.first?["error"]?["code"] == -32600 && extra.first?["id"] == 4)
        let missingVersion = try h.send(#"{"id":5,"method":"daemon.ping"}"#)
        #expect(missingVersion.first?["error"]?["code"] == -32600 && missingVersion.first?["id"] == 5)
        let stringParams = try h.send(#"{"jsonrpc":"2.0","id":6,"method":"daemon.ping","params":"x"}"#)
        #expect(stringParams.first?["error"]?["code"] == -32600)
        let boolID = try h.send(#"{"jsonrpc":"2.0","id":true,"method":"daemon.ping"}"#)
        #expect(boolID.first?["error"]?["code"] == -32600 && boolID.first?["id"] == .null)
        // A null id is answered with a null id (JSON-RPC discourages it but it is a request, not a notification).
        #expect(try h.send(#"{"jsonrpc":"2.0","id":null,"method":"daemon.ping"}"#) == [["jsonrpc": "2.0", "id": .null, "result": "pong"]])
        try expectStillServing(h)
    }

    @Test("a line of exactly limits.max_line_bytes is served; one byte more is -32004 and closes")
    func lineLengthBoundary() throws {
        let base = #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#
        let exact = base + String(repeating: " ", count: 256 - base.utf8.count)
        let h = try Harness(maxLineBytes: 256)
        #expect(try h.send(exact).first?["result"] == "pong")
        #expect(h.channel.isActive)
        _ = try? h.channel.writeInbound(exact + " \n")
        let lines = try h.readLines()
        #expect(lines.first?["error"]?["code"] == -32004)
        #expect(lines.first?["error"]?["data"]?["kind"] == "limit_exceeded")
        #expect(!h.channel.isActive)
    }

    @Test("a line over the limit is refused before its newline arrives (the daemon never buffers it whole)")
    func lineTooLongWithoutNewline() throws {
        let h = try Harness(maxLineBytes: 256)
        _ = try? h.channel.writeInbound(String(repeating: "{", count: 300))
        #expect(try h.readLines().first?["error"]?["code"] == -32004)
        #expect(!h.channel.isActive)
    }
}
