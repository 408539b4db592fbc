#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// "Nice" axis ticks (1, 2, 2.5 or 5 times a power of ten) covering a range.
enum Ticks {
    /// A padded range that holds `low…high` (a flat series gets room around it) and ticks inside it.
    static func axis(_ low: Double, _ high: Double, count: Int = 5) -> (low: Double, high: Double, ticks: [Double]) {
        var lo = low, hi = high
        if !lo.isFinite || !hi.isFinite { lo = 0; hi = 1 }
        if hi - lo < 1e-9 {
            let pad = max(abs(lo) * 0.1, 0.5)
            lo -= pad
            hi += pad
        } else {
            let pad = (hi - lo) * 0.06
            lo -= pad
            hi += pad
        }
        let step = niceStep((hi - lo) / Double(max(1, count)))
        var ticks: [Double] = []
        var t = (lo / step).rounded(.up) * step
        while t <= hi + step * 1e-9, ticks.count < 50 {
            ticks.append(abs(t) < step * 1e-9 ? 0 : t)
            t += step
        }
        return (lo, hi, ticks)
    }

    static func niceStep(_ raw: Double) -> Double {
        guard raw > 0, raw.isFinite else { return 1 }
        let power = pow(10, (log10(raw)).rounded(.down))
        let fraction = raw / power
        let nice: Double = fraction <= 1 ? 1 : fraction <= 2 ? 2 : fraction <= 2.5 ? 2.5 : fraction <= 5 ? 5 : 10
        return nice * power
    }

    /// Decimals enough to tell ticks `step` apart.
    static func digits(for step: Double) -> Int {
        guard step > 0, step.isFinite else { return 2 }
        return max(0, min(6, Int((-log10(step)).rounded(.up)) + 1))
    }
}
