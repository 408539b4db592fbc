@testable import SegueJSON
import Testing

/// The serializer writes into `JSONOutput` runs at a time; it must write exactly what the byte-at-a-time writer it
/// replaced wrote (kept below as the reference) for any value.
@Suite("Serializer reference")
struct SerializerReferenceTests {
    /// The former serializer, byte for byte.
    static func reference(_ value: JSONValue, to out: inout [UInt8]) {
        switch value {
        case .null: out += Array("null".utf8)
        case .bool(let b): out += Array((b ? "true" : "false").utf8)
        case .number(let n):
            if !n.isFinite {
                out += Array("null".utf8)
            } else if n == n.rounded(), abs(n) < 1e15 {
                out += Array(String(Int64(n)).utf8)
            } else {
                out += Array("\(n)".utf8)
            }
        case .string(let s): referenceString(s, to: &out)
        case .array(let array):
            out.append(UInt8(ascii: "["))
            for (i, element) in array.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                reference(element, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        case .object(let object):
            out.append(UInt8(ascii: "{"))
            for (i, (key, element)) in object.enumerated() {
                if i > 0 { out.append(UInt8(ascii: ",")) }
                referenceString(key, to: &out)
                out.append(UInt8(ascii: ":"))
                reference(element, to: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
    }

    static func referenceString(_ s: String, to out: inout [UInt8]) {
        let hex = Array("0123456789abcdef".utf8)
        out.append(0x22)
        for byte in s.utf8 {
            switch byte {
            case 0x22: out += [0x5C, 0x22]
            case 0x5C: out += [0x5C, 0x5C]
            case 0x0A: out += [0x5C, UInt8(ascii: "n")]
            case 0x0D: out += [0x5C, UInt8(ascii: "r")]
            case 0x09: out += [0x5C, UInt8(ascii: "t")]
            case 0..<0x20: out += [0x5C, UInt8(ascii: "u"), 0x30, 0x30, hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            default: out.append(byte)
            }
        }
        out.append(0x22)
    }

    static func randomString(_ rng: inout SplitMix64) -> String {
        let pieces = ["a", "key", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1f}", "\u{7f}", "é", "漢", "🙂", "/", " ",
                      String(repeating: "x", count: 200)]
        let count = Int.random(in: 0...6, using: &rng)
        return (0..<count).map { _ in pieces.randomElement(using: &rng) ?? "" }.joined()
    }

    static func randomValue(_ rng: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth > 3 ? 4 : 6), using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2:
            let numbers: [Double] = [
                0, -0.0, 7, -7, 10, -10, 99, 1234567, -999_999_999_999_999, 1e15, -1e15, 0.5, -2.25, 1e300, 5e-324,
                .infinity, .nan, Double(Int.random(in: -1_000_000...1_000_000, using: &rng)),
            ]
            return .number(numbers.randomElement(using: &rng) ?? 0)
        case 3: return .string(randomString(&rng))
        case 4: return .array((0..<Int.random(in: 0...4, using: &rng)).map { _ in randomValue(&rng, depth: depth + 1) })
        default:
            return .object(JSONObject((0..<Int.random(in: 0...4, using: &rng)).map { _ in
                (randomString(&rng), randomValue(&rng, depth: depth + 1))
            }))
        }
    }

    @Test("3 000 random values: serialized(), write(to: [UInt8]) and write(to: String) all match the reference")
    func randomValues() {
        var rng = SplitMix64(state: 0x0DD_BA11)
        for _ in 0..<3_000 {
            let value = SerializerReferenceTests.randomValue(&rng)
            var expected: [UInt8] = []
            SerializerReferenceTests.reference(value, to: &expected)
            let text = String(decoding: expected, as: UTF8.self)
            #expect(value.serialized() == text)
            var bytes: [UInt8] = [0x5B]
            value.write(to: &bytes)
            #expect(bytes == [0x5B] + expected)
            var string = "["
            value.write(to: &string)
            #expect(string == "[" + text)
        }
    }

    @Test("numbers with a fraction or past 1e15 print as Swift's description: 20 000 random doubles and the edges")
    func numbersAsDescription() {
        var rng = SplitMix64(state: 0xF1_0A7)
        var values: [Double] = [
            0.1, 0.2 + 0.1, -0.5, 1e15, -1e15, 1e16, 123456789012345678, 1e300, -1e-300, 5e-324, .ulpOfOne,
            .greatestFiniteMagnitude, -.greatestFiniteMagnitude, .leastNormalMagnitude, 1.0 / 3, 2.0 / 3, 0.7,
            1e-7, 1e-5, 0.0001, 123.456, 336 * 0.123456789,
        ]
        for _ in 0..<10_000 { values.append(Double(bitPattern: rng.next())) }
        for _ in 0..<10_000 { values.append(Double.random(in: -1000...1000, using: &rng)) }
        for n in values where n.isFinite {
            var out = JSONOutput(capacity: 16)
            JSONValue.writeNumber(n, to: &out)
            var expected: [UInt8] = []
            SerializerReferenceTests.reference(.number(n), to: &expected)
            #expect(out.string == String(decoding: expected, as: UTF8.self))
        }
    }

    @Test("strings either side of writeString's reserved length: 20 000 random ones as the reference escapes them")
    func stringsEitherSideOfTheReservedLength() {
        var rng = SplitMix64(state: 0x57_2196)
        let pieces = ["a", "Z", "0", "-", ".", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "\u{7F}", "é", "🙂", "/"]
        let limit = JSONValue.reservedLength
        for i in 0..<20_000 {
            // Lengths around the limit in bytes (a piece is 1 to 4 of them), and short ones.
            let count = i % 2 == 0 ? Int.random(in: 0...12, using: &rng) : Int.random(in: limit - 8...limit + 8, using: &rng)
            var s = ""
            while s.utf8.count < count { s += pieces.randomElement(using: &rng) ?? "a" }
            // Start each in a small output at a random fill, so the reservation must grow it.
            var out = JSONOutput(capacity: 16)
            for _ in 0..<Int.random(in: 0...20, using: &rng) { out.append(UInt8(ascii: "x")) }
            let before = out.count
            JSONValue.writeString(s, to: &out)
            var expected: [UInt8] = []
            SerializerReferenceTests.referenceString(s, to: &expected)
            let written = out.withBytes { Array($0[before...]) }
            #expect(written == expected, "\(s.debugDescription)")
        }
    }

    @Test("JSONOutput grows past its capacity and is reusable after removeAll")
    func outputGrowth() {
        var out = JSONOutput(capacity: 16)
        let long = String(repeating: "é\n", count: 300)
        JSONValue.writeString(long, to: &out)
        var expected: [UInt8] = []
        SerializerReferenceTests.referenceString(long, to: &expected)
        #expect(out.string == String(decoding: expected, as: UTF8.self))
        out.removeAll()
        #expect(out.count == 0)
        JSONValue.writeNumber(-12345, to: &out)
        #expect(out.string == "-12345")
    }
}
