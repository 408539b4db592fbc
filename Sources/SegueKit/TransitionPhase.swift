/// One interactive phase of a transition.
public struct TransitionPhase: Sendable, Equatable {
    public enum Kind: String, Sendable { case scrub, finish, cancel }
    public let kind: Kind
    public let start: Int64
    public internal(set) var end: Int64?
}
