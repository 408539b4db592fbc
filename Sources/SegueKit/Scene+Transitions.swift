import SegueJSON

/// What a request that may start a transition returns.
public struct TransitionStart {
    /// Nil when nothing had to change (the view controller was already selected).
    public let transition: Transition?
    public let animator: String?
    public let duration: Double
}

extension Scene {
    public func transition(_ id: String) -> Transition? { transitionsByID[id] }

    public var transitions: [Transition] { transitionOrder }

    /// Finds the animator a transition uses: explicit name → the view controller's own → the built-in default.
    func resolveAnimator(requested: String?, preferred: String?) throws(EngineError) -> any Animator {
        guard let name = requested ?? preferred, name != DefaultSlideAnimator.name else {
            return DefaultSlideAnimator()
        }
        guard let provider = animatorProvider, let animator = try provider.animator(named: name, for: self) else {
            throw EngineError(.notFound, "no animator plugin named '\(name)'", param: requested != nil ? "animator" : nil,
                              id: name)
        }
        return animator
    }

    /// container.select: switches a custom container to the view controller at `index`.
    public func select(_ container: ContainerViewController, index: Int, animated: Bool = true,
                       animator requested: String? = nil, whenBusy: WhenBusy? = nil) throws(EngineError)
        -> TransitionStart
    {
        guard index >= 0, index < container.items.count else {
            throw .invalidParams("index", "index \(index) is out of range 0..<\(container.items.count)")
        }
        if container.selectedIndex == index, container.activeTransition == nil {
            return TransitionStart(transition: nil, animator: nil, duration: 0)
        }
        let to = container.items[index]
        let animator = try resolveAnimator(requested: requested, preferred: to.preferredAnimators["select"])
        if let active = container.activeTransition {
            switch whenBusy ?? container.whenBusy {
            case .reject, .queue:
                throw EngineError(.invalidState, "container '\(container.id)' is running transition '\(active.id)'",
                                  id: active.id)
            case .interrupt:
                finishNow(active)
            }
            if container.selectedIndex == index {
                return TransitionStart(transition: nil, animator: nil, duration: 0)
            }
        }
        guard let fromIndex = container.selectedIndex, let from = container.selected else {
            addSelectedChild(at: index, of: container)  // nothing selected yet: no transition
            return TransitionStart(transition: nil, animator: nil, duration: 0)
        }

        let transition = Transition(
            id: "t-\(nextTransitionNumber)", kind: .select, container: container, from: from, to: to,
            fromIndex: fromIndex, toIndex: index, animator: animator, startedAt: now)
        nextTransitionNumber += 1
        let context = TransitionContext(
            scene: self, transition: transition, containerView: container.view, from: from, to: to,
            animated: animated, goingRight: index > fromIndex)
        transition.context = context
        transitionsByID[transition.id] = transition
        transitionOrder.append(transition)
        container.activeTransition = transition

        // Containment and appearance, in SPEC §3's order for select.
        willMove(from, to: nil)
        willMove(to, to: container)
        container.children.append(to)
        to.parent = container
        if container.isVisible {
            beginAppearance(from, appearing: false, animated: animated)
            beginAppearance(to, appearing: true, animated: animated)
        }
        start(transition, context: context)
        return TransitionStart(transition: transition, animator: transition.animatorName, duration: transition.duration)
    }

    /// Asks the animator for its duration, announces the transition and runs `animateTransition`; an animator
    /// that raises is undone and replaced by the default one.
    func start(_ transition: Transition, context: TransitionContext) {
        guard context.isAnimated else {
            transition.duration = 0
            emitBegan(transition, interactive: false)
            addSubview(transition.to.view, to: context.containerView)
            set(transition.to.view, frame: context.finalFrame(for: transition.to))
            completeTransition(transition, didComplete: true, forced: false)
            return
        }
        let snapshot = captureSnapshot()
        let saved = currentTransition
        currentTransition = transition
        defer { currentTransition = saved }
        var duration: Double
        do {
            duration = try transition.animator.transitionDuration(using: context)
        } catch {
            restore(snapshot)
            emitBegan(transition, interactive: false)
            failOver(transition, reason: error.message)
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
        emitBegan(transition, interactive: false)
        do {
            try transition.animator.animateTransition(using: context)
        } catch {
            guard !transition.isEnded else {
                warn(transition.animatorName, "raised after completing: \(error.message)")
                return
            }
            restore(snapshot)
            failOver(transition, reason: error.message)
        }
    }

    func setDuration(_ transition: Transition, _ duration: Double) {
        transition.duration = duration
        transition.context?.duration = duration
        let allowance = duration * config.watchdogFactor * 1e9 + Double(config.watchdogGraceMs) * 1e6
        transition.watchdogDeadline = now + Int64(min(allowance, 1e17))
    }

    func emitBegan(_ transition: Transition, interactive: Bool) {
        emit("transition.began", JSONObject([
            ("transition", .string(transition.id)), ("kind", .string(transition.kind.rawValue)),
            ("from", .string(transition.from.id)), ("to", .string(transition.to.id)),
            ("animator", .string(transition.animatorName)), ("interactive", .bool(interactive)),
            ("duration", .number(transition.duration)),
        ]))
    }

    /// The animator raised: what its call did has been undone; the built-in default finishes the transition.
    func failOver(_ transition: Transition, reason: String) {
        transition.failedOver = true
        transition.problems.append(TransitionProblem(code: "raised", message: reason))
        emit("transition.failed_over", JSONObject([
            ("transition", .string(transition.id)), ("animator", .string(transition.animatorName)),
            ("reason", .string(reason)),
        ]))
        let fallback = DefaultSlideAnimator()
        transition.animator = fallback
        guard let context = transition.context else { return }
        setDuration(transition, fallback.transitionDuration(using: context))
        let saved = currentTransition
        currentTransition = transition
        fallback.animateTransition(using: context)
        currentTransition = saved
    }

    /// completeTransition: finishes containment and appearance, calls `ended`, reports `transition.completed`.
    func completeTransition(_ transition: Transition, didComplete: Bool, forced: Bool) {
        transition.completeCalls += 1
        guard transition.completeCalls == 1, !transition.isEnded else {
            if !forced {
                transition.problems.append(TransitionProblem(code: "completed_twice", message: "complete was called again"))
                warn(transition.animatorName, "transition \(transition.id): complete called more than once; ignored")
            }
            return
        }
        guard let context = transition.context else { return }
        if context.transitionWasCancelled && didComplete {
            transition.problems.append(TransitionProblem(
                code: "completed_when_cancelled", message: "complete(true) after the transition was cancelled"))
        }
        let completed = didComplete && !context.transitionWasCancelled
        let container = transition.container
        let from = transition.from, to = transition.to
        let animated = context.isAnimated
        if completed {
            if to.view.superview !== context.containerView {
                if !forced {
                    transition.problems.append(TransitionProblem(
                        code: "missing_to_view", message: "the to-view was not in the container when complete was called"))
                }
                addSubview(to.view, to: context.containerView)
                set(to.view, frame: context.finalFrame(for: to))
            }
            removeFromSuperview(from.view)
            container.children.removeAll { $0 === from }
            from.parent = nil
            container.selectedIndex = transition.toIndex
            endAppearance(from, animated: animated)
            endAppearance(to, animated: animated)
            didMove(from, to: nil)
            didMove(to, to: container)
        } else {
            removeFromSuperview(to.view)
            if from.view.superview !== context.containerView { addSubview(from.view, to: context.containerView) }
            if to.appearance == .appearing {
                beginAppearance(to, appearing: false, animated: animated)
                endAppearance(to, animated: animated)
                beginAppearance(from, appearing: true, animated: animated)
                endAppearance(from, animated: animated)
            }
            container.children.removeAll { $0 === to }
            to.parent = nil
            didMove(to, to: nil)
            didMove(from, to: container)
        }
        transition.state = completed ? .completed : .cancelled
        transition.endedAt = now
        transition.forced = transition.forced || forced
        if container.activeTransition === transition { container.activeTransition = nil }
        do {
            try transition.animator.animationEnded(completed, context: context)
        } catch {
            warn(transition.animatorName, "ended raised: \(error.message)")
        }
        emit("transition.completed", JSONObject([
            ("transition", .string(transition.id)), ("completed", .bool(completed)),
            ("forced", .bool(transition.forced)),
        ]))
        trimFinishedTransitions()
    }

    func trimFinishedTransitions() {
        var finished = transitionOrder.filter(\.isEnded).count
        guard finished > config.timelineRetention else { return }
        transitionOrder.removeAll { t in
            guard finished > config.timelineRetention, t.isEnded else { return false }
            finished -= 1
            transitionsByID[t.id] = nil
            return true
        }
    }

    /// The watchdog: a transition whose animator never called complete is completed after
    /// duration × watchdog_factor + watchdog_grace_ms of scene time.
    func checkWatchdogs() {
        for transition in transitionOrder where !transition.isEnded && transition.state == .animating {
            guard now >= transition.watchdogDeadline else { continue }
            transition.problems.append(TransitionProblem(
                code: "never_completed", message: "complete was not called within the watchdog's allowance"))
            emit("transition.watchdog", JSONObject([
                ("transition", .string(transition.id)), ("animator", .string(transition.animatorName)),
            ]))
            finishNow(transition)
        }
    }

    /// Jumps a running transition to its end: its animations finish at once (their completions run), and if the
    /// animator still has not completed it, the engine does (forced).
    public func finishNow(_ transition: Transition) {
        var rounds = 0
        while !transition.isEnded, rounds < 16 {
            rounds += 1
            let own = running.filter { !$0.removed && $0.group.transition === transition }
            if own.isEmpty && pendingCompletions.isEmpty { break }
            for animation in own {
                let view = animation.view
                if view.dirty == 0 { dirtyViews.append(view) }
                _ = animation.evaluate(at: .max / 2)
                removeAnimation(of: view, animation.property, finished: true)
            }
            running.removeAll { $0.removed }
            runPendingCompletions()
        }
        if !transition.isEnded {
            transition.forced = true
            let cancelled = transition.context?.transitionWasCancelled ?? false
            completeTransition(transition, didComplete: !cancelled, forced: true)
        }
    }

    /// Forces every running transition of the scene to its end (scene.destroy, daemon shutdown).
    public func finishAllTransitions() {
        for transition in transitionOrder where !transition.isEnded { finishNow(transition) }
    }

    /// transition.get's result.
    public func json(of t: Transition) -> JSONValue {
        var o = JSONObject([
            ("transition", .string(t.id)), ("scene", .string(id)), ("kind", .string(t.kind.rawValue)),
            ("from", .string(t.from.id)), ("to", .string(t.to.id)),
        ])
        if let i = t.fromIndex { o["from_index"] = .number(Double(i)) }
        if let i = t.toIndex { o["to_index"] = .number(Double(i)) }
        o["container"] = .string(t.container.id)
        o["animator"] = .string(t.animatorName)
        o["state"] = .string(t.state.rawValue)
        o["percent"] = .number(percent(of: t))
        o["duration"] = .number(t.duration)
        o["started_at"] = .number(Double(t.startedAt) / 1e9)
        if let end = t.endedAt { o["ended_at"] = .number(Double(end) / 1e9) }
        o["forced"] = .bool(t.forced)
        o["failed_over"] = .bool(t.failedOver)
        o["problems"] = .array(t.problems.map {
            .object(JSONObject([("code", .string($0.code)), ("message", .string($0.message))]))
        })
        return .object(o)
    }

    func percent(of t: Transition) -> Double {
        switch t.state {
        case .completed: return 1
        case .cancelled: return 0
        default:
            guard t.duration > 0 else { return 0 }
            return min(1, max(0, Double(now - t.startedAt) / 1e9 / t.duration))
        }
    }
}
