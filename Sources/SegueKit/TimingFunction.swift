#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How an animation's progress depends on time: a cubic Bézier timing curve or a spring.
public enum Timing: Sendable, Equatable {
    case curve(CubicBezier)
    case spring(Spring)

    /// Progress (0 at the start, 1 at the end; a spring may overshoot) after `t` seconds of `duration`.
    @inline(__always)
    public func progress(at t: Double, duration: Double) -> Double {
        switch self {
        case .curve(let bezier):
            guard duration > 0 else { return 1 }
            return bezier.value(at: min(max(t / duration, 0), 1))
        case .spring(let spring):
            return t >= duration ? 1 : spring.progress(at: t)
        }
    }
}

/// A CAMediaTimingFunction: a cubic Bézier from (0,0) to (1,1) with control points (x1,y1), (x2,y2).
public struct CubicBezier: Sendable, Equatable {
    public let x1: Double, y1: Double, x2: Double, y2: Double
    // Polynomial coefficients of x(s) and y(s).
    private let ax: Double, bx: Double, cx: Double
    private let ay: Double, by: Double, cy: Double

    public init(_ x1: Double, _ y1: Double, _ x2: Double, _ y2: Double) {
        self.x1 = x1; self.y1 = y1; self.x2 = x2; self.y2 = y2
        cx = 3 * x1
        bx = 3 * (x2 - x1) - cx
        ax = 1 - cx - bx
        cy = 3 * y1
        by = 3 * (y2 - y1) - cy
        ay = 1 - cy - by
    }

    public static let linear = CubicBezier(0, 0, 1, 1)
    public static let easeIn = CubicBezier(0.42, 0, 1, 1)
    public static let easeOut = CubicBezier(0, 0, 0.58, 1)
    public static let easeInOut = CubicBezier(0.42, 0, 0.58, 1)
    /// Core Animation's kCAMediaTimingFunctionDefault.
    public static let caDefault = CubicBezier(0.25, 0.1, 0.25, 1)

    /// The named curves of the protocol.
    public static func named(_ name: String) -> CubicBezier? {
        switch name {
        case "linear": .linear
        case "ease_in": .easeIn
        case "ease_out": .easeOut
        case "ease_in_out": .easeInOut
        case "default": .caDefault
        default: nil
        }
    }

    /// The x control values must lie in 0…1 so that x(s) is monotonic.
    public var isValid: Bool {
        (0...1).contains(x1) && (0...1).contains(x2) && y1.isFinite && y2.isFinite
    }

    @inline(__always) func sampleX(_ s: Double) -> Double { ((ax * s + bx) * s + cx) * s }
    @inline(__always) func sampleY(_ s: Double) -> Double { ((ay * s + by) * s + cy) * s }
    @inline(__always) func sampleDX(_ s: Double) -> Double { (3 * ax * s + 2 * bx) * s + cx }

    /// y for a given x in 0…1, with x(s) solved to 1e-6 (Newton, then bisection where Newton stalls).
    public func value(at x: Double) -> Double {
        if x <= 0 { return 0 }
        if x >= 1 { return 1 }
        if x1 == y1 && x2 == y2 { return x }
        let epsilon = 1e-7
        var s = x
        for _ in 0..<8 {
            let error = sampleX(s) - x
            if abs(error) < epsilon { return sampleY(s) }
            let d = sampleDX(s)
            if abs(d) < 1e-6 { break }
            s -= error / d
        }
        var lo = 0.0, hi = 1.0
        s = x
        for _ in 0..<64 {
            let sx = sampleX(s)
            if abs(sx - x) < epsilon { break }
            if sx < x { lo = s } else { hi = s }
            s = (lo + hi) / 2
        }
        return sampleY(s)
    }
}

/// A damped harmonic oscillator in closed form, normalised so that progress goes from 0 to 1.
///
/// The displacement from the target, as a fraction of the distance, is x(t) with x(0) = 1 and x'(0) = −v0, where v0 is
/// UIKit's initial spring velocity (1 = the whole distance per second). Progress is 1 − x(t).
public struct Spring: Sendable, Equatable {
    /// Natural angular frequency ω0 (rad/s).
    public let omega: Double
    /// Damping ratio ζ.
    public let zeta: Double
    /// Initial velocity relative to the distance, per second.
    public let velocity: Double

    private let kind: Kind
    private let c1: Double, c2: Double, r1: Double, r2: Double, wd: Double

    private enum Kind: Sendable, Equatable { case under, critical, over }

    /// The fraction of the distance left when the envelope says the spring has settled.
    public static let settleThreshold = 1e-3

    public init(omega: Double, zeta: Double, velocity: Double) {
        self.omega = omega
        self.zeta = zeta
        self.velocity = velocity
        if zeta < 1 {
            kind = .under
            wd = omega * (1 - zeta * zeta).squareRoot()
            r1 = -zeta * omega
            r2 = 0
            c1 = 1
            c2 = (-velocity + zeta * omega) / wd
        } else if zeta == 1 {
            kind = .critical
            wd = 0
            r1 = -omega
            r2 = 0
            c1 = 1
            c2 = -velocity + omega
        } else {
            kind = .over
            wd = 0
            let s = (zeta * zeta - 1).squareRoot()
            // ζ − √(ζ²−1) computed without cancellation, so ζ up to 300 (and beyond) stays accurate.
            r1 = -omega / (zeta + s)
            r2 = -omega * (zeta + s)
            c2 = (-velocity - r1) / (r2 - r1)
            c1 = 1 - c2
        }
    }

    /// UIKit's form (damping ratio, initial velocity), as Framer's published converter
    /// (`SpringCurveValueConverter.computeDerivedCurveOptions`) computes it: mass 1, ζ clamped to ≤ 1 (UIKit's ratio
    /// form has no overdamped spring), the duration clamped to 0.01…10 s, and ω₀ solved from the envelope
    /// ε − ((ζω₀ − v)/ω_d)·e^(−ζω₀T) = 0 (ζ < 1) or ε − (1 + (ω₀ − v)T)·e^(−ω₀T) = 0 (ζ = 1), ε = 1e-3 (see
    /// `ratioFormOmega`). Nil for ζ ≤ 0 or a non-finite input. The animation still snaps to its target at the
    /// duration it was given.
    public init?(dampingRatio zeta: Double, initialVelocity velocity: Double, duration: Double) {
        guard zeta > 0, zeta.isFinite, duration.isFinite, velocity.isFinite else { return nil }
        let zeta = min(zeta, Spring.ratioFormMaxDamping)
        let duration = min(max(duration, Spring.ratioFormDurations.lowerBound), Spring.ratioFormDurations.upperBound)
        self.init(omega: Spring.ratioFormOmega(zeta: zeta, velocity: velocity, duration: duration), zeta: zeta,
                  velocity: velocity)
    }

    /// The largest damping ratio UIKit's ratio form takes (Framer's `maxDamping`); a larger one is clamped.
    public static let ratioFormMaxDamping = 1.0
    /// The durations the ratio form solves for (Framer's `minDuration`, `maxDuration`); others are clamped.
    public static let ratioFormDurations = 0.01...10.0

    /// ω₀ of the ratio form for ζ in (0, 1] and a duration in 0.01…10 s.
    ///
    /// First exactly Framer's Newton iteration (11 steps from 5/T with its derivative), whose answers are the
    /// reference; kept when it solved the envelope equation on its falling side (the root where the spring has
    /// settled, not the one where the sine term merely vanishes). Where Framer's iteration diverges (large
    /// velocities: it then returns NaN and falls back to tension 100, friction 10, another damping ratio) segued
    /// brackets the largest root of the same equation with the coefficient's magnitude and bisects; should that
    /// find no root, the settle rule of protocol 1: ζω₀T = ln 1000.
    public static func ratioFormOmega(zeta: Double, velocity v: Double, duration t: Double) -> Double {
        let epsilon = settleThreshold
        let critical = zeta >= 1
        let root = (1 - zeta * zeta).squareRoot()
        // The sine term's envelope left at T, minus ε: Framer's equation where its coefficient is positive, and
        // its magnitude where a large velocity makes it negative (the spring overshoots; Framer has no root there).
        func excess(_ w: Double) -> Double {
            critical
                ? abs(exp(-w * t) * ((w - v) * t + 1)) - epsilon
                : abs((zeta * w - v) / (w * root)) * exp(-zeta * w * t) - epsilon
        }
        // Framer's iteration, step for step.
        func framerEnvelope(_ w: Double) -> Double {
            critical
                ? exp(-w * t) * ((w - v) * t + 1) - epsilon
                : epsilon - (zeta * w - v) / (w * root) * exp(-zeta * w * t)
        }
        func framerDerivative(_ w: Double) -> Double {
            if critical { return exp(-w * t) * (v - w) * t * t }
            let displacement = w * zeta * t
            let d = displacement * v + v
            let e = zeta * zeta * w * w * t
            let f = exp(-displacement)
            let g = w * w * root
            let factor: Double = -framerEnvelope(w) + epsilon > 0 ? -1 : 1
            return factor * ((d - e) * f) / g
        }
        var w = 5 / t
        for _ in 1..<12 { w -= framerEnvelope(w) / framerDerivative(w) }
        if w.isFinite, w > 0, abs(excess(w)) <= 1e-9, excess(w * (1 + 1e-6)) < 0 { return w }
        // The largest root. Past the envelope's last peak (above v/ζ, where the sine term's sign turns) it only
        // falls, towards 0 < ε: start there, walk down until the envelope is at least ε again, then bisect.
        var hi = max(5 / t, 2 * max(v, 0) / zeta + 1 / t)
        var steps = 0
        while !(excess(hi) < 0 && excess(hi * 1.001) <= excess(hi)), steps < 400 {
            hi *= 2
            steps += 1
        }
        var lo = hi
        steps = 0
        while excess(lo) < 0, steps < 4000 {
            hi = lo
            lo /= 1.05
            steps += 1
        }
        guard excess(lo) >= 0, lo > 0, excess(hi) < 0 else { return -log(epsilon) / (zeta * t) }
        for _ in 0..<200 {
            let mid = (lo + hi) / 2
            if mid <= lo || mid >= hi { break }
            if excess(mid) >= 0 { lo = mid } else { hi = mid }
        }
        return (lo + hi) / 2
    }

    /// CASpringAnimation's form. Returns the spring and its settling duration (the same 1e-3 envelope rule).
    public static func physical(mass: Double, stiffness: Double, damping: Double, velocity: Double)
        -> (spring: Spring, duration: Double)?
    {
        guard mass > 0, stiffness > 0, damping > 0, mass.isFinite, stiffness.isFinite, damping.isFinite,
            velocity.isFinite
        else { return nil }
        let omega = (stiffness / mass).squareRoot()
        let zeta = damping / (2 * (stiffness * mass).squareRoot())
        let rate: Double = zeta < 1 ? zeta : (zeta == 1 ? 1 : 1 / (zeta + (zeta * zeta - 1).squareRoot()))
        let duration = -log(settleThreshold) / (rate * omega)
        return (Spring(omega: omega, zeta: zeta, velocity: velocity), duration)
    }

    /// Displacement from the target as a fraction of the distance.
    @inline(__always)
    public func displacement(at t: Double) -> Double {
        switch kind {
        case .under: exp(r1 * t) * (c1 * cos(wd * t) + c2 * sin(wd * t))
        case .critical: (c1 + c2 * t) * exp(r1 * t)
        case .over: c1 * exp(r1 * t) + c2 * exp(r2 * t)
        }
    }

    @inline(__always)
    public func progress(at t: Double) -> Double { 1 - displacement(at: t) }

    /// How an extra initial velocity moves the spring: the displacement is linear in the initial velocity v0,
    /// x(t) = x₀(t) − v0·S(t), so a value animated from `from` to `to` that starts with an extra absolute velocity
    /// u (units per second, e.g. carried over from a superseded animation) is `from + (to − from)·progress + u·S`.
    public func velocityResponse(at t: Double) -> Double {
        switch kind {
        case .under: return exp(r1 * t) * sin(wd * t) / wd
        case .critical: return t * exp(r1 * t)
        case .over: return r1 == r2 ? t * exp(r1 * t) : (exp(r1 * t) - exp(r2 * t)) / (r1 - r2)
        }
    }
}
