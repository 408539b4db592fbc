import SegueJSON
import Testing

@testable import SegueDaemon

/// The request fast path (`RequestEnvelope.scan`, straight from the line's bytes) against the general path
/// (`JSONParser` then `RequestEnvelope.check`): whenever the scan takes a line, the general path must take it too and
/// find the same id, method and params; when the scan declines, the general path answers as it always did.
@Suite("Envelope scan")
struct EnvelopeScanTests {
    static let table = Daemon.methodTable

    /// Plain requests (the scan must take each) and requests it must leave to the parser, mutated below.
    static let plain = [
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","method":"daemon.ping"}"#,
        " \t{ \"id\" : \"abc\" ,\r\n \"method\" : \"scene.list\" , \"jsonrpc\" : \"2.0\" , \"params\" : { } }\n ",
        #"{"method":"clock.advance","params":{"ms":1.5e2,"scene":"main"},"jsonrpc":"2.0","id":-7}"#,
        #"{"jsonrpc":"2.0","id":null,"method":"no.such","params":{"a":[1,{"b":null}],"c":"\u00e9\n","a":2}}"#,
        #"{"jsonrpc":"2.0","id":"é\"q\"","method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","id":0.5e1,"method":"daemon.ping","params":{"x":[[[[]]]]}}"#,
        #"{"jsonrpc":"2.0","id":123456789012345678,"method":"transition.wait"}"#,
        ##"{"jsonrpc":"2.0","id":"a","method":"vc.create","params":{"id":"v","title":"é\n🙂","color":"#ff0000"}}"##,
        #"{"jsonrpc":"2.0","id":"\#(String(repeating: "i", count: 256))","method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"x":"# + String(repeating: "[", count: 62)
            + String(repeating: "]", count: 62) + "}}",
        #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}]"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}, {"jsonrpc":"2.0","method":"scene.list","params":{}} ]"#,
        #" [ {"jsonrpc":"2.0","id":"x","method":"clock.now","params":{"scene":"s","deep":[[[[[]]]]]}} ] "#,
        #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"x":"# + String(repeating: "[", count: 61)
            + String(repeating: "]", count: 61) + "}}]",
        #"{"jsonrpc":"2.0","id":1,"method":"container.select","params":{"container":"c","index":1,"animator":"dt-slide"}}"#,
        #"{"jsonrpc":"2.0","id":2,"method":"container.select","params":{ "scene" : "s" , "vc":"b","animated":false,"info":{"k":[1,-0,2.5]},"when_busy":null,"index":-12,"zz":"\u0041","y":"é","x":123456789012345,"w":1234567890123456,"v":1e2,"u":0}}"#,
    ]
    static let others = [
        #"{"j\u0073onrpc":"2.0","id":1,"method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","jsonrpc":"2.0"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.p\u0069ng"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"démon.ping"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":[1]}"#,
        #"{"jsonrpc":"2.0","id":1.0,"method":"daemon.ping","params":"x"}"#,
        #"{"jsonrpc":"2.0","id":1e400,"method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","id":{"a":1},"method":"daemon.ping","extra":true}"#,
        #"{"jsonrpc":"2.0","id":true,"method":1}"#,
        #"{"jsonrpc":"2.00","id":1,"method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","id":01,"method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"} x"#,
        #"{"jsonrpc":"2.0","id":"\#(String(repeating: "i", count: 257))","method":"daemon.ping"}"#,
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"x":"# + String(repeating: "[", count: 63)
            + String(repeating: "]", count: 63) + "}}",
        #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping","params":{"x":"# + String(repeating: "[", count: 62)
            + String(repeating: "]", count: 62) + "}}]",
        #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"},]"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"},{"jsonrpc":"2.0","id":2,"method":"daemon.ping","x":1}]"#,
        #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}] x"#,
        "{}", "", "{", "null", "[]", "[1]", "[[]]",
    ]

    enum Outcome: Equatable {
        case scanned(RequestEnvelope)
        case batch([RequestEnvelope])
        case declined
    }

    /// What the scan makes of a line; when it takes it, what the general path makes of it must be the same.
    static func compare(_ bytes: [UInt8]) throws -> Outcome {
        let text = String(decoding: bytes, as: UTF8.self)
        let scanned = bytes.withUnsafeBufferPointer { RequestEnvelope.scan($0, methods: table) }
        let batch = bytes.withUnsafeBufferPointer { RequestEnvelope.scanBatch($0, methods: table) }
        // The general path finds number ids' text on the line (RequestEnvelope.idTexts): it must be the scan's.
        let texts = bytes.withUnsafeBufferPointer { RequestEnvelope.idTexts(in: $0) }
        if let scanned {
            #expect(batch == nil, "\(text)")
            let checked = try RequestEnvelope.check(JSONParser.parse(bytes: bytes), idText: texts.first ?? nil,
                                                    methods: table)
            #expect(checked == scanned, "\(text)")
            return .scanned(scanned)
        }
        guard let batch else { return .declined }
        let elements = try #require(try JSONParser.parse(bytes: bytes).arrayValue, "\(text)")
        let checked = try elements.enumerated().map { (i, element) throws(EnvelopeRefusal) in
            try RequestEnvelope.check(element, idText: i < texts.count ? texts[i] : nil, methods: table)
        }
        #expect(checked == batch, "\(text)")
        return .batch(batch)
    }

    @Test("each plain request or batch of them is scanned, and to the envelopes the parser finds")
    func plainRequests() throws {
        for line in EnvelopeScanTests.plain {
            #expect(try EnvelopeScanTests.compare(Array(line.utf8)) != .declined, "\(line)")
        }
        let ping = try EnvelopeScanTests.compare(Array(EnvelopeScanTests.plain[0].utf8))
        let number = try #require(EnvelopeScanTests.table.number(of: "daemon.ping"))
        #expect(ping == .scanned(RequestEnvelope(id: 1, method: .known(number), params: JSONObject())))
        let unknown = try EnvelopeScanTests.compare(Array(EnvelopeScanTests.plain[4].utf8))
        #expect(unknown == .scanned(RequestEnvelope(id: .null, method: .unknown("no.such"),
                                                    params: ["a": 2, "c": "é\n"])))
    }

    @Test("escapes, repeats, refused envelopes, empty batches and malformed lines are left to the parser")
    func othersDeclined() throws {
        for line in EnvelopeScanTests.others {
            #expect(try EnvelopeScanTests.compare(Array(line.utf8)) == .declined, "\(line)")
        }
    }

    @Test("100 000 mutated and random lines: whenever the scan takes one, the parser finds the same envelope")
    func mutations() throws {
        var rng = SplitMix64(state: 0x5CA9_0E4B)
        let plain = EnvelopeScanTests.plain.map { Array($0.utf8) }
        let seeds = plain + EnvelopeScanTests.others.map { Array($0.utf8) }
        let interesting = Array(#"{}[]",:0123456789.eE+-"\ unltrfasijdmpoc"#.utf8)
            + [0x09, 0x0A, 0x0D, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xED, 0xFF]
        let whitespace: [UInt8] = [0x20, 0x09, 0x0A, 0x0D]
        let letters = Array("abcdeijmnoprstuy.02".utf8)
        var scanned = 0
        for i in 0..<100_000 {
            // Two lines in three start from a plain request, so many mutants are still requests the scan may take.
            var bytes = i % 3 == 2 ? seeds[i % seeds.count] : plain[i % plain.count]
            if i % 20 == 19 {
                let count = Int.random(in: 0...48, using: &rng)
                bytes = (0..<count).map { _ in interesting.randomElement(using: &rng) ?? 0 }
            } else {
                for _ in 0..<Int.random(in: 1...2, using: &rng) where !bytes.isEmpty {
                    let at = Int.random(in: 0..<bytes.count, using: &rng)
                    switch Int.random(in: 0..<7, using: &rng) {
                    case 0: bytes[at] = interesting.randomElement(using: &rng) ?? 0
                    case 5: bytes.insert(whitespace.randomElement(using: &rng) ?? 0x20, at: at)
                    case 6: bytes[at] = letters.randomElement(using: &rng) ?? 0x61
                    case 1: bytes.remove(at: at)
                    case 2: bytes.insert(interesting.randomElement(using: &rng) ?? 0, at: at)
                    case 3: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 12)], at: at)
                    default:
                        // A piece of another seed (a member from one request spliced into another).
                        let other = seeds[Int.random(in: 0..<seeds.count, using: &rng)]
                        let from = Int.random(in: 0..<other.count + 1, using: &rng)
                        bytes.insert(contentsOf: other[from..<min(other.count, from + 16)], at: at)
                    }
                }
            }
            if try EnvelopeScanTests.compare(bytes) != .declined { scanned += 1 }
        }
        // Most mutations break the line or its envelope; the rest must be plenty for the comparison to mean something.
        #expect(scanned > 8_000)
    }

    /// Params objects the scan reads itself (`plain`) and ones it leaves to the parser, as a whole or a value at a
    /// time; mutated below.
    static let params = [
        #"{"container":"c","index":1,"animator":"dt-slide"}"#,
        #"{}"#, #"{ }"#, #"{"a":-0}"#, #"{"a":0,"b":-7,"c":999999999999999,"d":-99999999999999}"#,
        #"{"a":1000000000000000,"b":01,"c":1.0,"d":1e3,"e":-}"#,
        #"{"scene":"s","vc":"v","animated":true,"interactive":"auto","info":{"x":[1,{"y":null}]}}"#,
        #"{"a":"é","b":"\n","c":"\u0041\""}"#,
        #"{"a":1,"a":2}"#, #"{"index":1,"index":2}"#, #"{"a":1,}"#, #"{"a" 1}"#, #"{"a":1"#, #"{"a":}"#,
        #"{"x":"# + String(repeating: "[", count: 62) + String(repeating: "]", count: 62) + "}",
        #"{"x":"# + String(repeating: "[", count: 63) + String(repeating: "]", count: 63) + "}",
        "{" + (0..<40).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}",
        "{" + (0..<31).map { #""k\#($0)":\#($0)"# }.joined(separator: ",") + "}",
        #"{"d\u0041":1}"#, #"{"é":1}"#,
    ]

    /// What `scanParams` makes of an object at the start of `bytes` (as a request's params, one level deep) against
    /// the parser: whenever it takes one, the parser takes it too, with the same members and the same end.
    static func compareParams(_ bytes: [UInt8]) -> Bool {
        let text = String(decoding: bytes, as: UTF8.self)
        return bytes.withUnsafeBufferPointer { buffer -> Bool in
            guard let (object, end) = RequestEnvelope.scanParams(buffer, at: 0, depth: 1) else { return false }
            let parsed = try? JSONParser.parseValue(in: buffer, at: 0, depth: 1)
            #expect(parsed?.value == .object(object), "\(text)")
            #expect(parsed?.end == end, "\(text)")
            // Numbers compared bit for bit (== takes -0 for 0).
            if case .object(let other)? = parsed?.value {
                for (l, r) in zip(object.pairs, other.pairs) {
                    if case .number(let a) = l.value, case .number(let b) = r.value {
                        #expect(a.bitPattern == b.bitPattern, "\(text)")
                    }
                }
            }
            return true
        }
    }

    @Test("a plain params object is read without the parser, to the object the parser finds")
    func plainParams() throws {
        let taken = EnvelopeScanTests.params.map { EnvelopeScanTests.compareParams(Array($0.utf8)) }
        // The select's own params, the empty ones, small integers, the declared names and nested values are taken;
        // repeated names, malformed objects, too deep a value and 32 names or more are left to the parser.
        #expect(taken == [true, true, true, true, true, false, true, true, false, false, false, false, false, false,
                          true, false, false, true, false, false])
        let select = Array(EnvelopeScanTests.params[0].utf8)
        let object = try #require(select.withUnsafeBufferPointer { RequestEnvelope.scanParams($0, at: 0, depth: 1) }).0
        #expect(object == ["container": "c", "index": 1, "animator": "dt-slide"])
    }

    @Test("asciiString makes the String the bytes decode to, either side of a small string's 15 bytes")
    func asciiStrings() {
        for count in 0...40 {
            let bytes = (0..<count).map { UInt8(0x20 + ($0 * 7) % 0x5F) }
            let made = bytes.withUnsafeBufferPointer { RequestEnvelope.asciiString($0) }
            #expect(made == String(decoding: bytes, as: UTF8.self))
            #expect(Array(made.utf8) == bytes)
        }
    }

    @Test("100 000 mutated params objects: whenever the scan reads one itself, the parser finds the same")
    func mutatedParams() throws {
        var rng = SplitMix64(state: 0x9A2A_115C)
        let seeds = EnvelopeScanTests.params.map { Array($0.utf8) }
        let interesting = Array(#"{}[]",:0123456789.eE+-"\ unltrfasijdmpoc"#.utf8)
            + [0x09, 0x0A, 0x0D, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xED, 0xFF]
        var taken = 0
        for i in 0..<100_000 {
            var bytes = seeds[i % seeds.count]
            for _ in 0..<Int.random(in: 1...2, using: &rng) where !bytes.isEmpty {
                rng.mutate(&bytes, with: interesting)
            }
            if EnvelopeScanTests.compareParams(bytes) { taken += 1 }
        }
        #expect(taken > 10_000)
    }

    @Test("the method table finds every method by its bytes, and nothing else")
    func methodTable() {
        let table = EnvelopeScanTests.table
        #expect(Set(table.names) == Set(Daemon.methods.keys))
        #expect(table.names == table.names.sorted())
        for (number, name) in table.names.enumerated() { #expect(table.number(of: name) == number) }
        for name in ["", "daemon", "daemon.pin", "daemon.pingg", "Daemon.ping", "daemon.ping\u{0}", "daemon ping"] {
            #expect(table.number(of: name) == nil, "\(name)")
        }
    }
}

/// Params: which members a method read, past the 64 a bit mask holds, and the daemon's reuse of one Params.
@Suite("Params")
struct ParamsTests {
    @Test("finish names the first member no accessor asked for, before and after the 64th")
    func unreadMembers() throws {
        let object = JSONObject((0..<70).map { ("k\($0)", JSONValue.number(Double($0))) })
        let p = Params(object)
        for i in 0..<70 where i != 3 && i != 66 { _ = p.has("k\(i)") }
        #expect(throws: RPCError.invalidParams("k3", "unknown parameter 'k3'")) { try p.finish() }
        _ = try p.int("k3", in: 0...100)
        #expect(throws: RPCError.invalidParams("k66", "unknown parameter 'k66'")) { try p.finish() }
        #expect(try p.int("k66", in: 0...100) == 66)
        try p.finish()
        p.reset(to: object)
        #expect(throws: RPCError.invalidParams("k0", "unknown parameter 'k0'")) { try p.finish() }
    }

    @Test("the daemon reuses its Params only while no one else holds it")
    func reuse() throws {
        let h = try Harness()
        let first = h.daemon.dispatcher.params(for: ["a": 1])
        var spare: ObjectIdentifier?
        do {
            // `first` is still held, so this request gets a Params of its own, which becomes the spare.
            let second = h.daemon.dispatcher.params(for: ["b": 2])
            #expect(first !== second)
            #expect(first.object == ["a": 1])
            #expect(second.object == ["b": 2])
            spare = ObjectIdentifier(second)
        }
        #expect(ObjectIdentifier(h.daemon.dispatcher.params(for: ["c": 3])) == spare)
    }
}
