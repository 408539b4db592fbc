#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension Spring {
    /// UIKit's system curve (push, pop, the modal transition styles, `spring = "system"`): the CASpringAnimation
    /// UIKit adds for its private curve 7, dumped as mass 3, stiffness 1000, damping 500, velocity 0, duration 0.5
    /// (damping ratio 500 / (2·√3000) ≈ 4.56, `UISpringTimingParameters()`'s documented ratio). segued's reading:
    /// that ratio on a spring whose slowest mode's envelope falls to 1e-3 at 0.5 s, so the curve is monotone and
    /// reaches its target at 0.5 s without a visible jump (taken literally, mass 3 and stiffness 1000 are only 63 %
    /// of the way at 0.5 s). docs/PROTOCOL.md cites the sources.
    public static let system: Spring = {
        let zeta = systemDamping / (2 * (systemStiffness * systemMass).squareRoot())
        let rate = 1 / (zeta + (zeta * zeta - 1).squareRoot())  // slowest mode's decay per unit ω₀
        return Spring(omega: -log(settleThreshold) / (rate * systemDuration), zeta: zeta, velocity: 0)
    }()
    /// The system curve's duration (s).
    public static let systemDuration = 0.5
    /// The dumped CASpringAnimation's mass, stiffness and damping.
    public static let systemMass = 3.0, systemStiffness = 1000.0, systemDamping = 500.0
}

extension Timing {
    /// UIKit's system curve over its 0.5 s (`Spring.system`).
    public static let system = Timing.spring(.system)
}
