extension Scene {
    func requireSplit(_ container: ContainerViewController) throws(EngineError) -> SplitContainer {
        guard let split = container.split else {
            throw .invalidParams("container", "'\(container.id)' is a \(container.kind) container, not a split container")
        }
        return split
    }

    func requireColumn(_ column: SplitColumn, of split: SplitContainer) throws(EngineError) {
        if column == .supplementary, split.style == .doubleColumn {
            throw .invalidParams("column", "a double_column split has no supplementary column")
        }
    }

    /// split.set_column (setViewController(_:for:)): `vc` takes the column's place. Expanded, a transition with a
    /// custom container's select order (appearance only when the column is on screen); collapsed, the secondary is
    /// pushed on the navigation stack and a sidebar is replaced in it (nav.set).
    public func setColumn(_ container: ContainerViewController, _ column: SplitColumn, to vc: ViewController,
                          animated: Bool = true, interactive: Interactivity = .none, animator requested: String? = nil,
                          whenBusy: WhenBusy? = nil, id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        let split = try requireSplit(container)
        try requireColumn(column, of: split)
        guard let current = split.viewController(of: column) else { return .nothing }
        if current === vc { return .nothing }
        try controllers.requireFree(vc, param: "vc", in: self)
        if let nav = split.collapsedNavigation {
            let start: TransitionStart
            if column == .secondary {
                start = try push(nav, vc, animated: animated, interactive: interactive, animator: requested,
                                 whenBusy: whenBusy, id: reserved)
            } else {
                let stack = nav.items.map { $0 === current ? vc : $0 }
                start = try setStack(nav, stack, animated: animated, interactive: interactive, animator: requested,
                                     whenBusy: whenBusy, id: reserved)
            }
            split.setColumn(column, vc, in: container)
            return start
        }
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try startTransition(on: container, kind: .column, request, makeRetry: { { [unowned self] r throws(EngineError) in
            try self.setColumn(container, column, to: vc, animated: r.animated, interactive: r.interactive,
                               animator: r.animator, whenBusy: r.whenBusy, id: r.id)
        } }) { () -> TransitionPlan? in
            TransitionPlan(
                op: TransitionOperation(kind: .column, container: container, from: current, to: vc, fromIndex: nil,
                                        toIndex: nil, direction: nil),
                split: .column(column, old: current, new: vc))
        }
    }

    /// split.set_display_mode (preferredDisplayMode): a transition to the mode it resolves to; nothing when that is
    /// the mode in effect; while collapsed, stored and applied on expand.
    public func setDisplayMode(_ container: ContainerViewController, _ mode: SplitDisplayMode, animated: Bool = true,
                               interactive: Interactivity = .none, animator requested: String? = nil,
                               whenBusy: WhenBusy? = nil, id reserved: String? = nil) throws(EngineError)
        -> TransitionStart
    {
        let split = try requireSplit(container)
        if mode.showsTwo, split.style == .doubleColumn {
            throw .invalidParams("display_mode", "'\(mode.rawValue)' needs style triple_column")
        }
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try changeDisplayMode(container, split, preferred: mode, request)
    }

    /// split.show_column / split.hide_column (show(_:), hide(_:)): the display mode that shows or hides the column
    /// (SplitContainer.mode(showing:)); the secondary cannot be hidden.
    public func showColumn(_ container: ContainerViewController, _ column: SplitColumn, show: Bool,
                           animated: Bool = true, interactive: Interactivity = .none, animator requested: String? = nil,
                           whenBusy: WhenBusy? = nil, id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        let split = try requireSplit(container)
        try requireColumn(column, of: split)
        if column == .secondary, !show {
            throw .invalidParams("column", "the secondary column is always shown: hide a sidebar instead")
        }
        let base = split.isCollapsed ? split.resolve(split.preferredDisplayMode, in: size) : split.displayMode
        guard let mode = split.mode(showing: column, show, from: base) else { return .nothing }
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try changeDisplayMode(container, split, preferred: mode, request)
    }

    func changeDisplayMode(_ container: ContainerViewController, _ split: SplitContainer, preferred: SplitDisplayMode,
                           _ request: TransitionRequest) throws(EngineError) -> TransitionStart
    {
        if split.isCollapsed {
            split.preferredDisplayMode = preferred
            return .nothing
        }
        return try startTransition(on: container, kind: .displayMode, request, makeRetry: { { [unowned self] r throws(EngineError) in
            try self.changeDisplayMode(container, split, preferred: preferred, r)
        } }) { () -> TransitionPlan? in
            split.preferredDisplayMode = preferred
            let old = split.displayMode
            let new = split.resolve(preferred, in: size)
            guard new != old else { return nil }
            let (hiding, showing) = split.changedColumns(old, new)
            return TransitionPlan(
                op: TransitionOperation(kind: .displayMode, container: container, from: hiding.first ?? split.secondary,
                                        to: showing.first ?? split.secondary, fromIndex: nil, toIndex: nil,
                                        direction: nil),
                split: .displayMode(from: old, to: new))
        }
    }

    // MARK: Collapse and expand (size classes)

    /// After a resize: split views collapse in a horizontally compact scene and expand in a regular one; an
    /// expanded split whose `automatic` mode now resolves differently takes the new mode (no transition, like the
    /// layout pass it is part of). In creation order.
    func adaptSplitViews() {
        for vc in allViewControllers {
            guard let container = vc as? ContainerViewController, let split = container.split else { continue }
            if traits.horizontal == .compact {
                if !split.isCollapsed { collapse(container, split) }
            } else if split.isCollapsed {
                expand(container, split)
            } else if container.activeTransition == nil {
                let mode = split.resolve(split.preferredDisplayMode, in: size)
                if mode != split.displayMode { applyDisplayMode(container, split, mode) }
            }
        }
    }

    /// The navigation container a split collapses into: `SPLITID.nav`, its stack the columns.
    func makeCollapsedNavigation(of container: ContainerViewController, split: SplitContainer) throws(EngineError)
        -> ContainerViewController
    {
        var id = "\(container.id).nav"
        var n = 2
        while controllers.viewControllersByID[id] != nil || view(id + ".view") != nil {
            id = "\(container.id).nav-\(n)"
            n += 1
        }
        let view = try makeView(id: id + ".view", frame: container.view.model.bounds, color: .white)
        let nav = ContainerViewController(id: id, title: nil, view: view, behaviour: NavigationContainer(),
                                          items: split.columns, whenBusy: container.whenBusy)
        controllers.register(nav)
        return nav
    }

    /// Collapse: the columns move into `SPLITID.nav` (primary at the root, the secondary on top). The sidebars that
    /// were on screen disappear; the secondary stays; the navigation container appears. Not animated.
    func collapse(_ container: ContainerViewController, _ split: SplitContainer) {
        if let running = container.activeTransition { finishNow(running) }
        guard !split.isCollapsed, let nav = try? makeCollapsedNavigation(of: container, split: split) else { return }
        let stack = split.columns
        let shown = split.visibleChildren(of: container)
        let visible = container.isVisible
        for vc in stack { controllers.willMove(vc, to: nav, in: self) }
        controllers.willMove(nav, to: container, in: self)
        if visible {
            for vc in shown where vc !== split.secondary { controllers.beginAppearance(vc, appearing: false, animated: false, in: self) }
            nav.appearance = .appearing
            emit(.viewWillAppear(vc: nav.id, animated: false))
        }
        for vc in shown { removeFromSuperview(vc.view) }
        container.children = [nav]
        nav.parent = container
        nav.children = stack
        for vc in stack { vc.parent = nav }
        nav.selectedIndex = stack.count - 1
        addSubview(nav.view, to: container.view)
        set(nav.view, frame: container.view.model.bounds)
        addSubview(split.secondary.view, to: nav.view)
        set(split.secondary.view, frame: nav.view.model.bounds)
        split.collapsedNavigation = nav
        if visible {
            for vc in shown where vc !== split.secondary { controllers.endAppearance(vc, in: self) }
            if split.secondary.appearance != .appeared {
                controllers.beginAppearance(split.secondary, appearing: true, animated: false, in: self)
                controllers.endAppearance(split.secondary, in: self)
            }
            nav.appearance = .appeared
            emit(.viewDidAppear(vc: nav.id, animated: false))
        }
        for vc in stack { controllers.didMove(vc, to: nav, in: self) }
        controllers.didMove(nav, to: container, in: self)
    }

    /// Expand: the columns come back from `SPLITID.nav` in the preferred display mode (a change made while
    /// collapsed applies now); view controllers pushed beyond the columns leave; the navigation container goes.
    func expand(_ container: ContainerViewController, _ split: SplitContainer) {
        guard let nav = split.collapsedNavigation else { return }
        if let running = nav.activeTransition { finishNow(running) }
        if let running = container.activeTransition { finishNow(running) }
        let mode = split.resolve(split.preferredDisplayMode, in: size)
        let columns = split.columns
        let stack = nav.items
        let extras = stack.filter { vc in !columns.contains { $0 === vc } }
        let top = stack.last
        let showing = split.visibleColumns(mode).compactMap(split.viewController(of:))
        let visible = container.isVisible
        for vc in columns { controllers.willMove(vc, to: container, in: self) }
        for vc in extras { controllers.willMove(vc, to: nil, in: self) }
        controllers.willMove(nav, to: nil, in: self)
        if visible {
            nav.appearance = .disappearing
            emit(.viewWillDisappear(vc: nav.id, animated: false))
            if let top, !showing.contains(where: { $0 === top }) { controllers.beginAppearance(top, appearing: false, animated: false, in: self) }
            for vc in showing { controllers.beginAppearance(vc, appearing: true, animated: false, in: self) }
        }
        for vc in stack where vc.view.superview === nav.view { removeFromSuperview(vc.view) }
        removeFromSuperview(nav.view)
        nav.items = []
        nav.children = []
        nav.selectedIndex = nil
        for vc in extras { vc.parent = nil }
        container.children = columns
        for vc in columns { vc.parent = container }
        split.collapsedNavigation = nil
        split.displayMode = mode
        let bounds = container.view.model.bounds
        for column in split.visibleColumns(mode) {
            guard let vc = split.viewController(of: column), let f = split.frame(of: column, mode: mode, bounds: bounds)
            else { continue }
            split.place(column, vc, frame: f, in: container, scene: self)
        }
        if visible {
            if let top, !showing.contains(where: { $0 === top }) { controllers.endAppearance(top, in: self) }
            for vc in showing { controllers.endAppearance(vc, in: self) }
            nav.appearance = .disappeared
            emit(.viewDidDisappear(vc: nav.id, animated: false))
        }
        for vc in columns { controllers.didMove(vc, to: container, in: self) }
        for vc in extras { controllers.didMove(vc, to: nil, in: self) }
        controllers.didMove(nav, to: nil, in: self)
        nav.parent = nil
        controllers.unregister(nav.id)
        destroyView(nav.view)
    }

    /// An expanded split takes `mode` at once (a layout pass: appearance not animated, no transition).
    func applyDisplayMode(_ container: ContainerViewController, _ split: SplitContainer, _ mode: SplitDisplayMode) {
        let (hiding, showing) = split.changedColumns(split.displayMode, mode)
        let visible = container.isVisible
        if visible {
            for vc in hiding { controllers.beginAppearance(vc, appearing: false, animated: false, in: self) }
            for vc in showing { controllers.beginAppearance(vc, appearing: true, animated: false, in: self) }
        }
        for vc in hiding { removeFromSuperview(vc.view) }
        split.displayMode = mode
        let bounds = container.view.model.bounds
        for column in split.visibleColumns(mode) {
            guard let vc = split.viewController(of: column), let f = split.frame(of: column, mode: mode, bounds: bounds)
            else { continue }
            if vc.view.superview !== container.view { split.place(column, vc, frame: f, in: container, scene: self) }
            set(vc.view, frame: f)
        }
        if visible {
            for vc in hiding { controllers.endAppearance(vc, in: self) }
            for vc in showing { controllers.endAppearance(vc, in: self) }
        }
    }
}
