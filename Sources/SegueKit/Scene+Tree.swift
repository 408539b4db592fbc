extension Scene {
    /// scene.tree: the view tree from the window, and the view-controller tree from the root.
    public func tree(presentation: Bool) -> SceneTree {
        SceneTree(views: viewNode(window, presentation: presentation), controllers: root.map { controllerNode($0) })
    }

    func viewNode(_ view: View, presentation: Bool) -> ViewNode {
        ViewNode(id: view.id, model: view.model, presentation: presentation ? view.presentation : nil,
                 hidden: view.hidden, z: view.z,
                 subviews: view.subviews.map { viewNode($0, presentation: presentation) })
    }

    func controllerNode(_ vc: ViewController, depth: Int = 0) -> ControllerNode {
        ControllerNode(
            id: vc.id, kind: vc.kind, view: vc.view.id, appearance: vc.appearance,
            children: depth < Scene.maxViewDepth ? vc.children.map { controllerNode($0, depth: depth + 1) } : [],
            presented: depth < Scene.maxViewDepth ? vc.presentedViewController.map { controllerNode($0, depth: depth + 1) } : nil)
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
