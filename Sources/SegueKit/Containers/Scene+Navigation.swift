extension Scene {
    /// nav.push: `vc` goes on top of the stack.
    public func push(_ nav: ContainerViewController, _ vc: ViewController, animated: Bool = true, interactive: Interactivity = .none,
                     animator requested: String? = nil, whenBusy: WhenBusy? = nil,
                     id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        try requireNavigation(nav)
        guard !nav.items.contains(where: { $0 === vc }) else {
            throw .invalidParams("vc", "'\(vc.id)' is already on the stack of '\(nav.id)'")
        }
        try controllers.requireFree(vc, param: "vc", in: self)
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try startTransition(on: nav, kind: .push, request, makeRetry: { { [unowned self] r throws(EngineError) in
            try self.push(nav, vc, animated: r.animated, interactive: r.interactive, animator: r.animator,
                          whenBusy: r.whenBusy, id: r.id)
        } }) { () throws(EngineError) -> TransitionPlan? in
            guard let from = nav.items.last else {
                try setStack(nav, [vc], animated: false)
                return nil
            }
            return TransitionPlan(op: TransitionOperation(
                kind: .push, container: nav, from: from, to: vc, fromIndex: nav.items.count - 1,
                toIndex: nav.items.count, direction: .forward))
        }
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
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try startTransition(on: nav, kind: .pop, request, makeRetry: { { [unowned self] r throws(EngineError) in
            try self.pop(nav, toRoot: toRoot, animated: r.animated, interactive: r.interactive, animator: r.animator,
                         whenBusy: r.whenBusy, id: r.id)
        } }) { () throws(EngineError) -> TransitionPlan? in try popPlan(nav, toRoot: toRoot) }
    }

    /// What a pop does once it runs: the top leaves for the item under it (or the root).
    func popPlan(_ nav: ContainerViewController, toRoot: Bool) throws(EngineError) -> TransitionPlan {
        guard nav.items.count > 1, let from = nav.items.last else {
            throw EngineError(.invalidState, "the stack of '\(nav.id)' holds only its root: there is nothing to pop", id: nav.id)
        }
        let toIndex = toRoot ? 0 : nav.items.count - 2
        return TransitionPlan(
            op: TransitionOperation(kind: .pop, container: nav, from: from, to: nav.items[toIndex],
                                    fromIndex: nav.items.count - 1, toIndex: toIndex, direction: .backward),
            leaving: Array(nav.items[(toIndex + 1)..<(nav.items.count - 1)].reversed()),
            newStack: Array(nav.items[0...toIndex]))
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
        for vc in vcs {
            guard seen.insert(ObjectIdentifier(vc)).inserted else { throw .invalidParams("vcs", "'\(vc.id)' appears twice") }
            if !onStack.contains(ObjectIdentifier(vc)) { try controllers.requireFree(vc, param: "vcs", in: self) }
        }
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try startTransition(on: nav, kind: .set, request, makeRetry: { { [unowned self] r throws(EngineError) in
            try self.setStack(nav, vcs, animated: r.animated, interactive: r.interactive, animator: r.animator,
                              whenBusy: r.whenBusy, id: r.id)
        } }) { () -> TransitionPlan? in
            let old = nav.items
            let leaving = old.filter { !seen.contains(ObjectIdentifier($0)) }
            let entering = vcs.filter { !onStack.contains(ObjectIdentifier($0)) }
            guard let from = old.last, let to = vcs.last, from !== to else {
                replaceStackInPlace(nav, vcs, leaving: leaving, entering: entering)
                return nil
            }
            let toWasOnStack = onStack.contains(ObjectIdentifier(to))
            return TransitionPlan(
                op: TransitionOperation(kind: .set, container: nav, from: from, to: to, fromIndex: old.count - 1,
                                        toIndex: vcs.count - 1, direction: toWasOnStack ? .backward : .forward),
                leaving: leaving, entering: entering, newStack: vcs)
        }
    }

    /// nav.set when the top stays (or the stack was empty): containment only, no transition.
    func replaceStackInPlace(_ nav: ContainerViewController, _ vcs: [ViewController], leaving: [ViewController],
                             entering: [ViewController])
    {
        let old = nav.items
        for vc in leaving { controllers.willMove(vc, to: nil, in: self) }
        for vc in entering { controllers.willMove(vc, to: nav, in: self) }
        let visible = nav.isVisible
        if visible, let from = old.last, from !== vcs.last { controllers.beginAppearance(from, appearing: false, animated: false, in: self) }
        nav.items = vcs
        controllers.removeChildren(leaving, of: nav, in: self)
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
            if visible { controllers.beginAppearance(top, appearing: true, animated: false, in: self) }
        }
        if visible {
            for vc in leaving { controllers.endAppearance(vc, in: self) }
            if let top = vcs.last { controllers.endAppearance(top, in: self) }
        }
        nav.selectedIndex = vcs.count - 1
        for vc in leaving { controllers.didMove(vc, to: nil, in: self) }
        for vc in entering { controllers.didMove(vc, to: nav, in: self) }
    }

    func requireNavigation(_ nav: ContainerViewController) throws(EngineError) {
        guard nav.containerKind == .navigation else {
            throw .invalidParams("container", "'\(nav.id)' is a \(nav.kind) container, not a navigation container")
        }
    }
}
