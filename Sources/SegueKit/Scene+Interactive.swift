extension Scene {
    /// The container view's subtree and the from/to views' subtrees, before the animator runs: recorded on first
    /// touch from here on (TransitionBaseline), nothing copied now.
    func captureBaseline(_ t: Transition, containerView: View) -> TransitionBaseline {
        tree.captureBaseline(containerView, t.from.view, t.to.view, maxDepth: Scene.maxViewDepth)
    }

    /// Calls `body` with the view of every animation that runs now (on the clock, held by a driven transition or
    /// by a property animator): the views whose presentation changes without a touch (a view may come more than
    /// once).
    func forEachAnimatingView(_ body: (View) -> Void) {
        // Index loops: what the debug build's allocation ceilings count stays flat per animation.
        let running = clock.running.animations
        var i = 0
        while i < running.count {
            if !running[i].removed { body(running[i].view) }
            i += 1
        }
        for driven in ledger.drivenTransitions {
            for animation in driven.drive?.animations ?? [] where !animation.removed { body(animation.view) }
        }
        for animator in clock.propertyAnimators {
            for held in animator.held where !held.animation.removed { body(held.animation.view) }
        }
    }

    /// Before a frame writes the running animations: their views are kept for the recorders (cancel baselines,
    /// deferred first samples) opened since they last were, or for all when an animation started since — once per
    /// frame at most, and only then (issue 24: the start itself looks at no animation of the scene).
    func keepAnimatingViews() {
        guard journals.awaitsAnimating(nextAnimationSerial: clock.nextAnimationSerial) else { return }
        forEachAnimatingView { view in if view.isAlive { journals.keep(view) } }
        journals.keptAnimating(nextAnimationSerial: clock.nextAnimationSerial)
    }

    /// The first sample of a transition's timeline, taken without a walk of its subtree (DeferredSample): made
    /// full when read, and for good when the transition ends.
    func recordStartSample(_ t: Transition, root: View) {
        let sample = DeferredSample(root: root, time: now, journals: journals)
        guard t.timeline.recordDeferred(sample, structureVersion: tree.structureVersion, valueVersion: tree.valueVersion)
        else { return sample.close() }
    }

    /// Puts every view the transition could touch back where it was before the animator ran.
    func restoreBaseline(_ t: Transition) {
        guard let baseline = t.baseline else { return }
        t.baseline = nil
        tree.restore(baseline, clock: clock)
    }

    /// The transition ended: its baseline records no more and is let go.
    func dropBaseline(_ t: Transition) {
        guard let baseline = t.baseline else { return }
        t.baseline = nil
        baseline.close()
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
