extension Scene {
    /// The one transition-start pipeline of every container kind: `when_busy` admits the request (or queues it, to
    /// be retried with the closure `makeRetry` makes — only when the container is busy, so an idle start allocates
    /// no escaping closure and retains no captures for it), `plan` decides what it does now that it runs (nil:
    /// nothing to animate — it made its changes itself), the animator and the interaction controller are resolved,
    /// and the transition begins.
    func startTransition(on container: ContainerViewController, kind: TransitionKind, _ request: TransitionRequest,
                         makeRetry: () -> (TransitionRequest) throws(EngineError) -> TransitionStart,
                         plan: () throws(EngineError) -> TransitionPlan?) throws(EngineError) -> TransitionStart
    {
        if container.activeTransition != nil {
            let retry = makeRetry()
            if let queued = try admit(container, request.whenBusy, kind: kind,
                retry: { [info = ledger.pendingInfo] id throws(EngineError) in
                    var again = request
                    again.whenBusy = .reject
                    again.id = id
                    return try self.withTransitionInfo(info) { () throws(EngineError) in try retry(again) }
                })
            {
                return queued
            }
        }
        guard let plan = try plan() else { return .nothing }
        let animator = request.builtIn
            ? plan.op.container.behaviour.builtInAnimator()
            : try ledger.resolveAnimator(plan.op, requested: request.animator, in: self)
        if request.builtIn, let slide = animator as? SystemTransitionAnimator { slide.followsFinger = true }
        let interaction = request.animated && !request.builtIn
            ? try ledger.resolveInteraction(plan.op, request.interactive, animator: animator.name, in: self) : nil
        return .started(ledger.begin(plan, animated: request.animated, animator: animator, id: request.id,
                              interactive: request.interactive, interaction: interaction, in: self))
    }
}

extension Scene {
    /// Runs `body` — a transition-starting call — with `info` as the request's caller data: the transition it
    /// begins (now, or later when it was queued) carries it as `info` (`ctx.info`, transition.get).
    public func withTransitionInfo<T>(_ info: InfoValue?, _ body: () throws(EngineError) -> T) throws(EngineError) -> T {
        let saved = ledger.pendingInfo
        ledger.pendingInfo = info
        defer { ledger.pendingInfo = saved }
        return try body()
    }
}
