extension Scene {
    public func transition(_ id: String) -> Transition? { ledger.transitionsByID[id] }

    public var transitions: [Transition] { ledger.transitionOrder }

    /// A request waiting in a container's queue (`when_busy: queue`), or one that left the queue without
    /// starting a transition.
    public func queuedRequest(_ id: String) -> (container: ContainerViewController, kind: TransitionKind)? {
        for c in controllers.viewControllersByID.values.compactMap({ $0 as? ContainerViewController }) {
            if let q = c.queue.first(where: { $0.id == id }) { return (c, q.kind) }
        }
        return nil
    }

    public func queuedOutcome(_ id: String) -> QueuedOutcome? { ledger.queuedOutcomes[id] }

    func newTransitionID() -> String { ledger.newTransitionID() }

    // MARK: Animator resolution (docs/DESIGN.md §1)

    // MARK: when_busy

    /// Applies `when_busy` (TransitionLedger.admit). Nil means: go ahead now.
    func admit(_ container: ContainerViewController, _ policy: WhenBusy?, kind: TransitionKind,
               retry: @escaping (String) throws(EngineError) -> TransitionStart) throws(EngineError) -> TransitionStart?
    {
        try ledger.admit(container, policy, kind: kind, retry: retry, in: self)
    }

    /// How many requests one container may queue.
    public static let maxQueuedPerContainer = 64

    /// Starts the next queued request of an idle container (TransitionLedger.startNextQueued).
    func startNextQueued(_ container: ContainerViewController) { ledger.startNextQueued(container, in: self) }

    // MARK: Starting

    /// The watchdog (TransitionLedger.checkWatchdogs).
    func checkWatchdogs() { ledger.checkWatchdogs(in: self) }

    /// Jumps a running transition to its end: its animations finish at once (their completions run), and if the
    /// animator still has not completed it, the engine does (forced).
    public func finishNow(_ transition: Transition) { ledger.finishNow(transition, in: self) }

    /// Forces every running transition of the scene to its end (scene.destroy, daemon shutdown). `forced`: each
    /// reports `forced: true` however it ends (scene.destroy: the scene is going, not the transition finishing).
    public func finishAllTransitions(forced: Bool = false) { ledger.finishAllTransitions(forced: forced, in: self) }
}
