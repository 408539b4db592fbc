import Dispatch
import Foundation
import SegueJSON
import Testing

/// The envelope's parser and serializer are on every request's path (both were tuned for it): they must still
/// agree with each other and with RFC 8259 on the awkward cases.
@Suite("JSON codec")
struct JSONCodecTests {
    @Test("strings round-trip: quotes, backslashes, control characters, non-ASCII, emoji")
    func strings() throws {
        for s in ["", "plain", "q\"uote", "back\\slash", "line\nfeed\r\ttab", "\u{01}\u{1f}", "é漢字", "🙂 x", "/"] {
            let text = JSONValue.string(s).serialized()
            #expect(!text.utf8.contains { $0 < 0x20 }, "no raw control characters in \(text)")
            #expect(try JSONParser.parse(text) == .string(s))
        }
        #expect(JSONValue.string("a\u{01}").serialized() == #""a\u0001""#)
        #expect(try JSONParser.parse(#""\u00e9\ud83d\ude42""#) == .string("é🙂"))
    }

    @Test("numbers: integers without a fraction, others exactly, non-finite as null")
    func numbers() throws {
        let cases: [(Double, String)] = [
            (0, "0"), (-5, "-5"), (42, "42"), (999_999_999_999_999, "999999999999999"), (-123_456_789, "-123456789"),
            (0.5, "0.5"), (-0.25, "-0.25"), (1e300, "1e+300"), (.infinity, "null"), (.nan, "null"),
        ]
        for (n, text) in cases {
            #expect(JSONValue.number(n).serialized() == text)
            if n.isFinite { #expect(try JSONParser.parse(text) == .number(n)) }
        }
    }

    @Test("objects keep their order; nested values serialize compactly; a repeated key keeps the last value")
    func objects() throws {
        #expect(try JSONParser.parse(#"{"a":1,"b":2,"a":3}"#).serialized() == #"{"a":3,"b":2}"#)
        #expect(try JSONParser.parse(#"{"k0":0,"k1":1,"k2":2,"k3":3,"k4":4,"k5":5,"k6":6,"k7":7}"#).objectValue?.count == 8)
        let value: JSONValue = ["b": 1, "a": [true, false, .null, ["x": "y"]], "c": [:]]
        #expect(value.serialized() == #"{"b":1,"a":[true,false,null,{"x":"y"}],"c":{}}"#)
        #expect(try JSONParser.parse(value.serialized()) == value)
    }

    @Test("past 32 keys a repeated key still keeps the last value in the first one's place")
    func repeatedKeysInALargeObject() throws {
        let keys = (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let parsed = try JSONParser.parse("{\(keys),\"k3\":\"last\",\"k39\":null,\"new\":1}").objectValue
        #expect(parsed?.count == 41)
        #expect(parsed?.keys.prefix(4) == ["k0", "k1", "k2", "k3"])
        #expect(parsed?["k3"] == "last")
        #expect(parsed?["k39"] == .null)
        #expect(parsed?.keys.last == "new")
    }

    @Test("an object of 200 000 distinct keys (a 2 MB line) parses in linear time, not minutes")
    func manyKeysAreNotQuadratic() {
        // Each key was compared with every earlier one: 200 000 keys took minutes of the event loop. The 20 s
        // bound only turns that into a failure; the parse takes a fraction of a second.
        let keys = (0..<200_000).map { #""k\#($0)":\#($0)"# }.joined(separator: ",")
        let text = UncheckedText("{" + keys + "}")
        let done = DispatchSemaphore(value: 0)
        let count = CountBox()
        Thread.detachNewThread {
            count.value = (try? JSONParser.parse(text.value))?.objectValue?.count
            done.signal()
        }
        guard done.wait(timeout: .now() + 20) == .success else {
            Issue.record("parsing 200 000 keys took more than 20 s")
            return
        }
        #expect(count.value == 200_000)
    }
}

private struct UncheckedText: @unchecked Sendable {
    let value: String
    init(_ value: String) { self.value = value }
}

private final class CountBox: @unchecked Sendable {
    var value: Int?
}
