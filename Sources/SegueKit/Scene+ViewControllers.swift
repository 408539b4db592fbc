extension Scene {
    /// Checks an id given by a client: letters, digits, `-`, `_`, `.`, 1–64 characters.
    public static func isValidID(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard (1...64).contains(utf8.count) else { return false }
        for c in utf8 {
            switch c {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                continue
            default: return false
            }
        }
        return true
    }

    public func viewController(_ id: String) -> ViewController? { controllers.viewControllersByID[id] }

    public func container(_ id: String) -> ContainerViewController? {
        controllers.container(id)
    }

    public var allViewControllers: [ViewController] { controllers.all }

    /// vc.create: a view controller with a view the size of the scene.
    public func createViewController(id requested: String?, title: String?, color: Color?,
                                     animators: [String: String] = [:]) throws(EngineError) -> ViewController
    {
        try controllers.createViewController(id: requested, title: title, color: color, animators: animators, in: self)
    }

    /// container.create (ControllerTree.createContainer).
    public func createContainer(id requested: String?, kind: ContainerKind, items: [ViewController],
                                whenBusy: WhenBusy = .reject, title: String? = nil, pageCount: Int = 0,
                                reuse: Int = 3, template: PageTemplate = PageTemplate(),
                                split: SplitConfiguration = SplitConfiguration()) throws(EngineError)
        -> ContainerViewController
    {
        try controllers.createContainer(
            id: requested, kind: kind, items: items, whenBusy: whenBusy, title: title, pageCount: pageCount,
            reuse: reuse, template: template, split: split, in: self)
    }

    /// vc.destroy: a view controller that is nowhere (not in a container, not the root, not presented).
    public func destroyViewController(_ vc: ViewController) throws(EngineError) {
        try controllers.destroyViewController(vc, in: self)
    }

    /// scene.set_root: the root's view fills the window; it and its visible descendants appear (not animated).
    public func setRoot(_ vc: ViewController) throws(EngineError) { try controllers.setRoot(vc, in: self) }

    /// container.set_delegate: the delegate plugin and the rules, replacing the old ones.
    public func setDelegate(of container: ContainerViewController, plugin: String?, rules: [TransitionRule]) {
        container.delegatePlugin = plugin
        container.rules = rules
    }

    /// scene.resize: a layout pass. The window and the root fill the new size; every container's view controllers
    /// on screen fill their container (autoresizing), except views a running transition is animating. The size
    /// classes follow the size unless `traits` overrides them (docs/PROTOCOL.md "Size classes"); when they change,
    /// `scene.traits_changed` is reported and split views collapse or expand.
    ///
    /// A size transition (viewWillTransition(to:with:)): when the size changes, every view controller on screen gets
    /// `vc.view_will_transition_to_size` with its view's new size, parents first (the root's tree, then each
    /// presentation's), and presentation plugins `will_transition_to_size`; with `duration` > 0 the layout
    /// animates over it (ease in-out) and plugins' `pc.coordinator:alongside` animations run with it. -32002 while
    /// a transition or another size transition runs.
    public func resize(to newSize: Size, traits override: TraitOverride = TraitOverride(), duration: Double = 0)
        throws(EngineError)
    {
        if let busy = transitions.first(where: { !$0.isEnded }) {
            throw EngineError(.invalidState, "transition '\(busy.id)' is running: a size transition waits until it ends", id: busy.id)
        }
        if let end = sizeTransitionEnd, now < end {
            throw EngineError(.invalidState, "a size transition is running until \(Double(end) / 1e9) s")
        }
        let changed = newSize != size
        size = newSize
        let previous = traits
        traits = Traits.of(newSize, override: override)
        let bounds = Rect(x: 0, y: 0, w: newSize.w, h: newSize.h)
        if traits != previous { emit(.traitsChanged(traits, previous: previous)) }
        let layout = {
            self.set(self.window, frame: bounds)
            if let root = self.root {
                self.set(root.view, frame: bounds)
                self.controllers.layout(root, in: self)
            }
            self.adaptSplitViews()
            self.ledger.layoutPresentations(in: self)
        }
        if duration > 0 {
            sizeTransitionEnd = now + Int64(duration * 1e9)
            animate(AnimationOptions(duration: duration, timing: .curve(.easeInOut)), layout)
        } else {
            layout()
        }
        guard changed else { return }
        var order: [ViewController] = []
        func walk(_ vc: ViewController) {
            order.append(vc)
            for child in vc.visibleChildren { walk(child) }
        }
        if let root { walk(root) }
        for record in ledger.presentations { walk(record.presented) }
        for vc in order {
            let b = vc.view.model.bounds
            emit(.viewWillTransitionToSize(vc: vc.id, size: Size(w: b.w, h: b.h), duration: duration))
        }
        for record in ledger.presentations {
            guard let controller = record.controller else { continue }
            do {
                try controller.willTransition(record, to: newSize, duration: duration)
            } catch {
                warnRaised(controller.name, "will_transition_to_size", error.message)
            }
        }
    }

    // MARK: Containment events

    // MARK: Appearance (begin/endAppearanceTransition, forwarded to visible children)

}
