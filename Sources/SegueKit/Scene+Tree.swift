extension Scene {
    /// scene.tree: the view tree from the window, and the view-controller tree from the root.
    public func tree(presentation: Bool) -> SceneTree {
        var masks: [ViewNode] = []
        func collect(_ view: View, depth: Int) {
            if let mask = view.mask { masks.append(tree.node(mask, presentation: presentation)) }
            guard depth < Scene.maxViewDepth else { return }
            for sub in view.subviews { collect(sub, depth: depth + 1) }
        }
        collect(window, depth: 0)
        return SceneTree(views: tree.node(window, presentation: presentation), controllers: root.map { controllers.node($0) },
                         masks: masks)
    }

    /// The state of a transition, of a request still waiting in its container's queue, or of one that left the
    /// queue without a transition; nil for an id the scene does not know.
    public func transitionState(_ id: String) -> TransitionState? {
        if let t = transition(id) { return t.state }
        if queuedRequest(id) != nil { return .queued }
        return queuedOutcome(id)?.state
    }

    /// The presentation style of a present or dismiss transition (nil for other kinds). A completed dismissal has
    /// no modal record left; its context kept the style it ran with.
    public func presentationStyle(of t: Transition) -> PresentationStyle? {
        ledger.modalRecord(of: t, in: self)?.style ?? t.context?.presentationStyle
    }
}
