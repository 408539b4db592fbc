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
///
/// What does not change per frame is worked out once, when the path is made: each segment's interpolation (a
/// transform's decomposition, `AffinePath`, instead of one decomposition per frame), the spline's tangents, the
/// paced lengths. `write(at:into:)` then writes a frame's value in place without allocating (issue 24: a
/// keyframed property per frame within 2× a plainly animated one); `value(at:)` gives the same numbers as an array.
struct KeyframePath {
    let values: [[Double]]
    /// One per value, non-decreasing in 0…1 (paced modes: evenly spaced, not read).
    let keyTimes: [Double]
    /// One per segment (values − 1), or empty for linear segments.
    let timings: [CubicBezier]
    let mode: CalculationMode
    /// How one straight segment between two values is interpolated, made once per segment.
    enum SegmentPath {
        /// Channel by channel along a straight line.
        case straight
        /// A 2-D transform by decomposition, written as its 16 values.
        case affine(AffinePath)
        /// Anything else the `segment` function gave (a 3-D transform's path).
        case general((Double) -> [Double])
    }
    private var segments: [SegmentPath] = []
    /// The spline's tangents per segment (cubic modes): outgoing at the segment's start, incoming at its end,
    /// already scaled as `cubicValue` uses them.
    private var tangentsOut: [[Double]] = []
    private var tangentsIn: [[Double]] = []
    /// Paced modes: the cumulative length at each sample of the curve (`samples` per segment), normalised to 1.
    private var lengths: [Double] = []
    private static let samples = 32
    /// The same path laid out flat for the frame loop (`AnimationTrack.Mode.keyframed`), when its layout allows.
    private(set) var frames: KeyframeFrames?

    init(values: [[Double]], keyTimes: [Double]?, timings: [CubicBezier], mode: CalculationMode,
         segment: (([Double], [Double]) -> ((Double) -> [Double])?)? = nil)
    {
        self.values = values
        let n = values.count
        self.keyTimes = keyTimes ?? (0..<n).map { n > 1 ? Double($0) / Double(n - 1) : 0 }
        self.timings = timings
        self.mode = mode
        if n > 1 {
            segments.reserveCapacity(n - 1)
            for i in 0..<(n - 1) {
                // Lists of different lengths (a gradient's colours) do not interpolate: the value jumps half-way.
                if values[i].count != values[i + 1].count {
                    segments.append(.general(GradientValues.discretePath(from: values[i], to: values[i + 1])))
                    continue
                }
                guard let segment, let path = segment(values[i], values[i + 1]) else {
                    segments.append(.straight)
                    continue
                }
                // The transforms' segment function (LayerKeyPath.segmentInterpolation) decomposes 2-D ends with
                // `AffinePath`: kept as the path itself, so a frame writes its 16 values without an array.
                if let affine = AffinePath(from: values[i], to: values[i + 1]) {
                    segments.append(.affine(affine))
                } else {
                    segments.append(.general(path))
                }
            }
        }
        if mode == .cubic || mode == .cubicPaced, n > 1 {
            let uniform = mode == .cubicPaced
            for i in 0..<(n - 1) {
                let (m1, m2) = tangents(i, uniform: uniform)
                tangentsOut.append(m1)
                tangentsIn.append(m2)
            }
        }
        if mode == .paced || mode == .cubicPaced, n > 1 {
            var cumulative = [0.0]
            let steps = mode == .paced ? 1 : KeyframePath.samples
            var previous = values[0]
            for i in 0..<(n - 1) {
                for k in 1...steps {
                    let p = mode == .paced ? values[i + 1] : cubicValue(i, Double(k) / Double(steps))
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
        let straight = segments.allSatisfy { if case .straight = $0 { return true } else { return false } }
        frames = KeyframeFrames(values: values, keyTimes: self.keyTimes, timings: timings, mode: mode,
                                straight: straight, tangentsOut: tangentsOut, tangentsIn: tangentsIn)
    }

    /// Where `u` falls: a value held (`segment` nil, `value` its index) or a segment and the fraction in it.
    @inline(__always)
    private func locate(_ u: Double) -> (value: Int, segment: Int?, fraction: Double, cubic: Bool) {
        let n = values.count
        switch mode {
        case .paced, .cubicPaced:
            if u <= 0 { return (0, nil, 0, false) }
            if u >= 1 { return (n - 1, nil, 0, false) }
            // The sample whose cumulative length brackets u, then the fraction within it.
            var lo = 0, hi = lengths.count - 1
            while hi - lo > 1 {
                let mid = (lo + hi) / 2
                if lengths[mid] <= u { lo = mid } else { hi = mid }
            }
            let span = lengths[hi] - lengths[lo]
            let f = span > 0 ? (u - lengths[lo]) / span : 0
            if mode == .paced { return (lo, lo, f, false) }
            let steps = Double(KeyframePath.samples)
            let global = (Double(lo) + f) / steps  // in segments
            let i = min(n - 2, Int(global))
            return (i, i, global - Double(i), true)
        case .linear, .discrete, .cubic:
            if u < keyTimes[0] { return (0, nil, 0, false) }
            if u >= keyTimes[n - 1] { return (n - 1, nil, 0, false) }
            var i = 0
            while i < n - 2, u >= keyTimes[i + 1] { i += 1 }
            if mode == .discrete { return (i, nil, 0, false) }
            let span = keyTimes[i + 1] - keyTimes[i]
            var f = span > 0 ? (u - keyTimes[i]) / span : 1
            if i < timings.count { f = timings[i].value(at: f) }
            return (i, i, f, mode == .cubic)
        }
    }

    /// The value at `u` (the animation's time fraction, after its own timing).
    func value(at u: Double) -> [Double] {
        let n = values.count
        guard n > 1 else { return values.first ?? [] }
        let at = locate(u)
        guard let i = at.segment else { return values[at.value] }
        if at.cubic, values[i].count == values[i + 1].count { return cubicValue(i, at.fraction) }
        switch segments[i] {
        case .affine(let path): return path.at(at.fraction).transform.values
        case .general(let path): return path(at.fraction)
        case .straight:
            let a = values[i], b = values[i + 1]
            var out = a
            for c in 0..<min(a.count, b.count) { out[c] = a[c] + (b[c] - a[c]) * at.fraction }
            return out
        }
    }

    /// Writes the value at `u` into `out` (at most `out.count` channels): the same numbers as `value(at:)`, with
    /// no allocation except for a 3-D transform segment (its path makes its array).
    func write(at u: Double, into out: UnsafeMutableBufferPointer<Double>) {
        let n = values.count
        guard n > 1 else {
            if let only = values.first { for c in 0..<min(only.count, out.count) { out[c] = only[c] } }
            return
        }
        let at = locate(u)
        guard let i = at.segment else {
            let v = values[at.value]
            for c in 0..<min(v.count, out.count) { out[c] = v[c] }
            return
        }
        let f = at.fraction
        let p1 = values[i], p2 = values[i + 1]
        if at.cubic, p1.count == p2.count {
            let m1 = tangentsOut[i], m2 = tangentsIn[i]
            let f2 = f * f, f3 = f2 * f
            let h00 = 2 * f3 - 3 * f2 + 1, h10 = f3 - 2 * f2 + f, h01 = -2 * f3 + 3 * f2, h11 = f3 - f2
            let k = min(p1.count, out.count)
            for c in 0..<k {
                out[c] = c < p2.count ? h00 * p1[c] + h10 * m1[c] + h01 * p2[c] + h11 * m2[c] : p1[c]
            }
            return
        }
        switch segments[i] {
        case .affine(let path):
            guard out.count >= 16 else { return }
            let (a, b, c, d, tx, ty) = path.at(f).affine
            out[0] = a; out[1] = b; out[2] = 0; out[3] = 0
            out[4] = c; out[5] = d; out[6] = 0; out[7] = 0
            out[8] = 0; out[9] = 0; out[10] = 1; out[11] = 0
            out[12] = tx; out[13] = ty; out[14] = 0; out[15] = 1
        case .general(let path):
            let v = path(f)
            for c in 0..<min(v.count, out.count) { out[c] = v[c] }
        case .straight:
            let k = min(p1.count, out.count)
            for c in 0..<k { out[c] = c < p2.count ? p1[c] + (p2[c] - p1[c]) * f : p1[c] }
        }
    }

    /// The Hermite tangents of segment `i` of the Kochanek–Bartels spline with tension, continuity and bias 0:
    /// Catmull-Rom's, scaled for unevenly spaced key times as Kochanek and Bartels do (1984, §4); the ends use
    /// the one neighbour they have (the end point repeated). Outgoing at p1, incoming at p2 (per unit of this
    /// segment's parameter).
    private func tangents(_ i: Int, uniform: Bool) -> ([Double], [Double]) {
        let n = values.count
        var p0 = values[max(0, i - 1)], p3 = values[min(n - 1, i + 2)]
        let p1 = values[i], p2 = values[i + 1]
        // A neighbour of another length (a gradient's list) gives no tangent: the end point repeated.
        if p0.count != p1.count { p0 = p1 }
        if p3.count != p2.count { p3 = p2 }
        func time(_ k: Int) -> Double { uniform ? Double(k) : keyTimes[k] }
        let d1 = time(i + 1) - time(i)
        let d0 = i > 0 ? time(i) - time(i - 1) : d1
        let d2 = i + 2 < n ? time(i + 2) - time(i + 1) : d1
        let s1 = d0 + d1 > 0 ? 2 * d1 / (d0 + d1) : 1
        let s2 = d1 + d2 > 0 ? 2 * d1 / (d1 + d2) : 1
        let k = min(p1.count, p2.count)
        var m1 = [Double](repeating: 0, count: k), m2 = [Double](repeating: 0, count: k)
        for c in 0..<k {
            m1[c] = s1 * 0.5 * ((p1[c] - p0[c]) + (p2[c] - p1[c]))
            m2[c] = s2 * 0.5 * ((p2[c] - p1[c]) + (p3[c] - p2[c]))
        }
        return (m1, m2)
    }

    /// The Hermite segment `i` at `f` with the tangents worked out when the path was made.
    private func cubicValue(_ i: Int, _ f: Double) -> [Double] {
        let p1 = values[i], p2 = values[i + 1]
        let m1 = tangentsOut[i], m2 = tangentsIn[i]
        let f2 = f * f, f3 = f2 * f
        let h00 = 2 * f3 - 3 * f2 + 1, h10 = f3 - 2 * f2 + f, h01 = -2 * f3 + 3 * f2, h11 = f3 - f2
        var out = p1
        for c in 0..<min(p1.count, p2.count) {
            out[c] = h00 * p1[c] + h10 * m1[c] + h01 * p2[c] + h11 * m2[c]
        }
        return out
    }
}

/// The per-frame part of a `KeyframePath` whose values all have the same number of channels and whose segments
/// are straight lines (linear, discrete and cubic modes): values, key times, timing functions and tangents laid out
/// flat in memory it owns, so the frame loop evaluates a keyframed track as it does a plain one — the block's
/// shared progress, the view's channels fetched once, no array copied, retained or made per frame (issue 24).
/// `write(at:into:count:)` does the same floating-point operations in the same order as `KeyframePath.write`.
final class KeyframeFrames {
    /// Values (n), channels per value (k), timing functions (0 or n − 1).
    let n: Int, k: Int, timingCount: Int
    let mode: CalculationMode
    /// `n × k` values, value by value.
    private let values: UnsafeMutablePointer<Double>
    private let keyTimes: UnsafeMutablePointer<Double>
    private let timings: UnsafeMutablePointer<CubicBezier>
    /// Cubic mode: per segment, its outgoing then its incoming tangent (`2 × k` each segment).
    private let tangents: UnsafeMutablePointer<Double>

    /// Nil when the path is not one the flat layout evaluates exactly (paced modes, a single value, values of
    /// different lengths, a transform's decomposed or other general segment): the animation evaluates it itself.
    init?(values: [[Double]], keyTimes: [Double], timings: [CubicBezier], mode: CalculationMode,
          straight: Bool, tangentsOut: [[Double]], tangentsIn: [[Double]])
    {
        let n = values.count
        guard n > 1, keyTimes.count == n, timings.isEmpty || timings.count >= n - 1 else { return nil }
        let k = values[0].count
        guard k > 0, values.allSatisfy({ $0.count == k }) else { return nil }
        switch mode {
        case .linear: guard straight else { return nil }
        case .discrete: break
        case .cubic: guard tangentsOut.count == n - 1, tangentsIn.count == n - 1,
                           tangentsOut.allSatisfy({ $0.count == k }), tangentsIn.allSatisfy({ $0.count == k })
                     else { return nil }
        case .paced, .cubicPaced: return nil
        }
        self.n = n
        self.k = k
        self.mode = mode
        timingCount = min(timings.count, n - 1)
        self.values = .allocate(capacity: n * k)
        for i in 0..<n { for c in 0..<k { self.values[i * k + c] = values[i][c] } }
        self.keyTimes = .allocate(capacity: n)
        for i in 0..<n { self.keyTimes[i] = keyTimes[i] }
        self.timings = .allocate(capacity: max(1, timingCount))
        self.timings.initialize(from: timings, count: timingCount)
        let segments = mode == .cubic ? n - 1 : 0
        self.tangents = .allocate(capacity: max(1, segments * 2 * k))
        for i in 0..<segments {
            for c in 0..<k {
                self.tangents[(2 * i) * k + c] = tangentsOut[i][c]
                self.tangents[(2 * i + 1) * k + c] = tangentsIn[i][c]
            }
        }
    }

    deinit {
        values.deallocate()
        keyTimes.deallocate()
        timings.deinitialize(count: timingCount)
        timings.deallocate()
        tangents.deallocate()
    }

    /// Writes the value at `u` into `out[0..<min(k, count)]`: `KeyframePath.write(at:into:)`'s numbers. Not
    /// inlined into the frame loop, whose plain modes would pay for its registers.
    @inline(never)
    func write(at u: Double, into out: UnsafeMutablePointer<Double>, count: Int) {
        let n = self.n, k = self.k
        let m = min(k, count)
        if u < keyTimes[0] {
            for c in 0..<m { out[c] = values[c] }
            return
        }
        if u >= keyTimes[n - 1] {
            let v = values + (n - 1) * k
            for c in 0..<m { out[c] = v[c] }
            return
        }
        var i = 0
        while i < n - 2, u >= keyTimes[i + 1] { i += 1 }
        let p1 = values + i * k, p2 = p1 + k
        if mode == .discrete {
            for c in 0..<m { out[c] = p1[c] }
            return
        }
        let span = keyTimes[i + 1] - keyTimes[i]
        var f = span > 0 ? (u - keyTimes[i]) / span : 1
        if i < timingCount { f = timings[i].value(at: f) }
        if mode == .cubic {
            let m1 = tangents + (2 * i) * k, m2 = m1 + k
            let f2 = f * f, f3 = f2 * f
            let h00 = 2 * f3 - 3 * f2 + 1, h10 = f3 - 2 * f2 + f, h01 = -2 * f3 + 3 * f2, h11 = f3 - f2
            for c in 0..<m { out[c] = h00 * p1[c] + h10 * m1[c] + h01 * p2[c] + h11 * m2[c] }
            return
        }
        for c in 0..<m { out[c] = p1[c] + (p2[c] - p1[c]) * f }
    }
}
