extension Scene {
    /// The container view's subtree and the from/to views' subtrees, before the animator runs.
    func captureBaseline(_ t: Transition, containerView: View) -> TransitionBaseline {
        tree.captureBaseline(containerView, t.from.view, t.to.view, maxDepth: Scene.maxViewDepth)
    }

    /// Puts every view the transition could touch back where it was before the animator ran.
    func restoreBaseline(_ t: Transition) {
        guard let baseline = t.baseline else { return }
        t.baseline = nil
        tree.restore(baseline, clock: clock)
    }

    // MARK: Interaction (TransitionLedger+Driving: the ledger drives transitions on their own clock)

    /// The transition's percent now (transition.get's `percent`).
    public func percent(of t: Transition) -> Double { ledger.percent(of: t, in: self) }

    /// transition.pause: a running transition becomes interactive at its current percent.
    public func pauseTransition(_ t: Transition) throws(EngineError) { try ledger.pauseTransition(t, in: self) }

    /// transition.update: sets the transition's time to p·duration; each animation's own curve still applies.
    public func updateTransition(_ t: Transition, percent p: Double) throws(EngineError) {
        try ledger.updateTransition(t, percent: p, in: self)
    }

    /// transition.finish (`cancel` false) and transition.cancel.
    public func endInteraction(_ t: Transition, cancel: Bool, speed: Double? = nil, curve: CubicBezier? = nil)
        throws(EngineError)
    {
        try ledger.endInteraction(t, cancel: cancel, speed: speed, curve: curve, in: self)
    }

    /// gesture.pan for a transition with an interaction plugin.
    public func pan(_ t: Transition, _ gesture: PanGesture) throws(EngineError) { try ledger.pan(t, gesture, in: self) }

    /// `coordinator:alongside(animations, completion)`: animations in step with the transition.
    public func animateAlongside(_ t: Transition, _ changes: () -> Void, completion: ((Bool) -> Void)?) {
        ledger.animateAlongside(t, changes, completion: completion, in: self)
    }

    /// `coordinator:on_interaction_change(fn)`.
    public func onInteractionChange(_ t: Transition, _ handler: @escaping (_ cancelled: Bool, _ velocity: Double) -> Void) {
        ledger.onInteractionChange(t, handler, in: self)
    }
}
