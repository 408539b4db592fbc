/// What became of a queued request that never started a transition (nothing left to do, or no longer valid).
public struct QueuedOutcome: Sendable {
    public let id: String
    public let kind: TransitionKind
    public let container: String
    public let state: TransitionState
    public let message: String?
}
