extension Scene {
    public func transition(_ id: String) -> Transition? { ledger.transitionsByID[id] }

    public var transitions: [Transition] { ledger.transitionOrder }

    /// A request waiting in a container's queue (`when_busy: queue`), or one that left the queue without
    /// starting a transition.
    public func queuedRequest(_ id: String) -> (container: ContainerViewController, kind: TransitionKind)? {
        for c in viewControllersByID.values.compactMap({ $0 as? ContainerViewController }) {
            if let q = c.queue.first(where: { $0.id == id }) { return (c, q.kind) }
        }
        return nil
    }

    public func queuedOutcome(_ id: String) -> QueuedOutcome? { ledger.queuedOutcomes[id] }

    func newTransitionID() -> String { ledger.newTransitionID() }

    // MARK: Animator resolution (docs/DESIGN.md §1)

    func animator(named name: String, param: String?) throws(EngineError) -> any Animator {
        if name == DefaultSlideAnimator.name { return DefaultSlideAnimator() }
        guard let provider = animatorProvider, let animator = try provider.animator(named: name, for: self) else {
            throw EngineError(.notFound, "no animator plugin named '\(name)'", param: param, id: name)
        }
        return animator
    }

    /// Explicit `animator` → the view controller's own (`animators`) → the container's delegate plugin → its
    /// rules (first match) → the built-in default. Only an explicit name that does not exist is an error; a
    /// missing or failing choice further down is reported (`plugin.warning`) and the next source is asked.
    func resolveAnimator(_ op: TransitionOperation, requested: String?) throws(EngineError) -> any Animator {
        if let requested { return try animator(named: requested, param: "animator") }
        let backward = op.kind == .pop || op.kind == .dismiss || (op.kind == .set && op.direction == .backward)
        let key: String
        switch op.kind {
        case .set: key = backward ? "pop" : "push"
        default: key = op.kind.rawValue
        }
        let owner = backward ? op.from : op.to
        if let name = owner.preferredAnimators[key] {
            if let found = try? animator(named: name, param: nil) { return found }
            warn(name, "view controller '\(owner.id)' prefers animator '\(name)', which is not loaded; asking the next source")
        }
        if let delegate = op.container.delegatePlugin, let provider = animatorProvider {
            switch provider.delegateAnimator(delegate, operation: op, for: self) {
            case .success(let name?):
                if let found = try? animator(named: name, param: nil) { return found }
                warn(delegate, "animator_for returned '\(name)', which is not a loaded animator; asking the rules")
            case .success(nil):
                break
            case .failure(let fault):
                warn(delegate, "animator_for failed: \(fault.message)")
            }
        }
        if let rule = op.container.rules.first(where: { $0.matches(op) }) {
            if let found = try? animator(named: rule.animator, param: nil) { return found }
            warn(rule.animator, "a rule of container '\(op.container.id)' names animator '\(rule.animator)', which is not loaded; using the default")
        }
        return op.container.behaviour.builtInAnimator()
    }

    /// The interaction controller for a transition started interactive: the named plugin, else (for `true`)
    /// the delegate plugin's `interaction_for`, else the first matching rule's `interaction`. A transition started
    /// non-interactive never gets one (seed 001's rule).
    func resolveInteraction(_ op: TransitionOperation, _ interactive: Interactivity, animator: String)
        throws(EngineError) -> (any InteractionController)?
    {
        switch interactive {
        case .none:
            return nil
        case .plugin(let name):
            guard let provider = animatorProvider, let found = try provider.interaction(named: name, for: self) else {
                throw EngineError(.notFound, "no interaction plugin named '\(name)'", param: "interactive", id: name)
            }
            return found
        case .percent:
            if let delegate = op.container.delegatePlugin, let provider = animatorProvider {
                switch provider.delegateInteraction(delegate, operation: op, animator: animator, for: self) {
                case .success(let name?):
                    if let found = try? provider.interaction(named: name, for: self) { return found }
                    warn(delegate, "interaction_for returned '\(name)', which is not a loaded interaction plugin")
                case .success(nil):
                    break
                case .failure(let fault):
                    warn(delegate, "interaction_for failed: \(fault.message)")
                }
            }
            if let rule = op.container.rules.first(where: { $0.matches(op) }), let name = rule.interaction {
                if let found = try? animatorProvider?.interaction(named: name, for: self) { return found }
                warn(name, "a rule of container '\(op.container.id)' names interaction plugin '\(name)', which is not loaded")
            }
            return nil
        }
    }

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

    /// A view controller that is about to join a container must not be anywhere else.
    /// `held` is `itemsOfAnyContainer()` when the caller checks many.
    func requireFree(_ vc: ViewController, param: String, held: Set<ObjectIdentifier>? = nil) throws(EngineError) {
        let inContainer = held.map { $0.contains(ObjectIdentifier(vc)) } ?? isItemOfAnyContainer(vc)
        guard vc.parent == nil, vc !== root, !inContainer, vc.presentation == nil, vc.presentedViewController == nil
        else {
            throw .invalidParams(param, "'\(vc.id)' already has a parent, is in a container, is presented or is the root")
        }
    }

    // MARK: Starting

    /// Builds the transition and its context, makes the will-calls of docs/DESIGN.md §3 for its kind (the
    /// container's behaviour), and starts the animator.
    func begin(_ plan: TransitionPlan, animated: Bool, animator: any Animator, id reserved: String?,
               interactive: Interactivity = .none, interaction: (any InteractionController)? = nil) -> Transition
    {
        let op = plan.op
        let container = op.container
        let behaviour = container.behaviour
        let transition = Transition(
            id: reserved ?? newTransitionID(), kind: op.kind, container: container, from: op.from, to: op.to,
            fromIndex: op.fromIndex, toIndex: op.toIndex, direction: op.direction, animator: animator, startedAt: now)
        transition.change = ContainerChange(leaving: plan.leaving, entering: plan.entering, oldStack: container.items,
                                            newStack: plan.newStack ?? container.items, split: plan.split)
        let context = TransitionContext(
            scene: self, transition: transition, containerView: container.view, from: op.from, to: op.to,
            animated: animated, frames: behaviour.contextFrames(transition, bounds: container.view.model.bounds))
        transition.context = context
        transition.timelineRoot = container.isModalHost ? window : container.view
        if container.isModalHost { configureModalContext(transition, context) }
        transition.startedInteractive = animated && interactive != .none
        transition.interaction = transition.startedInteractive ? interaction : nil
        transition.interactionName = transition.interaction?.name
        context.isInteractive = transition.startedInteractive
        ledger.register(transition)
        container.activeTransition = transition

        behaviour.beginContainment(transition, in: self)
        behaviour.beginAppearance(transition, in: self, animated: animated)
        start(transition, context: context)
        return transition
    }

    /// Asks the animator for its duration, announces the transition and runs `animateTransition`; an animator
    /// that raises is undone and replaced by the default one.
    func start(_ transition: Transition, context: TransitionContext) {
        guard context.isAnimated else {
            transition.duration = 0
            emitBegan(transition, interactive: false)
            modalBeforeAnimate(transition)
            if transition.container.behaviour.expectsToView(transition) {
                addSubview(transition.to.view, to: context.containerView)
            }
            set(transition.to.view, frame: context.finalFrame(for: transition.to))
            completeTransition(transition, didComplete: true, forced: false)
            return
        }
        // What the animator's calls change is journaled as they change it, so a failed call can be undone.
        var journal = openJournal()
        defer { closeJournal(journal) }
        transition.baseline = captureBaseline(transition, containerView: context.containerView)
        let saved = clock.enter(transition)
        defer { clock.leave(restoring: saved) }
        var duration: Double
        do {
            duration = try transition.animator.transitionDuration(using: context)
        } catch {
            restore(journal)
            emitBegan(transition, interactive: transition.startedInteractive)
            failOver(transition, reason: error.message)
            if transition.startedInteractive, !transition.isEnded { beginDriving(transition) }
            return
        }
        guard !transition.isEnded else { return }  // the animator completed from inside duration()
        if !duration.isFinite || duration < 0 {
            warn(transition.animatorName, "duration \(duration) is not a non-negative number; using 0")
            duration = 0
        } else if duration > config.maxDurationS {
            warn(transition.animatorName, "duration \(duration) s is above engine.max_duration_s; clamped to \(config.maxDurationS) s")
            duration = config.maxDurationS
        }
        setDuration(transition, duration)
        emitBegan(transition, interactive: transition.startedInteractive)
        // A presentation plugin's will_begin runs before animate (it may add alongside animations); what it does
        // is kept if the animator then fails.
        if transition.container.isModalHost {
            modalBeforeAnimate(transition)
            closeJournal(journal)
            journal = openJournal()
            transition.presentationViews = context.containerView.subviews.filter { $0.owner == nil }
        }
        do {
            try transition.animator.animateTransition(using: context)
            if !transition.isEnded, let root = transition.timelineRoot { transition.timeline.record(root, at: now, structureVersion: tree.structureVersion, valueVersion: tree.valueVersion) }
        } catch {
            guard !transition.isEnded else {
                warnRaised(transition.animatorName, "animate", error.message, then: " (after completing)")
                return
            }
            restore(journal)
            failOver(transition, reason: error.message)
        }
        // Interactive: paused at 0, driven by update/finish/cancel (or the interaction plugin).
        if transition.startedInteractive, !transition.isEnded { beginDriving(transition) }
    }

    func setDuration(_ transition: Transition, _ duration: Double) {
        transition.duration = duration
        transition.context?.duration = duration
        let allowance = duration * config.watchdogFactor * 1e9 + Double(config.watchdogGraceMs) * 1e6
        transition.watchdogDeadline = now + Int64(min(allowance, 1e17))
        ledger.watch(until: transition.watchdogDeadline)
    }

    func emitBegan(_ transition: Transition, interactive: Bool) {
        emit(.transitionBegan(EngineEvent.TransitionBegan(
            transition: transition.id, kind: transition.kind, from: transition.from.id, to: transition.to.id,
            animator: transition.animatorName, interactive: interactive, duration: transition.duration)))
    }

    /// The animator raised: what its call did has been undone; the built-in default finishes the transition.
    func failOver(_ transition: Transition, reason: String) {
        transition.failedOver = true
        transition.problems.append(TransitionProblem(.raised, reason))
        emit(.failedOver(transition: transition.id, animator: transition.animatorName, reason: reason))
        let fallback = DefaultSlideAnimator()
        transition.animator = fallback
        guard let context = transition.context else { return }
        setDuration(transition, fallback.transitionDuration(using: context))
        let saved = clock.enter(transition)
        fallback.animateTransition(using: context)
        clock.leave(restoring: saved)
    }

    /// completeTransition: finishes containment and appearance for the transition's kind (or returns everything
    /// to where it was, when cancelled), calls `ended`, reports `transition.completed`, and starts the container's
    /// next queued request.
    func completeTransition(_ transition: Transition, didComplete: Bool, forced: Bool) {
        transition.completeCalls += 1
        guard transition.completeCalls == 1, !transition.isEnded else {
            if !forced {
                transition.problems.append(TransitionProblem(.completedTwice, "complete was called again"))
                warn(transition.animatorName, "transition \(transition.id): complete called more than once; ignored")
            }
            return
        }
        guard let context = transition.context else { return }
        if context.transitionWasCancelled && didComplete {
            transition.problems.append(TransitionProblem(
                .completedWhenCancelled, "complete(true) after the transition was cancelled"))
        }
        let completed = didComplete && !context.transitionWasCancelled
        let container = transition.container
        if completed {
            if container.behaviour.expectsToView(transition), transition.to.view.superview !== context.containerView {
                if !forced {
                    transition.problems.append(TransitionProblem(
                        .missingToView, "the to-view was not in the container when complete was called"))
                }
                // A presentation the animator never added stays off screen, as UIKit shows it: a blank screen
                // (the presentation controller owns the container, not the view). Elsewhere the engine adds it.
                if transition.kind != .present || forced {
                    addSubview(transition.to.view, to: context.containerView)
                    set(transition.to.view, frame: context.finalFrame(for: transition.to))
                }
            }
            finishContainment(transition, animated: context.isAnimated)
        } else {
            // A presentation plugin cleans up what it made first; then the tree goes back exactly.
            if container.isModalHost { modalWillUndo(transition) }
            restoreBaseline(transition)
            undoContainment(transition, animated: context.isAnimated)
        }
        transition.baseline = nil
        if let drive = transition.drive {
            // Completed while still driven (the animator called complete early): its animations end here.
            transition.drive = nil
            for animation in drive.animations where !animation.removed { retire(animation) }
            ledger.releaseDriven(transition)
        }
        closeOpenPhase(transition)
        transition.interaction?.transitionEnded(transition)
        transition.state = completed ? .completed : .cancelled
        transition.endedAt = now
        transition.forced = transition.forced || forced
        if let root = transition.timelineRoot {
            transition.timeline.record(root, at: now, structureVersion: tree.structureVersion, valueVersion: tree.valueVersion, final: true)
        }
        ledger.recordEnd()
        if container.activeTransition === transition { container.activeTransition = nil }
        do {
            try transition.animator.animationEnded(completed, context: context)
        } catch {
            warnRaised(transition.animatorName, "ended", error.message)
        }
        emit(.transitionCompleted(EngineEvent.TransitionCompletion(
            transition: transition.id, completed: completed, forced: transition.forced)))
        trimFinishedTransitions()
        startNextQueued(container)
    }

    /// The did-calls of a completed transition, in docs/DESIGN.md §3's order for its kind.
    func finishContainment(_ t: Transition, animated: Bool) {
        t.container.behaviour.finish(t, in: self, animated: animated)
    }

    /// A cancelled transition: the views are back, appearance is reversed (T disappears, F appears) and every
    /// will_move_to_parent is balanced so containment is exactly what it was (docs/DESIGN.md §3).
    func undoContainment(_ t: Transition, animated: Bool) {
        let behaviour = t.container.behaviour
        behaviour.undoViews(t, in: self)
        behaviour.reverseAppearance(t, in: self, animated: animated)
        behaviour.undoContainment(t, in: self, animated: animated)
    }

    /// Reversed appearance of a cancelled transition: the to-side disappears, then the from-side appears (each
    /// only if it had begun to change).
    func reverseAppearance(_ from: ViewController, _ to: ViewController, animated: Bool) {
        if to.appearance == .appearing {
            beginAppearance(to, appearing: false, animated: animated)
            endAppearance(to, animated: animated)
        }
        if from.appearance == .disappearing {
            beginAppearance(from, appearing: true, animated: animated)
            endAppearance(from, animated: animated)
        }
    }

    /// Forgets the oldest ended transitions beyond `timeline_retention` (TransitionLedger.forgetEnded).
    func trimFinishedTransitions() {
        ledger.forgetEnded(retention: config.timelineRetention)
    }

    /// The watchdog (TransitionLedger.checkWatchdogs).
    func checkWatchdogs() { ledger.checkWatchdogs(in: self) }

    /// Jumps a running transition to its end: its animations finish at once (their completions run), and if the
    /// animator still has not completed it, the engine does (forced).
    public func finishNow(_ transition: Transition) { ledger.finishNow(transition, in: self) }

    /// Forces every running transition of the scene to its end (scene.destroy, daemon shutdown). `forced`: each
    /// reports `forced: true` however it ends (scene.destroy: the scene is going, not the transition finishing).
    public func finishAllTransitions(forced: Bool = false) { ledger.finishAllTransitions(forced: forced, in: self) }
}
