import SegueJSON
import Testing

@testable import SegueDaemon

/// A deterministic generator (SplitMix64), so a failure replays.
struct SplitMix64: RandomNumberGenerator {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// One random edit of `bytes` (the fuzzers' mutation): a byte replaced by or an insertion of one of
    /// `interesting`, a byte removed, or a run of up to 8 bytes repeated in place.
    mutating func mutate(_ bytes: inout [UInt8], with interesting: [UInt8]) {
        guard !bytes.isEmpty else { return }
        let at = Int.random(in: 0..<bytes.count, using: &self)
        switch Int.random(in: 0..<4, using: &self) {
        case 0: bytes[at] = interesting.randomElement(using: &self) ?? 0
        case 1: bytes.remove(at: at)
        case 2: bytes.insert(interesting.randomElement(using: &self) ?? 0, at: at)
        default: bytes.insert(contentsOf: bytes[at..<min(bytes.count, at + 8)], at: at)
        }
    }
}

@Suite("Mutated requests")
struct FuzzTests {
    static let seeds = [
        #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#,
        #"[{"jsonrpc":"2.0","id":"a","method":"scene.create","params":{"size":{"w":10,"h":10},"clock":"manual"}},{"jsonrpc":"2.0","method":"daemon.ping"}]"#,
        ##"{"jsonrpc":"2.0","id":2,"method":"vc.create","params":{"id":"v","title":"é\n🙂","color":"#ff0000","animators":{"push":"flip"}}}"##,
        #"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"ms":1.5e2}}"#,
        ##"{"jsonrpc":"2.0","id":4,"method":"container.create","params":{"kind":"paging","count":5,"reuse":2,"template":{"colors":["#000000"]}}}"##,
    ]

    @Test("20 000 mutated and random lines: each gets at most one well-formed answer, and the daemon keeps serving")
    func mutations() throws {
        let h = try Harness()
        let connection = h.daemon.connect(output: RecordingOutput())
        var rng = SplitMix64(state: 0x5E6E_ED)
        let interesting: [UInt8] = Array(#"{}[]",:0123456789.eE+-"\tnulltruefalse"#.utf8) + [0x00, 0x0A, 0xC3, 0xFF, 0xED, 0xA0, 0x80]
        for i in 0..<20_000 {
            var bytes = Array(FuzzTests.seeds[i % FuzzTests.seeds.count].utf8)
            if i % 10 == 9 {
                bytes = (0..<Int.random(in: 0...64, using: &rng)).map { _ in UInt8.random(in: 0...255, using: &rng) }
            } else {
                for _ in 0..<Int.random(in: 1...4, using: &rng) where !bytes.isEmpty {
                    rng.mutate(&bytes, with: interesting)
                }
            }
            let answer = bytes.withUnsafeBufferPointer { h.daemon.handle(line: $0, from: connection) }
            if let answer {
                let parsed = try JSONParser.parse(answer)
                let ok = parsed["jsonrpc"] == "2.0" || parsed.arrayValue?.allSatisfy { $0["jsonrpc"] == "2.0" } == true
                #expect(ok, "answer to mutation \(i) is not a JSON-RPC response: \(answer)")
                if !ok { break }
            }
        }
        #expect(try h.call("daemon.ping", id: 5) == [["jsonrpc": "2.0", "id": 5, "result": "pong"]])
    }

    @Test("the connection's framing: a stream of 3 000 requests cut into random pieces (1 to 300 bytes, CRLF or LF) is answered exactly as the same lines sent whole")
    func randomChunking() throws {
        var rng = SplitMix64(state: 0xC4_0C4)
        var lines: [String] = []
        for i in 0..<3_000 {
            switch i % 5 {
            case 0: lines.append(#"{"jsonrpc":"2.0","id":\#(i),"method":"daemon.ping"}"#)
            case 1: lines.append(#"{"jsonrpc":"2.0","id":"s\#(i)","method":"no.such.method"}"#)
            case 2: lines.append(#"{"jsonrpc":"2.0","id":\#(i),"method":"daemon.ping""#)  // a parse error
            case 3: lines.append(#"[{"jsonrpc":"2.0","id":\#(i),"method":"daemon.ping"},{"jsonrpc":"2.0","method":"daemon.ping"}]"#)
            default: lines.append(#"{"jsonrpc":"2.0","method":"daemon.ping"}"#)  // a notification: no answer
            }
        }
        let whole = try Harness()
        var expected: [JSONValue] = []
        for line in lines { expected += try whole.send(line) }
        let cut = try Harness()
        let stream = Array(lines.map { $0 + (Bool.random(using: &rng) ? "\r\n" : "\n") }.joined().utf8)
        var got: [JSONValue] = []
        var at = 0
        while at < stream.count {
            let end = min(stream.count, at + Int.random(in: 1...300, using: &rng))
            try cut.channel.writeInbound(stream[at..<end])
            got += try cut.readLines()
            at = end
        }
        #expect(got.count == 2_400)
        #expect(got == expected)
        #expect(cut.channel.isActive)
    }
}
