/// CAKeyframeAnimation's `calculationMode`: how the values between key times are computed.
public enum CalculationMode: String, Sendable, CaseIterable {
    /// kCAAnimationLinear: straight lines between the values, at the key times (each segment's timing function).
    case linear
    /// kCAAnimationDiscrete: each value is held from its key time to the next; no interpolation.
    case discrete
    /// kCAAnimationPaced: constant velocity along the polyline through the values; key times and timing
    /// functions are ignored.
    case paced
    /// kCAAnimationCubic: a Kochanek–Bartels spline through the values at the key times, with tension,
    /// continuity and bias 0 (a Catmull-Rom spline).
    case cubic
    /// kCAAnimationCubicPaced: the cubic spline at constant velocity; key times and timing functions are ignored.
    case cubicPaced = "cubic_paced"
}

/// Values at key times evaluated as CAKeyframeAnimation evaluates them (`calculationMode`, `keyTimes`,
/// `timingFunctions`). Before the first key time the first value holds, after the last the last one.
struct KeyframePath {
    let values: [[Double]]
    /// One per value, non-decreasing in 0…1 (paced modes: evenly spaced, not read).
    let keyTimes: [Double]
    /// One per segment (values − 1), or empty for linear segments.
    let timings: [CubicBezier]
    let mode: CalculationMode
    /// How one linear segment is interpolated (a transform by decomposition); nil for a straight line.
    let segment: (([Double], [Double]) -> ((Double) -> [Double])?)?
    /// Paced modes: the cumulative length at each sample of the curve (`samples` per segment), normalised to 1.
    private var lengths: [Double] = []
    private static let samples = 32

    init(values: [[Double]], keyTimes: [Double]?, timings: [CubicBezier], mode: CalculationMode,
         segment: (([Double], [Double]) -> ((Double) -> [Double])?)? = nil)
    {
        self.values = values
        let n = values.count
        self.keyTimes = keyTimes ?? (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
        self.timings = timings
        self.mode = mode
        self.segment = segment
        if mode == .paced || mode == .cubicPaced, n > 1 {
            var cumulative = [0.0]
            let steps = mode == .paced ? 1 : KeyframePath.samples
            var previous = values[0]
            for i in 0..<(n - 1) {
                for k in 1...steps {
                    let p = mode == .paced ? values[i + 1] : cubicValue(i, Double(k) / Double(steps), uniform: true)
                    var d = 0.0
                    for c in 0..<min(p.count, previous.count) { d += (p[c] - previous[c]) * (p[c] - previous[c]) }
                    cumulative.append((cumulative.last ?? 0) + d.squareRoot())
                    previous = p
                }
            }
            let total = cumulative.last ?? 0
            lengths = cumulative.map { total > 0 ? $0 / total : 0 }
            if total == 0 { lengths = cumulative.indices.map { Double($0) / Double(max(1, cumulative.count - 1)) } }
        }
    }

    /// The value at `u` (the animation's time fraction, after its own timing).
    func value(at u: Double) -> [Double] {
        let n = values.count
        guard n > 1 else { return values.first ?? [] }
        switch mode {
        case .paced, .cubicPaced:
            if u <= 0 { return values[0] }
            if u >= 1 { return values[n - 1] }
            // The sample whose cumulative length brackets u, then the fraction within it.
            var lo = 0, hi = lengths.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if lengths[mid] <= u { lo = mid } else { hi = mid }
            }
            let span = lengths[hi] - lengths[lo]
            let f = span > 0 ? (u - lengths[lo]) / span : 0
            if mode == .paced { return straight(values[lo], values[hi], f, segment: lo) }
            let steps = Double(KeyframePath.samples)
            let global = (Double(lo) + f) / steps  // in segments
            let i = min(n - 2, Int(global))
            return cubicValue(i, global - Double(i), uniform: true)
        case .linear, .discrete, .cubic:
            if u < keyTimes[0] { return values[0] }
            if u >= keyTimes[n - 1] { return values[n - 1] }
            var i = 0
            while i < n - 2, u >= keyTimes[i + 1] { i += 1 }
            if mode == .discrete { return values[i] }
            let span = keyTimes[i + 1] - keyTimes[i]
            var f = span > 0 ? (u - keyTimes[i]) / span : 1
            if i < timings.count { f = timings[i].value(at: f) }
            return mode == .cubic ? cubicValue(i, f, uniform: false) : straight(values[i], values[i + 1], f, segment: i)
        }
    }

    private func straight(_ a: [Double], _ b: [Double], _ f: Double, segment i: Int) -> [Double] {
        // Lists of different lengths (a gradient's colours) do not interpolate: the value jumps half-way.
        if a.count != b.count { return GradientValues.discretePath(from: a, to: b)(f) }
        if let segment, let path = segment(a, b) { return path(f) }
        var out = a
        for c in 0..<min(a.count, b.count) { out[c] = a[c] + (b[c] - a[c]) * f }
        return out
    }

    /// The Hermite segment `i` at `f` of the Kochanek–Bartels spline with tension, continuity and bias 0. The
    /// tangents are Catmull-Rom's, scaled for unevenly spaced key times as Kochanek and Bartels do (1984, §4);
    /// the ends use the one neighbour they have (the end point repeated).
    private func cubicValue(_ i: Int, _ f: Double, uniform: Bool) -> [Double] {
        let n = values.count
        var p0 = values[max(0, i - 1)], p3 = values[min(n - 1, i + 2)]
        let p1 = values[i], p2 = values[i + 1]
        if p1.count != p2.count { return GradientValues.discretePath(from: p1, to: p2)(f) }
        // A neighbour of another length (a gradient's list) gives no tangent: the end point repeated.
        if p0.count != p1.count { p0 = p1 }
        if p3.count != p2.count { p3 = p2 }
        func time(_ k: Int) -> Double { uniform ? Double(k) : keyTimes[k] }
        let d1 = time(i + 1) - time(i)
        let d0 = i > 0 ? time(i) - time(i - 1) : d1
        let d2 = i + 2 < n ? time(i + 2) - time(i + 1) : d1
        // Outgoing tangent at p1, incoming at p2 (per unit of this segment's parameter).
        let s1 = d0 + d1 > 0 ? 2 * d1 / (d0 + d1) : 1
        let s2 = d1 + d2 > 0 ? 2 * d1 / (d1 + d2) : 1
        let f2 = f * f, f3 = f2 * f
        let h00 = 2 * f3 - 3 * f2 + 1, h10 = f3 - 2 * f2 + f, h01 = -2 * f3 + 3 * f2, h11 = f3 - f2
        var out = p1
        for c in 0..<min(p1.count, p2.count) {
            let m1 = s1 * 0.5 * ((p1[c] - p0[c]) + (p2[c] - p1[c]))
            let m2 = s2 * 0.5 * ((p2[c] - p1[c]) + (p3[c] - p2[c]))
            out[c] = h00 * p1[c] + h10 * m1 + h01 * p2[c] + h11 * m2
        }
        return out
    }
}
