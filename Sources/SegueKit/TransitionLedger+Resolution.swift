/// Which animator and interaction controller a transition runs with (docs/DESIGN.md §1): the step of the start
/// pipeline between admitting a request and beginning its transition.
extension TransitionLedger {
    func animator(named name: String, param: String?, in scene: Scene) throws(EngineError) -> any Animator {
        if name == DefaultSlideAnimator.name { return DefaultSlideAnimator() }
        guard let provider = scene.animatorProvider, let animator = try provider.animator(named: name, for: scene) else {
            throw EngineError(.notFound, "no animator plugin named '\(name)'", param: param, id: name)
        }
        return animator
    }

    /// The one place that decides which animation runs, first match wins (docs/PROTOCOL.md "Which animation
    /// runs"): the request's `animator` → the view controller's own (`animators`) → the container's delegate
    /// plugin → its rules (first match) → the zoom of `preferred_transition` (present/push on the destination, dismiss/pop on the
    /// leaving view controller) → the presentation's `transition_style` → the
    /// built-in for the container kind (`ContainerBehaviour.builtInAnimator()`). Only an explicit name that does not exist is an error; a
    /// missing or failing choice further down is reported (`plugin.warning`) and the next source is asked.
    func resolveAnimator(_ op: TransitionOperation, requested: String?, in scene: Scene) throws(EngineError) -> any Animator {
        if let requested { return try animator(named: requested, param: "animator", in: scene) }
        let backward = op.kind == .pop || op.kind == .dismiss || (op.kind == .set && op.direction == .backward)
        let key: String
        switch op.kind {
        case .set: key = backward ? "pop" : "push"
        case .select, .push, .pop, .present, .dismiss, .column, .displayMode: key = op.kind.rawValue
        }
        let owner = backward ? op.from : op.to
        if let name = owner.preferredAnimators[key] {
            if let found = try? animator(named: name, param: nil, in: scene) { return found }
            scene.warn(name, "view controller '\(owner.id)' prefers animator '\(name)', which is not loaded; asking the next source")
        }
        if let delegate = op.container.delegatePlugin, let provider = scene.animatorProvider {
            switch provider.delegateAnimator(delegate, operation: op, for: scene) {
            case .success(let name?):
                if let found = try? animator(named: name, param: nil, in: scene) { return found }
                scene.warn(delegate, "animator_for returned '\(name)', which is not a loaded animator; asking the rules")
            case .success(nil):
                break
            case .failure(let fault):
                scene.warn(delegate, "animator_for failed: \(fault.message)")
            }
        }
        if let rule = op.container.rules.first(where: { $0.matches(op) }) {
            if let found = try? animator(named: rule.animator, param: nil, in: scene) { return found }
            scene.warn(rule.animator, "a rule of container '\(op.container.id)' names animator '\(rule.animator)', which is not loaded; using the default")
        }
        // A popover animates from its own source (docs/PROTOCOL.md "The zoom transition"): no zoom for it.
        let presentation = op.kind == .present ? op.to.presentation : op.kind == .dismiss ? op.from.presentation : nil
        if let zoom = owner.preferredZoom, [.present, .dismiss, .push, .pop].contains(op.kind),
            presentation?.style != .popover
        {
            return ZoomAnimator(zoom)
        }
        if let style = modalTransitionStyle(of: op) { return SystemTransitionAnimator(SystemTransitionAnimator.Style(style)) }
        return op.container.behaviour.builtInAnimator()
    }

    /// The `transition_style` of the presentation a present or dismiss belongs to (the top one for a dismissal).
    func modalTransitionStyle(of op: TransitionOperation) -> ModalTransitionStyle? {
        switch op.kind {
        case .present: op.to.presentation?.transitionStyle
        case .dismiss: op.from.presentation?.transitionStyle
        case .select, .push, .pop, .set, .column, .displayMode: nil
        }
    }

    /// The interaction controller for a transition started interactive: the named plugin, else (for `true`)
    /// the delegate plugin's `interaction_for`, else the first matching rule's `interaction`. A transition started
    /// non-interactive never gets one (seed 001's rule).
    func resolveInteraction(_ op: TransitionOperation, _ interactive: Interactivity, animator: String, in scene: Scene)
        throws(EngineError) -> (any InteractionController)?
    {
        switch interactive {
        case .none:
            return nil
        case .plugin(let name):
            guard let provider = scene.animatorProvider, let found = try provider.interaction(named: name, for: scene) else {
                throw EngineError(.notFound, "no interaction plugin named '\(name)'", param: "interactive", id: name)
            }
            return found
        case .percent:
            if let delegate = op.container.delegatePlugin, let provider = scene.animatorProvider {
                switch provider.delegateInteraction(delegate, operation: op, animator: animator, for: scene) {
                case .success(let name?):
                    if let found = try? provider.interaction(named: name, for: scene) { return found }
                    scene.warn(delegate, "interaction_for returned '\(name)', which is not a loaded interaction plugin")
                case .success(nil):
                    break
                case .failure(let fault):
                    scene.warn(delegate, "interaction_for failed: \(fault.message)")
                }
            }
            if let rule = op.container.rules.first(where: { $0.matches(op) }), let name = rule.interaction {
                if let found = try? scene.animatorProvider?.interaction(named: name, for: scene) { return found }
                scene.warn(name, "a rule of container '\(op.container.id)' names interaction plugin '\(name)', which is not loaded")
            }
            return nil
        }
    }
}
