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

    /// The watchdog (TransitionLedger.checkWatchdogs).
    func checkWatchdogs() { ledger.checkWatchdogs(in: self) }

    /// Jumps a running transition to its end: its animations finish at once (their completions run), and if the
    /// animator still has not completed it, the engine does (forced).
    public func finishNow(_ transition: Transition) { ledger.finishNow(transition, in: self) }

    /// Forces every running transition of the scene to its end (scene.destroy, daemon shutdown). `forced`: each
    /// reports `forced: true` however it ends (scene.destroy: the scene is going, not the transition finishing).
    public func finishAllTransitions(forced: Bool = false) { ledger.finishAllTransitions(forced: forced, in: self) }
}
