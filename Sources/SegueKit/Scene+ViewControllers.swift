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

    public func viewController(_ id: String) -> ViewController? { viewControllersByID[id] }

    public func container(_ id: String) -> ContainerViewController? {
        viewControllersByID[id] as? ContainerViewController
    }

    public var allViewControllers: [ViewController] {
        viewControllersByID.values.sorted { $0.view.serial < $1.view.serial }
    }

    func newVCID(_ requested: String?) throws(EngineError) -> String {
        if let requested {
            guard Scene.isValidID(requested) else {
                throw .invalidParams("id", "id must be 1-64 letters, digits, '-', '_' or '.'")
            }
            guard viewControllersByID[requested] == nil, tree.viewsByID[requested + ".view"] == nil else {
                throw .invalidParams("id", "a view controller with id '\(requested)' already exists in scene '\(id)'")
            }
            return requested
        }
        while viewControllersByID["vc-\(nextVCNumber)"] != nil { nextVCNumber += 1 }
        defer { nextVCNumber += 1 }
        return "vc-\(nextVCNumber)"
    }

    /// vc.create: a view controller with a view the size of the scene.
    public func createViewController(id requested: String?, title: String?, color: Color?,
                                     animators: [String: String] = [:]) throws(EngineError) -> ViewController
    {
        let vcID = try newVCID(requested)
        let view = try makeView(id: vcID + ".view", frame: Rect(x: 0, y: 0, w: size.w, h: size.h),
                                color: color ?? .white)
        let vc = ViewController(id: vcID, title: title, view: view)
        vc.preferredAnimators = animators
        viewControllersByID[vcID] = vc
        return vc
    }

    /// container.create. The kind's behaviour places the items (docs/PROTOCOL.md `container.create`): `custom`
    /// selects the first, `tab` adopts them all and shows the first, `navigation` takes them as the stack,
    /// `paging` makes page 0 from its template, `split` takes them as its columns.
    public func createContainer(id requested: String?, kind: ContainerKind, items: [ViewController],
                                whenBusy: WhenBusy = .reject, title: String? = nil, pageCount: Int = 0,
                                reuse: Int = 3, template: PageTemplate = PageTemplate(),
                                split: SplitConfiguration = SplitConfiguration()) throws(EngineError)
        -> ContainerViewController
    {
        var seen = Set<String>()
        let held = itemsOfAnyContainer()
        for item in items {
            guard seen.insert(item.id).inserted else {
                throw .invalidParams("children", "'\(item.id)' appears twice")
            }
            guard item.parent == nil, item !== root, !held.contains(ObjectIdentifier(item)) else {
                throw .invalidParams("children", "'\(item.id)' already has a parent or is the root")
            }
        }
        let behaviour: any ContainerBehaviour
        switch kind {
        case .custom: behaviour = CustomContainer()
        case .tab: behaviour = TabContainer()
        case .navigation: behaviour = NavigationContainer()
        case .paging:
            guard items.isEmpty else { throw .invalidParams("children", "a paging container makes its own pages from 'template'") }
            behaviour = try PagingContainer(pageCount: pageCount, reuse: reuse, template: template)
        case .split:
            behaviour = try SplitContainer(split, columns: items)
        }
        let vcID = try newVCID(requested)
        let view = try makeView(id: vcID + ".view", frame: Rect(x: 0, y: 0, w: size.w, h: size.h), color: .white)
        let container = ContainerViewController(
            id: vcID, title: title, view: view, behaviour: behaviour, items: items, whenBusy: whenBusy)
        viewControllersByID[vcID] = container
        do {
            try behaviour.install(container, in: self)
        } catch {
            viewControllersByID[vcID] = nil
            destroyView(view)
            throw error
        }
        return container
    }

    /// Makes every one of `items` a child (will_move first, then did_move), `items[shown]`'s view on screen.
    func adoptAll(_ items: [ViewController], of container: ContainerViewController, shown: Int) {
        for item in items { willMove(item, to: container) }
        for item in items {
            container.children.append(item)
            item.parent = container
        }
        if items.indices.contains(shown) {
            let view = items[shown].view
            addSubview(view, to: container.view)
            set(view, frame: container.view.model.bounds)
            container.selectedIndex = shown
        }
        for item in items { didMove(item, to: container) }
    }

    /// Makes `child` the container's child and selection without a transition (addChild, view in place,
    /// appearance when the container is on screen, didMove).
    func addSelectedChild(_ child: ViewController, of container: ContainerViewController, index: Int) {
        willMove(child, to: container)
        container.children.append(child)
        child.parent = container
        addSubview(child.view, to: container.view)
        set(child.view, frame: container.view.model.bounds)
        container.selectedIndex = index
        if container.isVisible {
            beginAppearance(child, appearing: true, animated: false)
            endAppearance(child)
        }
        didMove(child, to: container)
    }

    /// Every view controller some container holds as an item or keeps alive, in one pass: for checking many at once
    /// (`isItemOfAnyContainer` for each of n children was n passes over every view controller).
    func itemsOfAnyContainer() -> Set<ObjectIdentifier> {
        var held = Set<ObjectIdentifier>()
        for case let c as ContainerViewController in viewControllersByID.values {
            for vc in c.items { held.insert(ObjectIdentifier(vc)) }
            for vc in c.behaviour.held(by: c) { held.insert(ObjectIdentifier(vc)) }
        }
        return held
    }

    /// Takes `vcs` out of `container.children` in one pass (one `removeAll` per view controller was quadratic).
    func removeChildren(_ vcs: [ViewController], of container: ContainerViewController) {
        guard !vcs.isEmpty else { return }
        let gone = Set(vcs.map(ObjectIdentifier.init))
        container.children.removeAll { gone.contains(ObjectIdentifier($0)) }
    }

    func isItemOfAnyContainer(_ vc: ViewController) -> Bool {
        viewControllersByID.values.contains { value in
            guard let c = value as? ContainerViewController else { return false }
            return c.items.contains { $0 === vc } || c.behaviour.held(by: c).contains { $0 === vc }
        }
    }

    /// scene.set_root: the root's view fills the window; it and its visible descendants appear (not animated).
    public func setRoot(_ vc: ViewController) throws(EngineError) {
        guard vc !== root else { return }
        guard vc.parent == nil, !isItemOfAnyContainer(vc) else {
            throw .invalidParams("vc", "'\(vc.id)' is inside a container and cannot be the root")
        }
        if let old = root {
            beginAppearance(old, appearing: false, animated: false)
            removeFromSuperview(old.view)
            endAppearance(old)
        }
        root = vc
        addSubview(vc.view, to: window)
        set(vc.view, frame: Rect(x: 0, y: 0, w: size.w, h: size.h))
        beginAppearance(vc, appearing: true, animated: false)
        endAppearance(vc)
    }

    /// container.set_delegate: the delegate plugin and the rules, replacing the old ones.
    public func setDelegate(of container: ContainerViewController, plugin: String?, rules: [TransitionRule]) {
        container.delegatePlugin = plugin
        container.rules = rules
    }

    /// vc.destroy: a view controller that is nowhere (not in a container, not the root, not presented).
    public func destroyViewController(_ vc: ViewController) throws(EngineError) {
        guard vc.parent == nil, vc !== root, !isItemOfAnyContainer(vc) else {
            throw EngineError(.invalidState, "'\(vc.id)' is in a container or is the root; remove it first", id: vc.id)
        }
        guard vc.presentation == nil, vc.presentedViewController == nil else {
            throw EngineError(.invalidState, "'\(vc.id)' is presented or presenting; dismiss it first", id: vc.id)
        }
        if let container = vc as? ContainerViewController {
            guard container.activeTransition == nil else {
                throw EngineError(.invalidState, "container '\(vc.id)' is running a transition", id: vc.id)
            }
            guard container.children.isEmpty, container.items.isEmpty, container.behaviour.held(by: container).isEmpty
            else {
                throw EngineError(.invalidState, "container '\(vc.id)' still has children", id: vc.id)
            }
        }
        viewControllersByID[vc.id] = nil
        destroyView(vc.view)
    }

    /// scene.resize: a layout pass. The window and the root fill the new size; every container's view controllers
    /// on screen fill their container (autoresizing), except views a running transition is animating. The size
    /// classes follow the size unless `traits` overrides them (docs/PROTOCOL.md "Size classes"); when they change,
    /// `scene.traits_changed` is reported and split views collapse or expand.
    public func resize(to newSize: Size, traits override: TraitOverride = TraitOverride()) {
        size = newSize
        let previous = traits
        traits = Traits.of(newSize, override: override)
        let bounds = Rect(x: 0, y: 0, w: newSize.w, h: newSize.h)
        set(window, frame: bounds)
        if traits != previous { emit(.traitsChanged(traits, previous: previous)) }
        if let root {
            set(root.view, frame: bounds)
            layout(root)
        }
        adaptSplitViews()
        ledger.layoutPresentations(in: self)
    }

    func layout(_ vc: ViewController) {
        if let container = vc as? ContainerViewController {
            for child in container.children where child.view.superview === container.view {
                if container.activeTransition == nil {
                    set(child.view, frame: container.behaviour.frame(of: child, in: container))
                }
                layout(child)
            }
        }
    }

    // MARK: Containment events

    func willMove(_ vc: ViewController, to parent: ViewController?) {
        emit(.willMoveToParent(vc: vc.id, parent: parent?.id))
    }

    func didMove(_ vc: ViewController, to parent: ViewController?) {
        emit(.didMoveToParent(vc: vc.id, parent: parent?.id))
    }

    // MARK: Appearance (begin/endAppearanceTransition, forwarded to visible children)

    /// view_will_appear / view_will_disappear for `vc` and its visible descendants (parents first).
    func beginAppearance(_ vc: ViewController, appearing: Bool, animated: Bool) {
        let target: Appearance = appearing ? .appearing : .disappearing
        guard vc.appearance != target else { return }
        vc.appearance = target
        emit(appearing ? .viewWillAppear(vc: vc.id, animated: animated) : .viewWillDisappear(vc: vc.id, animated: animated))
        for child in vc.visibleChildren { beginAppearance(child, appearing: appearing, animated: animated) }
    }

    /// view_did_appear / view_did_disappear, completing what `beginAppearance` started.
    func endAppearance(_ vc: ViewController, animated: Bool = false) {
        switch vc.appearance {
        case .appearing:
            vc.appearance = .appeared
            emit(.viewDidAppear(vc: vc.id, animated: animated))
        case .disappearing:
            vc.appearance = .disappeared
            emit(.viewDidDisappear(vc: vc.id, animated: animated))
        default:
            return
        }
        for child in vc.visibleChildren { endAppearance(child, animated: animated) }
    }
}
