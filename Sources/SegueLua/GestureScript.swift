import SegueKit

/// A synthetic pan gesture an interaction plugin's check feeds it (docs/PLUGIN_API.md "Checking an interaction
/// plugin"): samples along the plugin's forward direction, each a time step, a phase, the translation as a fraction
/// of the scene's extent in that direction, and the velocity in extents per second.
public struct GestureScript: Sendable, Equatable {
    public struct Sample: Sendable, Equatable {
        public let dt: Double
        public let phase: PanGesture.Phase
        public let fraction: Double
        public let velocity: Double
    }

    public let name: String
    public let samples: [Sample]

    /// A gesture that moves from `from` to `to` in `steps` changed samples over `seconds`.
    static func drag(_ from: Double, _ to: Double, steps: Int, seconds: Double) -> [Sample] {
        let v = (to - from) / seconds
        return (1...steps).map { i in
            Sample(dt: seconds / Double(steps), phase: .changed, fraction: from + (to - from) * Double(i) / Double(steps), velocity: v)
        }
    }

    static func began() -> Sample { Sample(dt: 0, phase: .began, fraction: 0, velocity: 0) }
    static func ended(at f: Double, velocity: Double) -> Sample { Sample(dt: 1.0 / 60, phase: .ended, fraction: f, velocity: velocity) }

    /// The published scripts, in the order a check runs them.
    public static let published: [GestureScript] = [
        GestureScript(name: "slow drag past half", samples: [began()] + drag(0, 0.7, steps: 12, seconds: 0.6)
            + [ended(at: 0.7, velocity: 0.1)]),
        GestureScript(name: "slow drag back", samples: [began()] + drag(0, 0.6, steps: 8, seconds: 0.4)
            + drag(0.6, 0.2, steps: 8, seconds: 0.4) + [ended(at: 0.2, velocity: -0.1)]),
        GestureScript(name: "fast flick forward", samples: [began()] + drag(0, 0.2, steps: 3, seconds: 0.05)
            + [ended(at: 0.2, velocity: 4)]),
        GestureScript(name: "fast flick back", samples: [began()] + drag(0, 0.4, steps: 6, seconds: 0.3)
            + drag(0.4, 0.3, steps: 2, seconds: 0.03) + [ended(at: 0.3, velocity: -4)]),
        GestureScript(name: "stop at zero", samples: [began()] + drag(0, 0.3, steps: 4, seconds: 0.2)
            + drag(0.3, 0, steps: 4, seconds: 0.2) + [ended(at: 0, velocity: 0)]),
    ]
}
