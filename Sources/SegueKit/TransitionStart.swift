/// What a request that may start a transition returns.
public struct TransitionStart {
    /// Nil when nothing had to change (the view controller was already selected) or the request was queued.
    public let transition: Transition?
    /// The id a queued request (`when_busy: queue`) will start its transition under.
    public let queuedID: String?
    public let animator: String?
    public let duration: Double

    static var nothing: TransitionStart { TransitionStart(transition: nil, queuedID: nil, animator: nil, duration: 0) }

    static func started(_ t: Transition) -> TransitionStart {
        TransitionStart(transition: t, queuedID: nil, animator: t.animatorName, duration: t.duration)
    }
}
