import CDtoa
import SegueJSON
import Testing

/// `cdtoa_format` (the C printer behind `JSONValue.writeNumber`'s fallback) must write exactly `Double.description`'s
/// bytes. Differential over 2,036,000 doubles in a release build (`swift test -c release --filter DoublePrinterTests`)
/// and 366,000 in a debug one, where `description` is slower: every exponent, subnormals, the layout thresholds (1e-4
/// and 2^53), the fractions frame events are made of, and powers of ten and two with their neighbours.
@Suite("Double printer")
struct DoublePrinterTests {
    /// `release` in a release build, `debug` in a debug one (where the suite must stay near a second).
    static func count(_ release: Int, debug: Int) -> Int {
        #if DEBUG
        debug
        #else
        release
        #endif
    }

    /// The values among `values` the printer writes differently from `description` (at most 10), and how many it
    /// checked. Infinities and NaN are skipped: `writeNumber` writes `null` for them before reaching the printer.
    static func mismatches(_ values: some Sequence<Double>) -> (bad: [Double], checked: Int) {
        var bad: [Double] = []
        var checked = 0
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CDTOA_BUFFER_SIZE)) { scratch in
            guard let base = scratch.baseAddress else { return }
            for value in values where value.isFinite {
                checked += 1
                let count = cdtoa_format(value, base)
                var expected = value.description
                let same = expected.withUTF8 { utf8 in
                    utf8.count == count && utf8.indices.allSatisfy { utf8[$0] == UInt8(bitPattern: base[$0]) }
                }
                if !same, bad.count < 10 { bad.append(value) }
            }
        }
        return (bad, checked)
    }

    @Test("random bit patterns: every exponent, subnormals, both signs")
    func randomBits() {
        var rng = SplitMix64(state: 0xD70A)
        let total = Self.count(1_000_000, debug: 150_000)
        let result = Self.mismatches((0..<total).map { _ in Double(bitPattern: rng.next()) })
        #expect(result.bad.isEmpty, "\(result.bad.map(\.bitPattern))")
        #expect(result.checked > total * 99 / 100)
    }

    @Test("random subnormals and values near the 1e-4 and 2^53 layout thresholds")
    func thresholds() {
        var rng = SplitMix64(state: 0x5B)
        var values: [Double] = []
        for _ in 0..<Self.count(100_000, debug: 20_000) {
            values.append(Double(bitPattern: rng.next() & ((1 << 52) - 1)))
            values.append(Double.random(in: 1e-5...2e-4, using: &rng))
            values.append(-Double.random(in: 1e15...3e16, using: &rng))
        }
        let result = Self.mismatches(values)
        #expect(result.bad.isEmpty, "\(result.bad.map(\.bitPattern))")
        #expect(result.checked == Self.count(300_000, debug: 60_000))
    }

    @Test("random values in [-2000, 2000], the range of frame coordinates")
    func frameRange() {
        var rng = SplitMix64(state: 2000)
        let total = Self.count(400_000, debug: 60_000)
        let result = Self.mismatches((0..<total).map { _ in Double.random(in: -2000...2000, using: &rng) })
        #expect(result.bad.isEmpty, "\(result.bad.map(\.bitPattern))")
        #expect(result.checked == total)
    }

    @Test("fractions k/3, k/7, k/60 (thirds, sevenths, frame times)")
    func fractions() {
        var values: [Double] = []
        let total = Self.count(100_000, debug: 20_000)
        for k in 1...total {
            values.append(Double(k) / 3)
            values.append(Double(-k) / 7)
            values.append(Double(k) / 60)
        }
        let result = Self.mismatches(values)
        #expect(result.bad.isEmpty, "\(result.bad.map(\.bitPattern))")
        #expect(result.checked == total * 3)
    }

    @Test("random values in (-1, 1) at every decade down to 1e-4 (alphas, transform components: the 0.000ddd layout)")
    func smallFractions() {
        var rng = SplitMix64(state: 0xA1FA)
        var values: [Double] = []
        for _ in 0..<Self.count(100_000, debug: 15_000) {
            for decade in [1.0, 0.1, 0.01, 0.001] {
                let value = Double.random(in: decade / 10..<decade, using: &rng)
                values += [value, -value]
            }
        }
        let result = Self.mismatches(values)
        #expect(result.bad.isEmpty, "\(result.bad.map(\.bitPattern))")
        #expect(result.checked == values.count)
    }

    @Test("powers of ten and two, one ulp either side, and the extremes")
    func boundaries() {
        var values: [Double] = [
            .leastNonzeroMagnitude, .leastNormalMagnitude, .greatestFiniteMagnitude,
            Double.leastNormalMagnitude.nextDown, 1e15, 1e16, 0x1p53, 0x1p54, 1e-4, 1e-5, 0.0, 0.1, 1.0 / 3,
        ]
        for exponent in -325...308 {
            guard let power = Double("1e\(exponent)") else { continue }
            values += [power, power.nextUp, power.nextDown]
        }
        for exponent in -1074...1023 {
            let power = Double(sign: .plus, exponent: exponent, significand: 1)
            values += [power, power.nextUp, power.nextDown]
        }
        for step in -1000...1000 {
            values += [0x1p53 + Double(step) * 2, 1e15 + Double(step) / 8, 1e16 + Double(step) * 2]
            values += [1e-4 + Double(step) * 0x1p-66, 1e-5 + Double(step) * 0x1p-69]
        }
        values += values.map { -$0 }
        let result = Self.mismatches(values)
        #expect(result.bad.isEmpty, "\(result.bad.map(\.bitPattern))")
        #expect(result.checked > 25_000)
    }

    @Test("writeNumber prints through the C printer what description prints, and null for non-finite")
    func wiring() {
        for value in [0.1, 213.33333333333334, 1e-5, 1e15 + 0.5, 1e16, 0x1p53 + 2, -0.25, 5e-324, 1.5e300] {
            var out: [UInt8] = []
            JSONValue.writeNumber(value, to: &out)
            #expect(String(decoding: out, as: UTF8.self) == value.description)
        }
        for value in [Double.nan, .infinity, -.infinity] {
            var out: [UInt8] = []
            JSONValue.writeNumber(value, to: &out)
            #expect(out == Array("null".utf8))
        }
        var out: [UInt8] = []
        JSONValue.writeNumber(-12, to: &out)
        #expect(out == Array("-12".utf8))
    }

    /// What `writeNumber` printed before the C printer took over its whole numbers too: the Swift integer path,
    /// else `description`, else `null`.
    static func formerJSON(_ n: Double) -> String {
        guard n.isFinite else { return "null" }
        if n == n.rounded(), abs(n) < 1e15 { return String(Int64(n)) }
        return n.description
    }

    @Test("cdtoa_json prints what writeNumber printed: whole numbers below 1e15 as integers, the rest as description")
    func wholeNumbers() {
        var rng = SplitMix64(state: 0x15)
        // Every one-digit whole number (cdtoa_json writes those without finding a length) and its neighbours.
        var values: [Double] = (-10...10).flatMap { [Double($0), Double($0).nextUp, Double($0).nextDown] }
        values += [0, -0.0, 1, -1, 9, 10, -10, 99, 100, 1e15, -1e15, 1e15 - 1, -(1e15 - 1), 1e15 - 0.5,
                   999_999_999_999_999.9, 0.5, -0.5, 4_294_967_296, -9_007_199_254_740_992, .nan,
                   .infinity, -.infinity, .greatestFiniteMagnitude, .leastNonzeroMagnitude]
        var power = 1.0
        for _ in 0...16 {
            values += [power, power - 1, power + 1, -power, -(power - 1)]
            power *= 10
        }
        for _ in 0..<Self.count(200_000, debug: 40_000) {
            values.append(Double(Int64.random(in: -999_999_999_999_999...999_999_999_999_999, using: &rng)))
            values.append(Double(Int32.random(in: .min ... .max, using: &rng)))
            values.append(Double.random(in: -1e16...1e16, using: &rng).rounded())
            values.append(Double.random(in: -400...400, using: &rng))
        }
        var bad: [Double] = []
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: Int(CDTOA_BUFFER_SIZE)) { scratch in
            guard let base = scratch.baseAddress else { return }
            for value in values {
                let count = cdtoa_json(value, base)
                let printed = String(decoding: UnsafeRawBufferPointer(start: base, count: count), as: UTF8.self)
                if printed != Self.formerJSON(value), bad.count < 10 { bad.append(value) }
            }
        }
        #expect(bad.isEmpty, "\(bad.map(\.bitPattern))")
    }
}
