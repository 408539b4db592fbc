import SegueJSON
import Testing

@testable import SegueDaemon

/// JSON-RPC answers with the request's id: a number id comes back as the text it was sent as, on every path.
@Suite("Request ids come back as sent")
struct RequestIDTests {
    /// Number ids a Double would change (rounded, or written another way), and ordinary ones.
    static let numbers = [
        "9007199254740993", "9223372036854775807", "-9223372036854775809", "12345678901234567890123", "1e3", "-0",
        "1.50", "0.1", "1E+2", "-1.0e-7", "123456789012345", "1234567890123456", "0", "7",
    ]

    /// The raw text of the `"id":` member of a response line.
    static func idText(_ line: String) -> String? {
        guard let start = line.range(of: #""id":"#)?.upperBound else { return nil }
        let rest = line[start...]
        guard let end = rest.firstIndex(where: { $0 == "," || $0 == "}" }) else { return nil }
        return String(rest[..<end])
    }

    /// Sends a line, returns the raw lines written back.
    static func rawLines(_ h: Harness, _ line: String) throws -> [String] {
        try h.channel.writeInbound(line + "\n")
        var lines: [String] = []
        while let text = h.channel.readOutbound() { lines += text.split(separator: "\n").map(String.init) }
        return lines
    }

    @Test("the lean scan: a number id is echoed as its own text", arguments: numbers)
    func scanned(id: String) throws {
        let h = try Harness()
        let lines = try RequestIDTests.rawLines(h, #"{"jsonrpc":"2.0","id":\#(id),"method":"daemon.ping"}"#)
        #expect(lines.map(RequestIDTests.idText) == [id])
        // And the answer is valid JSON.
        #expect(lines.allSatisfy { (try? JSONParser.parse($0)) != nil })
    }

    @Test("the full parser (a line the scan leaves alone): the same", arguments: numbers)
    func parsed(id: String) throws {
        let h = try Harness()
        // An escape in a member name sends the line to the parser; a repeated id too (the last wins, as parsed).
        let escaped = try RequestIDTests.rawLines(h, #"{"jsonrpc":"2.0","\u0069d":\#(id),"method":"daemon.ping"}"#)
        #expect(escaped.map(RequestIDTests.idText) == [id])
        let repeated = try RequestIDTests.rawLines(h, #"{"id":"x","jsonrpc":"2.0","id":\#(id),"method":"daemon.ping"}"#)
        #expect(repeated.map(RequestIDTests.idText) == [id])
        // Refused envelopes answer with the id too.
        let refused = try RequestIDTests.rawLines(h, #"{"jsonrpc":"2.0","id":\#(id),"method":"daemon.ping","x":1}"#)
        #expect(refused.map(RequestIDTests.idText) == [id])
        #expect(refused.first?.contains("-32600") == true)
        let unknown = try RequestIDTests.rawLines(h, #"{"jsonrpc":"2.0","id":\#(id),"method":"no.such"}"#)
        #expect(unknown.map(RequestIDTests.idText) == [id])
    }

    @Test("batches, scanned or parsed: each member's id as sent, in order")
    func batches() throws {
        let h = try Harness()
        let members = RequestIDTests.numbers.map { #"{"jsonrpc":"2.0","id":\#($0),"method":"daemon.ping"}"# }
        let plain = try RequestIDTests.rawLines(h, "[" + members.joined(separator: ",") + "]")
        let answers = try #require(plain.first.map { try JSONParser.parse($0) }?.arrayValue)
        #expect(answers.count == RequestIDTests.numbers.count)
        let texts = try #require(plain.first).components(separatedBy: #""id":"#).dropFirst()
            .map { String($0.prefix { $0 != "," && $0 != "}" }) }
        #expect(texts == RequestIDTests.numbers)
        // One member the scan refuses (an escape) sends the whole batch to the parser; a non-object member and a
        // string id sit in between.
        let mixed = members + [#"{"jsonrpc":"2.0","\u0069d":1.25e0,"method":"daemon.ping"}"#, "5",
                               #"{"jsonrpc":"2.0","id":"9007199254740993","method":"daemon.ping"}"#]
        let parsed = try RequestIDTests.rawLines(h, "[" + mixed.joined(separator: " , ") + "]")
        let parsedTexts = try #require(parsed.first).components(separatedBy: #""id":"#).dropFirst()
            .map { String($0.prefix { $0 != "," && $0 != "}" }) }
        #expect(parsedTexts == RequestIDTests.numbers + ["1.25e0", "null", #""9007199254740993""#])
    }

    @Test("strings and null are echoed as before; the walker finds ids only at a request's own level")
    func stringsAndNull() throws {
        let h = try Harness()
        let string = try RequestIDTests.rawLines(h, #"{"jsonrpc":"2.0","id":"1e3","method":"daemon.ping"}"#)
        #expect(string.map(RequestIDTests.idText) == [#""1e3""#])
        let null = try RequestIDTests.rawLines(h, #"{"jsonrpc":"2.0","id":null,"method":"daemon.ping"}"#)
        #expect(null.map(RequestIDTests.idText) == ["null"])
        let line = Array(#"{"params":{"id":5,"x":"\"id\":6"},"id":"s","jsonrpc":"2.0","method":"m"}"#.utf8)
        #expect(line.withUnsafeBufferPointer { RequestEnvelope.idTexts(in: $0) } == [nil])
        let batch = Array(#"[{"id":[1,{"id":2}],"id" : -3.5e1 },7,{"\u0069d":1e2},{}]"#.utf8)
        #expect(batch.withUnsafeBufferPointer { RequestEnvelope.idTexts(in: $0) } == ["-3.5e1", nil, "1e2", nil])
    }
}
