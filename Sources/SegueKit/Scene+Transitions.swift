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

/// What became of a queued request that never started a transition (nothing left to do, or no longer valid).
public struct QueuedOutcome: Sendable {
    public let id: String
    public let kind: TransitionKind
    public let container: String
    public let state: TransitionState
    public let message: String?
}

extension Scene {
    public func transition(_ id: String) -> Transition? { coordinator.transitionsByID[id] }

    public var transitions: [Transition] { coordinator.transitionOrder }

    /// A request waiting in a container's queue (`when_busy: queue`), or one that left the queue without
    /// starting a transition.
    public func queuedRequest(_ id: String) -> (container: ContainerViewController, kind: TransitionKind)? {
        for c in viewControllersByID.values.compactMap({ $0 as? ContainerViewController }) {
            if let q = c.queue.first(where: { $0.id == id }) { return (c, q.kind) }
        }
        return nil
    }

    public func queuedOutcome(_ id: String) -> QueuedOutcome? { coordinator.queuedOutcomes[id] }

    func newTransitionID() -> String { coordinator.newTransitionID() }

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
        let backward = op.kind == .pop || op.kind == .dismiss || (op.kind == .set && op.direction == "backward")
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
        return DefaultSlideAnimator()
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

    /// Applies `when_busy` when the container is running a transition: rejects, queues (returning the queued
    /// start), or jumps the running one to its end. Nil means: go ahead now.
    func admit(_ container: ContainerViewController, _ policy: WhenBusy?, kind: TransitionKind,
               retry: @escaping (String) throws(EngineError) -> TransitionStart) throws(EngineError) -> TransitionStart?
    {
        guard let active = container.activeTransition else { return nil }
        switch policy ?? container.whenBusy {
        case .reject:
            throw EngineError(.invalidState, "container '\(container.id)' is running transition '\(active.id)'",
                              id: active.id)
        case .queue:
            guard container.queue.count < Scene.maxQueuedPerContainer else {
                throw EngineError(.limitExceeded, "container '\(container.id)' already has \(Scene.maxQueuedPerContainer) queued transitions")
            }
            let id = newTransitionID()
            coordinator.reservedTransitionIDs.insert(id)
            container.queue.append(QueuedTransition(id: id, kind: kind, start: retry))
            return TransitionStart(transition: nil, queuedID: id, animator: nil, duration: 0)
        case .interrupt:
            finishNow(active)
            guard container.activeTransition == nil else {
                throw EngineError(.invalidState, "container '\(container.id)' could not end transition '\(active.id)'", id: active.id)
            }
            return nil
        }
    }

    /// How many requests one container may queue.
    public static let maxQueuedPerContainer = 64

    /// Starts the next queued request of an idle container. A request with nothing left to do, or no longer
    /// valid, ends at once with `transition.completed` (`skipped: true`).
    func startNextQueued(_ container: ContainerViewController) {
        while container.activeTransition == nil, !container.queue.isEmpty {
            let next = container.queue.removeFirst()
            coordinator.reservedTransitionIDs.remove(next.id)
            var message: String?
            var state = TransitionState.completed
            do {
                let start = try next.start(next.id)
                if start.transition != nil { return }
            } catch {
                message = error.message
                state = .cancelled
            }
            coordinator.queuedOutcomes[next.id] = QueuedOutcome(id: next.id, kind: next.kind, container: container.id, state: state, message: message)
            coordinator.queuedOutcomeOrder.append(next.id)
            if coordinator.queuedOutcomeOrder.count > max(1, config.timelineRetention) {
                coordinator.queuedOutcomes[coordinator.queuedOutcomeOrder.removeFirst()] = nil
            }
            emit(.transitionCompleted(EngineEvent.TransitionCompletion(
                transition: next.id, completed: state == .completed, forced: false, skipped: true, reason: message)))
        }
    }

    // MARK: Requests

    /// container.select: switches a custom, tab or paging container to `index` (the page, for paging).
    public func select(_ container: ContainerViewController, index: Int, animated: Bool = true, interactive: Interactivity = .none,
                       animator requested: String? = nil, whenBusy: WhenBusy? = nil,
                       id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        guard container.containerKind != .navigation else {
            throw .invalidParams("container", "'\(container.id)' is a navigation container: use nav.push, nav.pop or nav.set")
        }
        let count = container.containerKind == .paging ? container.pageCount : container.items.count
        guard index >= 0, index < count else {
            throw .invalidParams("index", "index \(index) is out of range 0..<\(count)")
        }
        if container.selectedIndex == index, container.activeTransition == nil {
            return .nothing
        }
        if let queued = try admit(container, whenBusy, kind: .select, retry: { [unowned self] id throws(EngineError) in
            try self.select(container, index: index, animated: animated, interactive: interactive, animator: requested, whenBusy: .reject, id: id)
        }) {
            return queued
        }
        if container.selectedIndex == index { return .nothing }
        guard let fromIndex = container.selectedIndex, let from = container.selected else {
            if container.containerKind == .paging {
                let page = try pageViewController(container, page: index)
                addSelectedChild(page, of: container, index: index)
            } else {
                addSelectedChild(at: index, of: container)  // nothing selected yet: no transition
            }
            return .nothing
        }
        let to = container.containerKind == .paging
            ? try pageViewController(container, page: index) : container.items[index]
        let op = TransitionOperation(kind: .select, container: container, from: from, to: to, fromIndex: fromIndex,
                                     toIndex: index, direction: index >= fromIndex ? "forward" : "backward")
        let animator = try resolveAnimator(op, requested: requested)
        let interaction = animated ? try resolveInteraction(op, interactive, animator: animator.name) : nil
        let t = begin(op, animated: animated, animator: animator, id: reserved, interactive: interactive, interaction: interaction)
        return .started(t)
    }

    /// nav.push: `vc` goes on top of the stack.
    public func push(_ nav: ContainerViewController, _ vc: ViewController, animated: Bool = true, interactive: Interactivity = .none,
                     animator requested: String? = nil, whenBusy: WhenBusy? = nil,
                     id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        try requireNavigation(nav)
        guard !nav.items.contains(where: { $0 === vc }) else {
            throw .invalidParams("vc", "'\(vc.id)' is already on the stack of '\(nav.id)'")
        }
        try requireFree(vc, param: "vc")
        if let queued = try admit(nav, whenBusy, kind: .push, retry: { [unowned self] id throws(EngineError) in
            try self.push(nav, vc, animated: animated, interactive: interactive, animator: requested, whenBusy: .reject, id: id)
        }) {
            return queued
        }
        guard let from = nav.items.last else {
            try setStack(nav, [vc], animated: false)
            return .nothing
        }
        let op = TransitionOperation(kind: .push, container: nav, from: from, to: vc, fromIndex: nav.items.count - 1,
                                     toIndex: nav.items.count, direction: "forward")
        let animator = try resolveAnimator(op, requested: requested)
        let interaction = animated ? try resolveInteraction(op, interactive, animator: animator.name) : nil
        return .started(begin(op, animated: animated, animator: animator, id: reserved, interactive: interactive,
                              interaction: interaction))
    }

    /// nav.pop (`toRoot` false) and nav.pop_to_root.
    public func pop(_ nav: ContainerViewController, toRoot: Bool = false, animated: Bool = true, interactive: Interactivity = .none,
                    animator requested: String? = nil, whenBusy: WhenBusy? = nil,
                    id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        try requireNavigation(nav)
        guard nav.items.count > 1 || nav.activeTransition != nil else {
            throw EngineError(.invalidState, "the stack of '\(nav.id)' holds only its root: there is nothing to pop", id: nav.id)
        }
        if let queued = try admit(nav, whenBusy, kind: .pop, retry: { [unowned self] id throws(EngineError) in
            try self.pop(nav, toRoot: toRoot, animated: animated, interactive: interactive, animator: requested, whenBusy: .reject, id: id)
        }) {
            return queued
        }
        guard nav.items.count > 1, let from = nav.items.last else {
            throw EngineError(.invalidState, "the stack of '\(nav.id)' holds only its root: there is nothing to pop", id: nav.id)
        }
        let toIndex = toRoot ? 0 : nav.items.count - 2
        let to = nav.items[toIndex]
        let op = TransitionOperation(kind: .pop, container: nav, from: from, to: to, fromIndex: nav.items.count - 1,
                                     toIndex: toIndex, direction: "backward")
        let animator = try resolveAnimator(op, requested: requested)
        let interaction = animated ? try resolveInteraction(op, interactive, animator: animator.name) : nil
        let leaving = Array(nav.items[(toIndex + 1)..<(nav.items.count - 1)].reversed())
        return .started(begin(op, animated: animated, animator: animator, id: reserved, interactive: interactive,
                              interaction: interaction, leaving: leaving,
                              newStack: Array(nav.items[0...toIndex])))
    }

    /// nav.set: replaces the whole stack. When the top changes this is a transition (`set`): forward when the
    /// new top was not on the stack (like a push), backward otherwise (like a pop).
    public func setStack(_ nav: ContainerViewController, _ vcs: [ViewController], animated: Bool = true, interactive: Interactivity = .none,
                         animator requested: String? = nil, whenBusy: WhenBusy? = nil,
                         id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        try requireNavigation(nav)
        guard !vcs.isEmpty else { throw .invalidParams("vcs", "the stack needs at least one view controller") }
        // Sets, not searches of the stack per view controller: a stack of thousands stays linear.
        var seen = Set<ObjectIdentifier>()
        let onStack = Set(nav.items.map(ObjectIdentifier.init))
        let held = itemsOfAnyContainer()
        for vc in vcs {
            guard seen.insert(ObjectIdentifier(vc)).inserted else { throw .invalidParams("vcs", "'\(vc.id)' appears twice") }
            if !onStack.contains(ObjectIdentifier(vc)) { try requireFree(vc, param: "vcs", held: held) }
        }
        if let queued = try admit(nav, whenBusy, kind: .set, retry: { [unowned self] id throws(EngineError) in
            try self.setStack(nav, vcs, animated: animated, interactive: interactive, animator: requested, whenBusy: .reject, id: id)
        }) {
            return queued
        }
        let old = nav.items
        let leaving = old.filter { !seen.contains(ObjectIdentifier($0)) }
        let entering = vcs.filter { !onStack.contains(ObjectIdentifier($0)) }
        guard let from = old.last, let to = vcs.last, from !== to else {
            // The top stays (or the stack was empty): containment only, no transition.
            for vc in leaving { willMove(vc, to: nil) }
            for vc in entering { willMove(vc, to: nav) }
            let visible = nav.isVisible
            if visible, let from = old.last, from !== vcs.last { beginAppearance(from, appearing: false, animated: false) }
            nav.items = vcs
            removeChildren(leaving, of: nav)
            for vc in leaving {
                vc.parent = nil
                if vc.view.superview === nav.view { removeFromSuperview(vc.view) }
            }
            for vc in entering {
                nav.children.append(vc)
                vc.parent = nav
            }
            if let top = vcs.last, top.view.superview !== nav.view {
                addSubview(top.view, to: nav.view)
                set(top.view, frame: nav.view.model.bounds)
                if visible { beginAppearance(top, appearing: true, animated: false) }
            }
            if visible {
                for vc in leaving { endAppearance(vc) }
                if let top = vcs.last { endAppearance(top) }
            }
            nav.selectedIndex = vcs.count - 1
            for vc in leaving { didMove(vc, to: nil) }
            for vc in entering { didMove(vc, to: nav) }
            return .nothing
        }
        let toWasOnStack = onStack.contains(ObjectIdentifier(to))
        let op = TransitionOperation(kind: .set, container: nav, from: from, to: to, fromIndex: old.count - 1,
                                     toIndex: vcs.count - 1, direction: toWasOnStack ? "backward" : "forward")
        let animator = try resolveAnimator(op, requested: requested)
        let interaction = animated ? try resolveInteraction(op, interactive, animator: animator.name) : nil
        return .started(begin(op, animated: animated, animator: animator, id: reserved, interactive: interactive,
                              interaction: interaction, leaving: leaving, entering: entering, newStack: vcs))
    }

    func requireNavigation(_ nav: ContainerViewController) throws(EngineError) {
        guard nav.containerKind == .navigation else {
            throw .invalidParams("container", "'\(nav.id)' is a \(nav.kind) container, not a navigation container")
        }
    }

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

    /// Builds the transition and its context, makes the will-calls of docs/DESIGN.md §3 for its kind, and starts the
    /// animator.
    func begin(_ op: TransitionOperation, animated: Bool, animator: any Animator, id reserved: String?,
               interactive: Interactivity = .none, interaction: (any InteractionController)? = nil, leaving: [ViewController] = [], entering: [ViewController] = [], newStack: [ViewController]? = nil)
        -> Transition
    {
        let container = op.container
        let from = op.from, to = op.to
        let transition = Transition(
            id: reserved ?? newTransitionID(), kind: op.kind, container: container, from: from, to: to,
            fromIndex: op.fromIndex, toIndex: op.toIndex, direction: op.direction, animator: animator, startedAt: now)
        transition.leaving = leaving
        transition.entering = entering
        transition.oldStack = container.items
        let seedFrames = !container.isModalHost
            && (container.containerKind == .custom || container.containerKind == .paging)
        let context = TransitionContext(
            scene: self, transition: transition, containerView: container.view, from: from, to: to,
            animated: animated, goingRight: (op.toIndex ?? 0) > (op.fromIndex ?? 0), seedFrames: seedFrames)
        transition.context = context
        transition.timelineRoot = container.isModalHost ? window : container.view
        if container.isModalHost { configureModalContext(transition, context) }
        transition.startedInteractive = animated && interactive != .none
        transition.interaction = transition.startedInteractive ? interaction : nil
        transition.interactionName = transition.interaction?.name
        context.isInteractive = transition.startedInteractive
        coordinator.transitionsByID[transition.id] = transition
        coordinator.transitionOrder.append(transition)
        coordinator.activeTransitionCount += 1
        container.activeTransition = transition

        // Containment, in docs/DESIGN.md §3's order for the kind.
        switch op.kind {
        case .select where container.containerKind == .tab:
            break  // the children stay children
        case .select:
            willMove(from, to: nil)
            willMove(to, to: container)
            container.children.append(to)
            to.parent = container
        case .push:
            willMove(to, to: container)
            container.items.append(to)
            container.children.append(to)
            to.parent = container
        case .pop:
            willMove(from, to: nil)
            for vc in leaving { willMove(vc, to: nil) }
            container.items = newStack ?? container.items
        case .set:
            for vc in leaving { willMove(vc, to: nil) }
            for vc in entering {
                willMove(vc, to: container)
                container.children.append(vc)
                vc.parent = container
            }
            container.items = newStack ?? container.items
        case .present, .dismiss:
            break
        }
        if container.isModalHost {
            modalWillBegin(transition, animated: animated)
        } else if container.isVisible {
            beginAppearance(from, appearing: false, animated: animated)
            beginAppearance(to, appearing: true, animated: animated)
        }
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
            if transition.kind != .dismiss { addSubview(transition.to.view, to: context.containerView) }
            set(transition.to.view, frame: context.finalFrame(for: transition.to))
            completeTransition(transition, didComplete: true, forced: false)
            return
        }
        // What the animator's calls change is journaled as they change it, so a failed call can be undone.
        var journal = openJournal()
        defer { closeJournal(journal) }
        transition.baseline = captureBaseline(transition, containerView: context.containerView)
        let saved = coordinator.currentTransition
        coordinator.currentTransition = transition
        defer { coordinator.currentTransition = saved }
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
        coordinator.earliestWatchdog = min(coordinator.earliestWatchdog, transition.watchdogDeadline)
    }

    func emitBegan(_ transition: Transition, interactive: Bool) {
        emit(.transitionBegan(EngineEvent.TransitionBegan(
            transition: transition.id, kind: transition.kind, from: transition.from.id, to: transition.to.id,
            animator: transition.animatorName, interactive: interactive, duration: transition.duration)))
    }

    /// The animator raised: what its call did has been undone; the built-in default finishes the transition.
    func failOver(_ transition: Transition, reason: String) {
        transition.failedOver = true
        transition.problems.append(TransitionProblem(code: "raised", message: reason))
        emit(.failedOver(transition: transition.id, animator: transition.animatorName, reason: reason))
        let fallback = DefaultSlideAnimator()
        transition.animator = fallback
        guard let context = transition.context else { return }
        setDuration(transition, fallback.transitionDuration(using: context))
        let saved = coordinator.currentTransition
        coordinator.currentTransition = transition
        fallback.animateTransition(using: context)
        coordinator.currentTransition = saved
    }

    /// completeTransition: finishes containment and appearance for the transition's kind (or returns everything
    /// to where it was, when cancelled), calls `ended`, reports `transition.completed`, and starts the container's
    /// next queued request.
    func completeTransition(_ transition: Transition, didComplete: Bool, forced: Bool) {
        transition.completeCalls += 1
        guard transition.completeCalls == 1, !transition.isEnded else {
            if !forced {
                transition.problems.append(TransitionProblem(code: "completed_twice", message: "complete was called again"))
                warn(transition.animatorName, "transition \(transition.id): complete called more than once; ignored",
                     code: .completedTwice)
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
        if completed {
            if transition.kind != .dismiss, transition.to.view.superview !== context.containerView {
                if !forced {
                    transition.problems.append(TransitionProblem(
                        code: "missing_to_view", message: "the to-view was not in the container when complete was called"))
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
            coordinator.drivenTransitions.removeAll { $0 === transition }
        }
        closeOpenPhase(transition)
        transition.interaction?.transitionEnded(transition)
        transition.state = completed ? .completed : .cancelled
        coordinator.endedCount += 1
        transition.endedAt = now
        transition.forced = transition.forced || forced
        if let root = transition.timelineRoot {
            transition.timeline.record(root, at: now, structureVersion: tree.structureVersion, valueVersion: tree.valueVersion, final: true)
        }
        coordinator.activeTransitionCount -= 1
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
        let container = t.container
        let from = t.from, to = t.to
        if container.isModalHost {
            modalFinish(t, animated: animated)
            return
        }
        removeFromSuperview(from.view)
        switch t.kind {
        case .select where container.containerKind == .tab:
            container.selectedIndex = t.toIndex
            endAppearance(from, animated: animated)
            endAppearance(to, animated: animated)
        case .select:
            container.children.removeAll { $0 === from }
            from.parent = nil
            container.selectedIndex = t.toIndex
            endAppearance(from, animated: animated)
            endAppearance(to, animated: animated)
            didMove(from, to: nil)
            didMove(to, to: container)
        case .push:
            container.selectedIndex = container.items.count - 1
            endAppearance(from, animated: animated)
            endAppearance(to, animated: animated)
            didMove(to, to: container)
        case .pop:
            removeChildren([from] + t.leaving, of: container)
            for vc in [from] + t.leaving { vc.parent = nil }
            container.selectedIndex = container.items.count - 1
            endAppearance(from, animated: animated)
            endAppearance(to, animated: animated)
            didMove(from, to: nil)
            for vc in t.leaving { didMove(vc, to: nil) }
        case .set:
            removeChildren(t.leaving, of: container)
            for vc in t.leaving {
                vc.parent = nil
                if vc.view.superview === container.view { removeFromSuperview(vc.view) }
            }
            container.selectedIndex = container.items.count - 1
            endAppearance(from, animated: animated)
            endAppearance(to, animated: animated)
            for vc in t.leaving { didMove(vc, to: nil) }
            for vc in t.entering { didMove(vc, to: container) }
        case .present, .dismiss:
            endAppearance(from, animated: animated)
            endAppearance(to, animated: animated)
        }
    }

    /// A cancelled transition: the to-view leaves, the from-view is back, appearance is reversed (T disappears,
    /// F appears) and every will_move_to_parent is balanced so containment is exactly what it was (docs/DESIGN.md §3).
    func undoContainment(_ t: Transition, animated: Bool) {
        let container = t.container
        let from = t.from, to = t.to
        guard let context = t.context else { return }
        if !container.isModalHost {
            removeFromSuperview(to.view)
            if from.view.superview !== context.containerView { addSubview(from.view, to: context.containerView) }
        }
        // Reversed: the to-side disappears, then the from-side appears (each only if it had begun to change).
        if to.appearance == .appearing {
            beginAppearance(to, appearing: false, animated: animated)
            endAppearance(to, animated: animated)
        }
        if from.appearance == .disappearing {
            beginAppearance(from, appearing: true, animated: animated)
            endAppearance(from, animated: animated)
        }
        if container.isModalHost {
            modalUndo(t, animated: animated)
            return
        }
        switch t.kind {
        case .select where container.containerKind == .tab:
            break
        case .select:
            container.children.removeAll { $0 === to }
            to.parent = nil
            didMove(to, to: nil)
            didMove(from, to: container)
        case .push:
            container.items = t.oldStack
            container.children.removeAll { $0 === to }
            to.parent = nil
            didMove(to, to: nil)
        case .pop:
            container.items = t.oldStack
            didMove(from, to: container)
            for vc in t.leaving { didMove(vc, to: container) }
        case .set:
            container.items = t.oldStack
            removeChildren(t.entering, of: container)
            for vc in t.entering {
                vc.parent = nil
                didMove(vc, to: nil)
            }
            for vc in t.leaving { didMove(vc, to: container) }
        case .present, .dismiss:
            break
        }
    }

    /// Forgets the oldest ended transitions beyond `timeline_retention` (in start order). The ended count is kept
    /// as transitions end, so a completion that leaves the count within the retention costs nothing; one past it
    /// forgets the oldest ended transition, found from the front (the running ones before it are few: in the usual
    /// case it is the first). No array is built and no transition retained per completion.
    func trimFinishedTransitions() {
        let retention = config.timelineRetention
        while coordinator.endedCount > retention {
            guard let index = coordinator.transitionOrder.firstIndex(where: { $0.isEnded }) else { return }
            coordinator.transitionsByID[coordinator.transitionOrder[index].id] = nil
            coordinator.transitionOrder.removeSubrange(index..<(index + 1))
            coordinator.endedCount -= 1
        }
    }

    /// The watchdog: a transition whose animator never called complete is completed after
    /// duration × watchdog_factor + watchdog_grace_ms of scene time.
    func checkWatchdogs() {
        guard now >= coordinator.earliestWatchdog else { return }
        var earliest = Int64.max
        coordinator.earliestWatchdog = .max  // transitions started from here on (the queue's next) lower it again
        defer { coordinator.earliestWatchdog = min(coordinator.earliestWatchdog, earliest) }
        // Suspended while interactive; a finish or cancel ramp sets a new deadline.
        for transition in coordinator.transitionOrder where !transition.isEnded && transition.state != .interactive
            && transition.drive?.ramp == nil
        {
            guard now >= transition.watchdogDeadline else {
                earliest = min(earliest, transition.watchdogDeadline)
                continue
            }
            transition.problems.append(TransitionProblem(
                code: "never_completed", message: "complete was not called within the watchdog's allowance"))
            emit(.watchdog(transition: transition.id, animator: transition.animatorName))
            finishNow(transition)
        }
    }

    /// Jumps a running transition to its end: its animations finish at once (their completions run), and if the
    /// animator still has not completed it, the engine does (forced).
    public func finishNow(_ transition: Transition) {
        if transition.drive != nil {
            jumpDriven(transition)
            runPendingCompletions()
        }
        var rounds = 0
        while !transition.isEnded, rounds < 16 {
            rounds += 1
            let own = clock.running.filter { !$0.removed && $0.group.transition === transition }
            if own.isEmpty && clock.pendingCompletions.isEmpty { break }
            for animation in own {
                let view = animation.view
                touch(view)
                if view.dirty == 0 { dirtyViews.append(view) }
                _ = animation.evaluate(at: .max / 2)
                removeAnimation(of: view, animation.property, finished: true)
            }
            clock.running.removeAll { $0.removed }
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
        for transition in coordinator.transitionOrder where !transition.isEnded { finishNow(transition) }
    }
}
