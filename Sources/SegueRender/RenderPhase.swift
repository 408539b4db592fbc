import SegueKit

/// A stretch of an interactive transition that `render.timeline` shades: the user scrubbing it (`scrub`), or the
/// engine running it to the end (`finish`) or back to the start (`cancel`) after the interaction ended.
public struct RenderPhase: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case scrub, finish, cancel
    }

    public var kind: Kind
    /// Scene time in nanoseconds.
    public var start: Int64
    /// Scene time in nanoseconds; nil while the phase lasts.
    public var end: Int64?

    public init(kind: Kind, start: Int64, end: Int64? = nil) {
        self.kind = kind
        self.start = start
        self.end = end
    }

    /// The phases a transition recorded (`Transition.phases`).
    public static func recorded(by transition: Transition) -> [RenderPhase] {
        transition.phases.compactMap { phase in
            Kind(rawValue: phase.kind.rawValue).map { RenderPhase(kind: $0, start: phase.start, end: phase.end) }
        }
    }
}
