/// A transition's life (docs/DESIGN.md §3): the ledger builds it and its context, makes the will-calls of its
/// container's behaviour, runs the animator (undone and replaced by the default one when it raises) and records how
/// it ended: the did-calls or the undo, the outcome, the timeline's last sample.
extension TransitionLedger {
    /// Builds the transition and its context, makes the will-calls of docs/DESIGN.md §3 for its kind (the
    /// container's behaviour), and starts the animator.
    func begin(_ plan: TransitionPlan, animated: Bool, animator: any Animator, id reserved: String?,
               interactive: Interactivity = .none, interaction: (any InteractionController)? = nil, in scene: Scene) -> Transition
    {
        let op = plan.op
        let container = op.container
        let behaviour = container.behaviour
        let transition = Transition(
            id: reserved ?? scene.newTransitionID(), kind: op.kind, container: container, from: op.from, to: op.to,
            fromIndex: op.fromIndex, toIndex: op.toIndex, direction: op.direction, animator: animator, startedAt: scene.now)
        // The request's `info` (Scene.withTransitionInfo), taken here so a transition this one starts does not
        // inherit it.
        transition.info = pendingInfo
        pendingInfo = nil
        transition.change = ContainerChange(leaving: plan.leaving, entering: plan.entering, oldStack: container.items,
                                            newStack: plan.newStack ?? container.items, split: plan.split)
        let context = TransitionContext(
            scene: scene, transition: transition, containerView: container.view, from: op.from, to: op.to,
            animated: animated, frames: behaviour.contextFrames(transition, bounds: container.view.model.bounds))
        transition.context = context
        transition.timelineRoot = container.isModalHost ? scene.window : container.view
        if container.isModalHost { configureModalContext(transition, context, in: scene) }
        transition.startedInteractive = animated && interactive != .none
        // A zoom dismissal or pop with no interaction plugin is driven by the zoom's own (ZoomDrag.swift).
        let zoomBack = animator is ZoomAnimator && (op.kind == .dismiss || op.kind == .pop)
        transition.interaction = transition.startedInteractive ? interaction ?? (zoomBack ? ZoomInteraction() : nil) : nil
        transition.interactionName = transition.interaction?.name
        context.isInteractive = transition.startedInteractive
        register(transition)
        container.activeTransition = transition

        behaviour.beginContainment(transition, in: scene)
        behaviour.beginAppearance(transition, in: scene, animated: animated)
        start(transition, context: context, in: scene)
        return transition
    }

    /// Asks the animator for its duration, announces the transition and runs `animateTransition`; an animator
    /// that raises is undone and replaced by the default one.
    func start(_ transition: Transition, context: TransitionContext, in scene: Scene) {
        guard context.isAnimated else {
            transition.duration = 0
            emitBegan(transition, interactive: false, in: scene)
            modalBeforeAnimate(transition, in: scene)
            if transition.container.behaviour.expectsToView(transition) {
                scene.addSubview(transition.to.view, to: context.containerView)
            }
            scene.set(transition.to.view, frame: context.finalFrame(for: transition.to))
            completeTransition(transition, didComplete: true, forced: false, in: scene)
            return
        }
        // What the animator's calls change is journaled as they change it, so a failed call can be undone.
        var journal = scene.openJournal()
        defer { scene.closeJournal(journal) }
        transition.baseline = scene.captureBaseline(transition, containerView: context.containerView)
        let saved = scene.clock.enter(transition)
        defer { scene.clock.leave(restoring: saved) }
        var duration: Double
        do {
            duration = try transition.animator.transitionDuration(using: context)
        } catch {
            scene.restore(journal)
            emitBegan(transition, interactive: transition.startedInteractive, in: scene)
            failOver(transition, reason: error.message, in: scene)
            if transition.startedInteractive, !transition.isEnded { beginDriving(transition, in: scene) }
            return
        }
        guard !transition.isEnded else { return }  // the animator completed from inside duration()
        if !duration.isFinite || duration < 0 {
            scene.warn(transition.animatorName, "duration \(duration) is not a non-negative number; using 0")
            duration = 0
        } else if duration > scene.config.maxDurationS {
            scene.warn(transition.animatorName, "duration \(duration) s is above engine.max_duration_s; clamped to \(scene.config.maxDurationS) s")
            duration = scene.config.maxDurationS
        }
        setDuration(transition, duration, in: scene)
        emitBegan(transition, interactive: transition.startedInteractive, in: scene)
        // A presentation plugin's will_begin runs before animate (it may add alongside animations); what it does
        // is kept if the animator then fails.
        if transition.container.isModalHost {
            modalBeforeAnimate(transition, in: scene)
            scene.closeJournal(journal)
            journal = scene.openJournal()
            transition.presentationViews = context.containerView.subviews.filter { $0.owner == nil }
        }
        do {
            try runAnimator(transition, context, in: scene)
            if !transition.isEnded, let root = transition.timelineRoot { scene.recordStartSample(transition, root: root) }
        } catch {
            guard !transition.isEnded else {
                scene.warnRaised(transition.animatorName, "animate", error.message, then: " (after completing)")
                return
            }
            scene.restore(journal)
            failOver(transition, reason: error.message, in: scene)
        }
        // Interactive: paused at 0, driven by update/finish/cancel (or the interaction plugin), unless the interaction
        // does not want an interactive start (it runs until paused). A custom interaction's start(ctx) then runs.
        if transition.startedInteractive, !transition.isEnded { startInteraction(transition, context, in: scene) }
    }

    /// animateTransition, or the interruptible animator: asked once and kept when the transition starts interactive
    /// or the animator has no animate of its own (then started at once). Not a property animator: a fault.
    func runAnimator(_ transition: Transition, _ context: TransitionContext, in scene: Scene) throws(AnimatorFault) {
        let animator = transition.animator
        guard animator.offersInterruptibleAnimator, transition.startedInteractive || !animator.hasAnimateTransition
        else { return try animator.animateTransition(using: context) }
        let pa = try animator.interruptibleAnimator(using: context)
        guard pa.scene === scene else { throw AnimatorFault("interruptible_animator returned an animator of another scene") }
        transition.interruptibleAnimator = pa
        if pa.transition == nil { pa.transition = transition }
        guard !transition.startedInteractive else { return }
        do throws(PropertyAnimator.Misuse) { try pa.start() } catch {
            throw AnimatorFault("interruptible_animator: \(error.message)")
        }
    }

    /// An interactive start: paused (unless the interaction does not want it), then a custom interaction's start.
    func startInteraction(_ transition: Transition, _ context: TransitionContext, in scene: Scene) {
        let interaction = transition.interaction
        if interaction?.wantsInteractiveStart == false {
            context.isInteractive = false
            if let pa = transition.interruptibleAnimator, pa.state == .inactive { try? pa.start() }
        } else {
            beginDriving(transition, in: scene)
        }
        guard let interaction, !transition.isEnded else { return }
        let saved = scene.clock.enter(transition)
        defer { scene.clock.leave(restoring: saved) }
        do {
            _ = try interaction.startInteractiveTransition(transition, context: context)
        } catch {
            scene.warnRaised(interaction.name, "start", error.message, then: "; the transition is cancelled")
            if transition.state == .interactive { try? endInteraction(transition, cancel: true, in: scene) }
        }
    }

    func setDuration(_ transition: Transition, _ duration: Double, in scene: Scene) {
        transition.duration = duration
        transition.context?.duration = duration
        let allowance = duration * scene.config.watchdogFactor * 1e9 + Double(scene.config.watchdogGraceMs) * 1e6
        transition.watchdogDeadline = scene.now + Int64(min(allowance, 1e17))
        watch(until: transition.watchdogDeadline)
    }

    func emitBegan(_ transition: Transition, interactive: Bool, in scene: Scene) {
        scene.emit(.transitionBegan, .transitionBegan(EngineEvent.TransitionBegan(
            transition: transition.id, kind: transition.kind, from: transition.from.id, to: transition.to.id,
            animator: transition.animatorName, interactive: interactive, duration: transition.duration)))
    }

    /// The animator raised: what its call did has been undone; the built-in default finishes the transition.
    func failOver(_ transition: Transition, reason: String, in scene: Scene) {
        transition.failedOver = true
        transition.problems.append(TransitionProblem(.raised, reason))
        scene.emit(.failedOver(transition: transition.id, animator: transition.animatorName, reason: reason))
        let fallback = DefaultSlideAnimator()
        transition.animator = fallback
        guard let context = transition.context else { return }
        setDuration(transition, fallback.transitionDuration(using: context), in: scene)
        let saved = scene.clock.enter(transition)
        fallback.animateTransition(using: context)
        scene.clock.leave(restoring: saved)
    }

    /// completeTransition: finishes containment and appearance for the transition's kind (or returns everything
    /// to where it was, when cancelled), calls `ended`, reports `transition.completed`, and starts the container's
    /// next queued request.
    func completeTransition(_ transition: Transition, didComplete: Bool, forced: Bool, in scene: Scene) {
        transition.completeCalls += 1
        guard transition.completeCalls == 1, !transition.isEnded else {
            if !forced {
                transition.problems.append(TransitionProblem(.completedTwice, "complete was called again"))
                scene.warn(transition.animatorName, "transition \(transition.id): complete called more than once; ignored")
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
                    scene.addSubview(transition.to.view, to: context.containerView)
                    scene.set(transition.to.view, frame: context.finalFrame(for: transition.to))
                }
            }
            finishContainment(transition, animated: context.isAnimated, in: scene)
        } else {
            // A presentation plugin cleans up what it made first; then the tree goes back exactly.
            if container.isModalHost { modalWillUndo(transition, in: scene) }
            scene.restoreBaseline(transition)
            undoContainment(transition, animated: context.isAnimated, in: scene)
        }
        scene.dropBaseline(transition)
        if let drive = transition.drive {
            // Completed while still driven (the animator called complete early): its animations end here.
            transition.drive = nil
            for animation in drive.animations where !animation.removed { retire(animation, in: scene) }
            releaseDriven(transition)
        }
        closeOpenPhase(transition, in: scene)
        transition.interaction?.transitionEnded(transition)
        transition.state = completed ? .completed : .cancelled
        transition.endedAt = scene.now
        transition.forced = transition.forced || forced
        if let root = transition.timelineRoot {
            transition.timeline.record(root, at: scene.now, structureVersion: scene.tree.structureVersion, valueVersion: scene.tree.valueVersion, final: true)
        }
        recordEnd(transition)
        if container.activeTransition === transition { container.activeTransition = nil }
        do {
            try transition.animator.animationEnded(completed, context: context)
        } catch {
            scene.warnRaised(transition.animatorName, "ended", error.message)
        }
        scene.emit(.transitionCompleted(EngineEvent.TransitionCompletion(
            transition: transition.id, completed: completed, forced: transition.forced)))
        trimFinishedTransitions(in: scene)
        scene.startNextQueued(container)
    }

    /// The did-calls of a completed transition, in docs/DESIGN.md §3's order for its kind.
    func finishContainment(_ t: Transition, animated: Bool, in scene: Scene) {
        t.container.behaviour.finish(t, in: scene, animated: animated)
    }

    /// A cancelled transition: the views are back, appearance is reversed (T disappears, F appears) and every
    /// will_move_to_parent is balanced so containment is exactly what it was (docs/DESIGN.md §3).
    func undoContainment(_ t: Transition, animated: Bool, in scene: Scene) {
        let behaviour = t.container.behaviour
        behaviour.undoViews(t, in: scene)
        behaviour.reverseAppearance(t, in: scene, animated: animated)
        behaviour.undoContainment(t, in: scene, animated: animated)
    }

    /// Forgets the oldest ended transitions beyond `timeline_retention` and `timeline_retention_bytes`
    /// (TransitionLedger.forgetEnded).
    func trimFinishedTransitions(in scene: Scene) {
        forgetEnded(retention: scene.config.timelineRetention, retentionBytes: scene.config.timelineRetentionBytes)
    }
}
