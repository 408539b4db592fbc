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

    /// UIKit's form (damping ratio, initial velocity): the stiffness is chosen so that the decay envelope
    /// (e^(−ζω0 t) for ζ < 1, the slowest mode for ζ ≥ 1) falls to 1e-3 at `duration`. Nil for ζ ≤ 0 or a
    /// non-positive duration.
    public init?(dampingRatio zeta: Double, initialVelocity velocity: Double, duration: Double) {
        guard zeta > 0, zeta.isFinite, duration > 0, duration.isFinite, velocity.isFinite else { return nil }
        let decay = -log(Spring.settleThreshold)  // ln 1000
        let rate: Double  // decay rate per unit ω0
        if zeta < 1 {
            rate = zeta
        } else if zeta == 1 {
            rate = 1
        } else {
            rate = 1 / (zeta + (zeta * zeta - 1).squareRoot())
        }
        self.init(omega: decay / (rate * duration), zeta: zeta, velocity: velocity)
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
