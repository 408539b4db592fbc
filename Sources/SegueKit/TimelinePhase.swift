/// A stretch of an interactive transition's timeline: the user scrubbing it, or the engine finishing or cancelling
/// it after the interaction ended. `render.timeline` shades each one.
public struct TimelinePhase: Sendable, Equatable {
    public enum Kind: String, Sendable {
        /// Driven by `transition.update` (or a pan gesture): time follows the finger.
        case scrub
        /// Running forward to the end after `transition.finish`.
        case finish
        /// Running backward to the start after `transition.cancel`.
        case cancel
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
}
