/// Driving transitions on their own clock (Core Animation's paused layer with a timeOffset, docs/DESIGN.md §3,
/// percent driven): the ledger holds interactive, finishing and cancelling transitions, scrubs them, ramps them to
/// their end or start and hands them back to the scene's clock.
extension TransitionLedger {
    /// The transition's percent now (transition.get's `percent`).
    func percent(of t: Transition, in scene: Scene) -> Double {
        switch t.state {
        case .completed: return 1
        case .cancelled: return 0
        case .queued: return 0
        case .animating, .interactive, .finishing, .cancelling:
            if let pa = t.interruptibleAnimator { return (pa.fraction * 1e9).rounded() / 1e9 }
            if let drag = t.interactive.zoomDrag { return (drag.percent(at: scene.now) * 1e9).rounded() / 1e9 }
            guard t.duration > 0 else { return 0 }
            let local = t.drive?.local ?? (scene.now - t.timeOffset)
            let p = min(1, max(0, Double(local - t.startedAt) / 1e9 / t.duration))
            return (p * 1e9).rounded() / 1e9  // no 0.7000000000000001 from the nanosecond clock
        }
    }

    /// Takes the transition's running animations out of the scene's list and holds them at its current time.
    func beginDriving(_ t: Transition, in scene: Scene) {
        guard t.drive == nil, !t.isEnded else { return }
        if t.interactive.zoomDrag != nil {
            // An interactive zoom dismissal holds no animation: the gesture poses the view (ZoomDrag.swift).
            t.state = .interactive
            t.context?.isInteractive = true
            t.phases.append(TransitionPhase(kind: .scrub, start: scene.now, end: nil))
            return
        }
        if let pa = t.interruptibleAnimator {
            // The interruptible animator is the transition's clock: pausing it is the scrub.
            try? pa.pause()
            t.state = .interactive
            t.context?.isInteractive = true
            t.phases.append(TransitionPhase(kind: .scrub, start: scene.now, end: nil))
            return
        }
        let local = min(scene.now - t.timeOffset, t.startedAt + Int64((t.duration * 1e9).rounded()))
        let drive = TransitionDrive(local: local)
        drive.animations = scene.clock.hold(t)
        for animation in drive.animations { t.timeline.stopped(animation, at: scene.now) }
        t.drive = drive
        t.state = .interactive
        t.context?.isInteractive = true
        noteDriven(t)
        t.phases.append(TransitionPhase(kind: .scrub, start: scene.now, end: nil))
        scene.tree.valuesChanged()
    }

    /// transition.pause: a running transition becomes interactive at its current percent (one finishing after
    /// an interaction is caught again mid-ramp).
    func pauseTransition(_ t: Transition, in scene: Scene) throws(EngineError) {
        guard !t.isEnded else { throw EngineError(.invalidState, "transition '\(t.id)' has ended", id: t.id) }
        if t.interactive.zoomDrag != nil, t.state != .interactive {
            throw EngineError(.invalidState, "transition '\(t.id)' is \(t.state.rawValue): a released zoom dismissal "
                + "runs to its end (segued's choice)", id: t.id)
        }
        guard t.state == .animating || t.state == .finishing else {
            throw EngineError(.invalidState, "transition '\(t.id)' is \(t.state.rawValue): only a running transition can be paused", id: t.id)
        }
        guard let drive = t.drive else {
            closeOpenPhase(t, in: scene)
            beginDriving(t, in: scene)
            return
        }
        drive.ramp = nil
        closeOpenPhase(t, in: scene)
        t.phases.append(TransitionPhase(kind: .scrub, start: scene.now, end: nil))
        t.state = .interactive
        t.context?.isInteractive = true
    }

    /// transition.update: sets the transition's time to p·duration; each animation's own curve still applies.
    func updateTransition(_ t: Transition, percent p: Double, in scene: Scene) throws(EngineError) {
        if let pa = t.interruptibleAnimator, t.state == .interactive {
            guard p.isFinite else { throw .invalidParams("percent", "percent must be a number in 0…1") }
            let clamped = min(max(p, 0), 1)
            do throws(PropertyAnimator.Misuse) { try pa.setFraction(clamped) } catch {
                throw EngineError(.invalidState, "transition '\(t.id)': \(error.message)", id: t.id)
            }
            scene.emit(.transitionUpdated(transition: t.id, percent: clamped))
            if !scene.clock.isTicking {
                scene.recordTimelines()
                scene.emitFrame()
            }
            return
        }
        if let drag = t.interactive.zoomDrag, t.state == .interactive {
            guard p.isFinite else { throw .invalidParams("percent", "percent must be a number in 0…1") }
            poseZoom(t, drag, percent: min(max(p, 0), 1), in: scene)
            return
        }
        guard t.state == .interactive, let drive = t.drive else {
            throw EngineError(.invalidState, "transition '\(t.id)' is \(t.state.rawValue), not interactive", id: t.id)
        }
        guard p.isFinite else { throw .invalidParams("percent", "percent must be a number in 0…1") }
        let clamped = min(max(p, 0), 1)
        drive.local = t.startedAt + Int64((clamped * t.duration * 1e9).rounded())
        scrub(drive, in: scene)
        scene.emit(.transitionUpdated(transition: t.id, percent: clamped))
        scene.tree.valuesChanged()
        if !scene.clock.isTicking {
            scene.recordTimelines()
            scene.emitFrame()
        }
    }

    func scrub(_ drive: TransitionDrive, in scene: Scene) {
        for animation in drive.animations where !animation.removed {
            let view = animation.view
            scene.touch(view)
            scene.tree.markChanged(view, 0)
            animation.scrub(toElapsed: drive.local - animation.begin)
        }
    }

    /// transition.finish (`cancel` false) and transition.cancel: interaction ends (`interaction_ended`, the
    /// coordinator's handlers), then the transition runs forward over (1 − p)·duration / speed, or backward over
    /// p·duration / speed, with the completion curve.
    func endInteraction(_ t: Transition, cancel: Bool, speed requestedSpeed: Double? = nil,
                               curve requestedCurve: CubicBezier? = nil, in scene: Scene) throws(EngineError)
    {
        guard t.state == .interactive, t.drive != nil || t.interruptibleAnimator != nil || t.interactive.zoomDrag != nil
        else {
            throw EngineError(.invalidState, "transition '\(t.id)' is \(t.state.rawValue), not interactive", id: t.id)
        }
        var speed = requestedSpeed
        var curve = requestedCurve
        if let interaction = t.interaction {
            if speed == nil {
                do {
                    if let s = try interaction.completionSpeed(t) {
                        if !s.isFinite || s <= 0 {
                            scene.warn(interaction.name, "completion_speed returned \(s); using 1")
                            speed = 1
                        } else {
                            speed = s
                        }
                    }
                } catch {
                    scene.warnRaised(interaction.name, "completion_speed", error.message, then: "; using 1")
                }
            }
            if curve == nil {
                do { curve = try interaction.completionCurve(t) } catch {
                    scene.warnRaised(interaction.name, "completion_curve", error.message, then: "; using ease_in_out")
                }
            }
        }
        let s = min(max(speed ?? 1, 0.01), 100)
        if let drag = t.interactive.zoomDrag { return releaseZoom(t, drag, cancel: cancel, speed: s, curve: curve, in: scene) }
        if let pa = t.interruptibleAnimator {
            // No curve asked for: the animator's own timing (UIPercentDrivenInteractiveTransition.timingCurve is
            // nil by default, and continueAnimation with nil timing parameters keeps the animator's), so a spring
            // animator is released on its spring.
            return continueInterruptible(t, pa, cancel: cancel, speed: s, curve: curve, in: scene)
        }
        guard let drive = t.drive else { return }
        startRamp(t, drive, cancel: cancel, speed: s, curve: curve ?? .easeInOut, in: scene)
    }

    /// The interaction's end, shared by every release (a property animator's continue, a zoom drag's spring): the
    /// completion speed and curve kept, the cancel flag set, the open phase closed, `interaction_ended` emitted.
    func endInteraction(_ t: Transition, cancel: Bool, speed: Double, curve: CubicBezier?, in scene: Scene) {
        t.completionSpeed = speed
        t.completionCurve = curve ?? .easeInOut
        if cancel { t.context?.transitionWasCancelled = true }
        closeOpenPhase(t, in: scene)
        scene.emit(.interactionEnded(transition: t.id, cancelled: cancel, completionVelocity: speed))
    }

    /// finish and cancel of a transition its interruptible animator drives: continue (reversed for a cancel) over
    /// what is left at `speed`, with `curve` (UIPercentDrivenInteractiveTransition's completionSpeed and
    /// completionCurve become the continue's duration factor and timing).
    func continueInterruptible(_ t: Transition, _ pa: PropertyAnimator, cancel: Bool, speed: Double, curve: CubicBezier?,
                               in scene: Scene)
    {
        endInteraction(t, cancel: cancel, speed: speed, curve: curve, in: scene)
        let saved = scene.clock.enter(t)
        for handler in t.interactionChangeHandlers { handler(cancel, speed) }
        scene.clock.leave(restoring: saved)
        guard !t.isEnded else { return }
        t.state = cancel ? .cancelling : .finishing
        t.phases.append(TransitionPhase(kind: cancel ? .cancel : .finish, start: scene.now, end: nil))
        let length = pa.duration * (cancel ? pa.fraction : 1 - pa.fraction) / speed
        let allowance = length * 1e9 * scene.config.watchdogFactor + Double(scene.config.watchdogGraceMs) * 1e6
        t.watchdogDeadline = scene.now + Int64(min(allowance, 1e17))
        watch(until: t.watchdogDeadline)
        do throws(PropertyAnimator.Misuse) {
            if pa.isReversed != cancel { try pa.setReversed(cancel) }
            try pa.continueAnimation(timing: curve.map { .curve($0) }, durationFactor: 1 / speed)
        } catch {
            scene.warn(t.animatorName, "the interruptible animator refused to continue: \(error.message)")
            pa.finishAtOnce(in: scene)
        }
    }

    func startRamp(_ t: Transition, _ drive: TransitionDrive, cancel: Bool, speed: Double, curve: CubicBezier, in scene: Scene) {
        endInteraction(t, cancel: cancel, speed: speed, curve: curve, in: scene)
        let saved = scene.clock.enter(t)
        for handler in t.interactionChangeHandlers { handler(cancel, speed) }
        scene.clock.leave(restoring: saved)
        guard !t.isEnded, t.drive === drive else { return }
        let end = t.startedAt + Int64((t.duration * 1e9).rounded())
        let target = cancel ? t.startedAt : end
        let length = Int64((Double(abs(target - drive.local)) / speed).rounded())
        drive.ramp = TransitionDrive.Ramp(from: drive.local, to: target, start: scene.now, length: length, curve: curve, cancel: cancel)
        t.state = cancel ? .cancelling : .finishing
        t.phases.append(TransitionPhase(kind: cancel ? .cancel : .finish, start: scene.now, end: nil))
        let allowance = Double(length) * scene.config.watchdogFactor + Double(scene.config.watchdogGraceMs) * 1e6
        t.watchdogDeadline = scene.now + Int64(min(allowance, 1e17))
        watch(until: t.watchdogDeadline)
        if length == 0 {
            advanceRamp(t, drive, in: scene)
            if !scene.clock.isTicking { scene.clock.runPendingCompletions() }
        }
    }

    /// Each tick: the ramps of finishing and cancelling transitions move on.
    func advanceDrives(in scene: Scene) {
        guard !drivenTransitions.isEmpty else { return }
        for t in drivenTransitions {
            guard let drive = t.drive, drive.ramp != nil else { continue }
            advanceRamp(t, drive, in: scene)
        }
        releaseDriven()
    }

    func advanceRamp(_ t: Transition, _ drive: TransitionDrive, in scene: Scene) {
        guard let ramp = drive.ramp else { return }
        let u = ramp.length > 0 ? min(1, Double(scene.now - ramp.start) / Double(ramp.length)) : 1
        let eased = ramp.curve.value(at: u)
        drive.local = u >= 1 ? ramp.to : ramp.from + Int64((Double(ramp.to - ramp.from) * eased).rounded())
        scene.tree.valuesChanged()
        if ramp.cancel { scrub(drive, in: scene) } else { runForward(drive, in: scene) }
        guard u >= 1 else { return }
        endRamp(t, drive, cancelled: ramp.cancel, in: scene)
    }

    /// The ramp is over. Forward: the animations still running go back on the scene's clock (shifted so they go
    /// on from where they are). Backward: every animation is at its start and ends (finished = true); the
    /// animator's completions then call complete(false), which puts the tree back as it was.
    func endRamp(_ t: Transition, _ drive: TransitionDrive, cancelled: Bool, in scene: Scene) {
        t.drive = nil
        drive.ramp = nil
        closeOpenPhase(t, in: scene)
        if cancelled {
            for animation in drive.animations where !animation.removed {
                scene.touch(animation.view)
                animation.scrub(toElapsed: drive.local - animation.begin)
                retire(animation, cancelled: true, in: scene)
            }
        } else {
            let shift = scene.now - drive.local
            t.timeOffset = shift
            for animation in drive.animations where !animation.removed {
                let moved = PropertyAnimation(copying: animation, begin: animation.begin + shift)
                moved.createdAt = scene.now
                scene.clock.noteStarted(moved)
                scene.clock.setRemoved(animation)
                if animation.layer != nil {
                    scene.clock.replaceLayerAnimation(animation, with: moved)
                } else {
                    animation.view.animations[animation.property.rawValue] = moved
                }
                t.timeline.started(moved)
                scene.clock.resume(moved)
            }
        }
        drive.animations.removeAll()
    }

    /// Forward at the drive's time: an animation that reaches its end completes now, as it would on the clock.
    func runForward(_ drive: TransitionDrive, in scene: Scene) {
        for animation in drive.animations where !animation.removed {
            let view = animation.view
            scene.touch(view)
            scene.tree.markChanged(view, 0)
            if animation.evaluate(at: drive.local) { retire(animation, in: scene) }
        }
        drive.animations.removeAll { $0.removed }
    }

    func closeOpenPhase(_ t: Transition, in scene: Scene) {
        if let i = t.phases.lastIndex(where: { $0.end == nil }) { t.phases[i].end = scene.now }
    }

    /// An animation of a driven transition reached its end.
    func retire(_ animation: PropertyAnimation, cancelled: Bool = false, in scene: Scene) {
        guard !animation.removed else { return }
        let view = animation.view
        scene.tree.markChanged(view, 0)
        view.dirty |= animation.property.changeBit
        if let layer = animation.layer {
            scene.clock.retireLayerAnimation(animation, layer, cancelled: cancelled)
        } else if view.animations[animation.property.rawValue] === animation {
            scene.clock.removeAnimation(of: view, animation.property, finished: true)
        } else {
            scene.clock.setRemoved(animation)
        }
    }

    /// finishNow for a driven transition: a cancel in progress ends at the start; anything else ends forward.
    func jumpDriven(_ t: Transition, in scene: Scene) {
        guard let drive = t.drive else { return }
        if drive.ramp == nil {
            startRamp(t, drive, cancel: false, speed: 100, curve: .linear, in: scene)
        }
        guard let ramp = drive.ramp, t.drive === drive else { return }
        drive.local = ramp.to
        if ramp.cancel { scrub(drive, in: scene) } else { runForward(drive, in: scene) }
        endRamp(t, drive, cancelled: ramp.cancel, in: scene)
        releaseDriven()
    }

    /// gesture.pan for a transition with an interaction plugin. A plugin that raises is reported and the
    /// transition cancelled; one that leaves the transition interactive after `ended` has it finished past
    /// half-way and cancelled under it (with a warning).
    func pan(_ t: Transition, _ gesture: PanGesture, in scene: Scene) throws(EngineError) {
        guard let interaction = t.interaction else {
            throw EngineError(.invalidState, "transition '\(t.id)' has no interaction plugin (start it with interactive: \"<plugin>\")", id: t.id)
        }
        try checkGestureOrder(t, gesture)
        guard t.state == .interactive else {
            throw EngineError(.invalidState, "transition '\(t.id)' is \(t.state.rawValue), not interactive", id: t.id)
        }
        t.interactive.gestureKind = gesture.kind
        t.interactive.gesturePhase = gesture.phase
        let saved = scene.clock.enter(t)
        defer { scene.clock.leave(restoring: saved) }
        do {
            try interaction.handle(gesture, transition: t)
        } catch {
            scene.warnRaised(interaction.name, gesture.phase.rawValue, error.message, then: "; the transition is cancelled")
            if t.state == .interactive { try? endInteraction(t, cancel: true, in: scene) }
            return
        }
        if gesture.phase == .ended || gesture.phase == .cancelled, t.state == .interactive {
            let finish = gesture.phase == .ended && percent(of: t, in: scene) > 0.5
            scene.warn(interaction.name, "ended left transition '\(t.id)' interactive; \(finish ? "finishing" : "cancelling") it")
            try? endInteraction(t, cancel: !finish, in: scene)
        }
    }

    /// A gesture's samples come as a recognizer sends them: `began` first (or not at all, when the request
    /// started the transition interactive), `changed` any number of times, then one `ended` or `cancelled`, all
    /// of one kind (a pan, a pinch or a rotation). Anything else is -32602 naming `phase` (or the method's kind).
    func checkGestureOrder(_ t: Transition, _ gesture: PanGesture) throws(EngineError) {
        if let kind = t.interactive.gestureKind, kind != gesture.kind {
            throw .invalidParams("phase", "transition '\(t.id)' is driven by a \(kind.rawValue) gesture: a "
                + "\(gesture.kind.rawValue) sample cannot drive it")
        }
        switch (t.interactive.gesturePhase, gesture.phase) {
        case (.ended?, _), (.cancelled?, _):
            throw .invalidParams("phase", "phase \"\(gesture.phase.rawValue)\" after the gesture \(t.interactive.gesturePhase?.rawValue ?? "") "
                + "on transition '\(t.id)': a gesture sends nothing after ended or cancelled")
        case (.some, .began):
            throw .invalidParams("phase", "phase \"began\" on transition '\(t.id)', whose gesture has already begun")
        default: break
        }
    }

    /// `coordinator:alongside(animations, completion)`: animations in step with the transition, over what is left
    /// of its duration with ease_in_out; scrubbed, finished and reversed with it.
    func animateAlongside(_ t: Transition, _ changes: () -> Void, completion: ((Bool) -> Void)?, in scene: Scene) {
        let remaining = max(0, t.duration - percent(of: t, in: scene) * t.duration)
        let saved = scene.clock.enter(t)
        scene.beginAnimations(AnimationOptions(duration: remaining, timing: .curve(.easeInOut)), completion: completion)
        changes()
        scene.commitAnimations()
        scene.clock.leave(restoring: saved)
    }

    /// `coordinator:on_interaction_change(fn)`.
    func onInteractionChange(_ t: Transition, _ handler: @escaping (_ cancelled: Bool, _ velocity: Double) -> Void, in scene: Scene) {
        t.interactionChangeHandlers.append(handler)
    }
}
