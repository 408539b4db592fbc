import Foundation
import Testing

@testable import SegueKit

@Suite("Timing curves and springs")
struct TimingTests {
    /// Points on the curve computed directly from the Bézier polynomial at parameter s (independent of the
    /// engine's solver, which goes the other way: from x to s).
    func pointOnCurve(_ c: (Double, Double, Double, Double), _ s: Double) -> (x: Double, y: Double) {
        let u = 1 - s
        let x = 3 * u * u * s * c.0 + 3 * u * s * s * c.2 + s * s * s
        let y = 3 * u * u * s * c.1 + 3 * u * s * s * c.3 + s * s * s
        return (x, y)
    }

    @Test("named curves match their Bézier polynomials to 1e-6", arguments: [
        ("linear", (0.0, 0.0, 1.0, 1.0)), ("ease_in", (0.42, 0.0, 1.0, 1.0)), ("ease_out", (0.0, 0.0, 0.58, 1.0)),
        ("ease_in_out", (0.42, 0.0, 0.58, 1.0)), ("default", (0.25, 0.1, 0.25, 1.0)),
    ])
    func namedCurves(name: String, points: (Double, Double, Double, Double)) throws {
        let curve = try #require(CubicBezier.named(name))
        for i in 1..<100 {
            let (x, y) = pointOnCurve(points, Double(i) / 100)
            #expect(abs(curve.value(at: x) - y) < 1e-6, "\(name) at x=\(x)")
        }
    }

    @Test("curve values at known points")
    func knownPoints() {
        #expect(CubicBezier.easeInOut.value(at: 0.5) == 0.5)  // symmetric curve
        #expect(CubicBezier.linear.value(at: 0.25) == 0.25)
        #expect(CubicBezier.easeIn.value(at: 0) == 0)
        #expect(CubicBezier.easeIn.value(at: 1) == 1)
        // ease-in lags, ease-out leads
        #expect(CubicBezier.easeIn.value(at: 0.5) < 0.5)
        #expect(CubicBezier.easeOut.value(at: 0.5) > 0.5)
        // A steep custom curve is still solved to 1e-6.
        let steep = CubicBezier(0.9, 0, 0.1, 1)
        for i in 1..<50 {
            let (x, y) = pointOnCurve((0.9, 0, 0.1, 1), Double(i) / 50)
            #expect(abs(steep.value(at: x) - y) < 1e-6)
        }
    }

    /// x'' + 2ζω x' + ω² x = 0 integrated with RK4 at a small step: an independent check of the closed form.
    func integrate(omega: Double, zeta: Double, x0: Double, v0: Double, until t: Double) -> Double {
        var x = x0, v = v0
        // RK4 is stable for |h·λ| < 2.7: shrink the step for stiff (strongly overdamped) springs.
        let step = min(1e-5, 0.5 / (2 * zeta * omega + omega))
        let steps = max(1, Int(t / step))
        let h = t / Double(steps)
        func a(_ x: Double, _ v: Double) -> Double { -2 * zeta * omega * v - omega * omega * x }
        for _ in 0..<steps {
            let k1x = v, k1v = a(x, v)
            let k2x = v + h / 2 * k1v, k2v = a(x + h / 2 * k1x, v + h / 2 * k1v)
            let k3x = v + h / 2 * k2v, k3v = a(x + h / 2 * k2x, v + h / 2 * k2v)
            let k4x = v + h * k3v, k4v = a(x + h * k3x, v + h * k3v)
            x += h / 6 * (k1x + 2 * k2x + 2 * k3x + k4x)
            v += h / 6 * (k1v + 2 * k2v + 2 * k3v + k4v)
        }
        return x
    }

    @Test("springs match a numerical integration (under, critically and over damped, ζ up to 300)",
          arguments: [(0.3, 0.0), (0.75, 0.5), (1.0, 0.0), (1.0, 2.0), (2.5, 0.5), (300.0, 0.0)])
    func springMatchesIntegration(zeta: Double, velocity: Double) throws {
        // The closed form for any ζ (CASpringAnimation's form reaches ζ > 1); ω₀ as the ratio form would pick it.
        let omega = Spring.ratioFormOmega(zeta: min(zeta, 1), velocity: velocity, duration: 1)
        let spring = Spring(omega: omega, zeta: zeta, velocity: velocity)
        for t in [0.05, 0.1, 0.25, 0.5, 0.8] {
            let expected = integrate(omega: spring.omega, zeta: zeta, x0: 1, v0: -velocity, until: t)
            #expect(abs(spring.displacement(at: t) - expected) < 1e-6, "ζ=\(zeta) t=\(t)")
        }
    }

    @Test("the ratio form follows Framer's converter: seed 000's spring (1 s, ζ 0.75, v 0.5)")
    func framerReference() throws {
        let spring = try #require(Spring(dampingRatio: 0.75, initialVelocity: 0.5, duration: 1))
        #expect(abs(spring.omega - 9.27847) < 5e-6)
        #expect(spring.zeta == 0.75)
        for (t, expected) in [(0.1, 0.290140), (0.2, 0.669900), (0.3, 0.907372), (0.5, 1.028376)] {
            #expect(abs(spring.progress(at: t) - expected) < 5e-7, "t=\(t)")
        }
        // At the duration the animation snaps to its target.
        #expect(Timing.spring(spring).progress(at: 1, duration: 1) == 1)
    }

    @Test("the ratio form solves Framer's envelope ε − ((ζω₀ − v)/ω_d)·e^(−ζω₀T) = 0 (ζ = 1: ε − (1 + (ω₀ − v)T)·e^(−ω₀T))",
          arguments: [(0.5, 1.0, 0.0), (0.75, 0.3, 0.0), (0.9, 0.5, 1.0), (0.2, 2.0, -1.0), (1.0, 0.5, 0.0),
                      (1.0, 2.0, 1.0)])
    func framerEnvelope(zeta: Double, duration: Double, velocity: Double) throws {
        let spring = try #require(Spring(dampingRatio: zeta, initialVelocity: velocity, duration: duration))
        let w = spring.omega
        let residual = zeta < 1
            ? 1e-3 - (zeta * w - velocity) / (w * (1 - zeta * zeta).squareRoot()) * exp(-zeta * w * duration)
            : 1e-3 - (1 + (w - velocity) * duration) * exp(-w * duration)
        #expect(abs(residual) < 1e-9, "ζ=\(zeta) T=\(duration) v=\(velocity): ω₀ \(w)")
        // The settled root, not the one below it: a larger ω₀ leaves less than ε.
        let above = zeta < 1
            ? (zeta * w * 1.01 - velocity) / (w * 1.01 * (1 - zeta * zeta).squareRoot()) * exp(-zeta * w * 1.01 * duration)
            : (1 + (w * 1.01 - velocity) * duration) * exp(-w * 1.01 * duration)
        #expect(above < 1e-3)
    }

    @Test("the critically damped branch at ζ = 1: Framer's Newton root (0.5 s, v 0 → ω₀ 18.46683)")
    func criticalBranch() throws {
        let spring = try #require(Spring(dampingRatio: 1, initialVelocity: 0, duration: 0.5))
        #expect(abs(spring.omega - 18.466827) < 1e-5)
        let peak = (1...100).map { spring.progress(at: Double($0) / 200) }.max() ?? 2
        #expect(peak <= 1)
    }

    @Test("large velocities, where Framer's iteration diverges, still settle: the envelope's largest root")
    func largeVelocity() throws {
        for (zeta, duration, velocity) in [(0.5, 0.5, 10.0), (0.75, 1.0, 20.0), (1.0, 1.0, 10.0), (0.3, 0.3, 100.0)] {
            let spring = try #require(Spring(dampingRatio: zeta, initialVelocity: velocity, duration: duration))
            #expect(spring.omega.isFinite && spring.omega > 0)
            // Near its target at the duration: no visible jump when it snaps (under 1 % of the distance).
            #expect(abs(spring.displacement(at: duration)) < 0.01, "ζ=\(zeta) T=\(duration) v=\(velocity)")
            #expect(spring.zeta == zeta)
        }
    }

    @Test("the ratio form's clamps: ζ ≤ 1, duration 0.01…10 s; ζ ≤ 0 is refused")
    func clamps() throws {
        let over = try #require(Spring(dampingRatio: 4, initialVelocity: 0, duration: 0.5))
        let critical = try #require(Spring(dampingRatio: 1, initialVelocity: 0, duration: 0.5))
        #expect(over == critical)
        let long = try #require(Spring(dampingRatio: 0.5, initialVelocity: 0, duration: 60))
        #expect(long == Spring(dampingRatio: 0.5, initialVelocity: 0, duration: 10))
        let short = try #require(Spring(dampingRatio: 0.5, initialVelocity: 0, duration: 0))
        #expect(short == Spring(dampingRatio: 0.5, initialVelocity: 0, duration: 0.01))
        let spring = try #require(Spring(dampingRatio: 0.3, initialVelocity: 0, duration: 1))
        let peak = (1...100).map { spring.progress(at: Double($0) / 100) }.max() ?? 0
        #expect(peak > 1.1)
        #expect(Spring(dampingRatio: 0, initialVelocity: 0, duration: 1) == nil)
        #expect(Spring(dampingRatio: -1, initialVelocity: 0, duration: 1) == nil)
        #expect(Spring(dampingRatio: .nan, initialVelocity: 0, duration: 1) == nil)
        #expect(Spring(dampingRatio: 0.5, initialVelocity: .infinity, duration: 1) == nil)
    }

    @Test("the system curve: ζ = 500/(2·√3000) ≈ 4.56, monotone, 75 % at 0.1 s, at its target at 0.5 s")
    func systemCurve() {
        let spring = Spring.system
        #expect(abs(spring.zeta - 4.564354645876384) < 1e-12)
        #expect(Spring.systemDuration == 0.5)
        var last = 0.0
        for i in 0...500 {
            let p = Timing.spring(spring).progress(at: Double(i) / 1000, duration: Spring.systemDuration)
            #expect(p >= last, "not monotone at \(i) ms")
            #expect(p <= 1)
            last = p
        }
        #expect(abs(spring.progress(at: 0.1) - 0.7457) < 1e-4)
        // No visible jump when it snaps at 0.5 s: 1.01e-3 of the distance is left (0.4 pt across a 390 pt screen).
        #expect(1 - spring.progress(at: 0.5 - 1e-9) < 1.02e-3)
        #expect(Timing.spring(spring).progress(at: 0.5, duration: 0.5) == 1)
    }

    @Test("CASpringAnimation form: the duration is the settling time")
    func physicalSpring() throws {
        let (spring, duration) = try #require(Spring.physical(mass: 1, stiffness: 100, damping: 10, velocity: 0))
        #expect(abs(spring.omega - 10) < 1e-12)
        #expect(abs(spring.zeta - 0.5) < 1e-12)
        #expect(abs(duration - log(1000) / 5) < 1e-9)
    }
}
