extension ControllerTree {
    /// vc.create: a view controller with a view the size of the scene.
    func createViewController(id requested: String?, title: String?, color: Color?,
                                     animators: [String: String] = [:], in scene: Scene) throws(EngineError) -> ViewController
    {
        let vcID = try newVCID(requested, in: scene)
        let view = try scene.makeView(id: vcID + ".view", frame: Rect(x: 0, y: 0, w: scene.size.w, h: scene.size.h),
                                color: color ?? .white)
        let vc = ViewController(id: vcID, title: title, view: view)
        vc.preferredAnimators = animators
        register(vc)
        return vc
    }

    /// container.create. The kind's behaviour places the items (docs/PROTOCOL.md `container.create`): `custom`
    /// selects the first, `tab` adopts them all and shows the first, `navigation` takes them as the stack,
    /// `paging` makes page 0 from its template, `split` takes them as its columns.
    func createContainer(id requested: String?, kind: ContainerKind, items: [ViewController],
                                whenBusy: WhenBusy = .reject, title: String? = nil, pageCount: Int = 0,
                                reuse: Int = 3, template: PageTemplate = PageTemplate(),
                                split: SplitConfiguration = SplitConfiguration(), in scene: Scene) throws(EngineError)
        -> ContainerViewController
    {
        var seen = Set<String>()
        for item in items {
            guard seen.insert(item.id).inserted else {
                throw .invalidParams("children", "'\(item.id)' appears twice")
            }
            guard item.parent == nil, item !== scene.root, item.containerHolds == 0 else {
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
        let vcID = try newVCID(requested, in: scene)
        let view = try scene.makeView(id: vcID + ".view", frame: Rect(x: 0, y: 0, w: scene.size.w, h: scene.size.h), color: .white)
        let container = ContainerViewController(
            id: vcID, title: title, view: view, behaviour: behaviour, items: items, whenBusy: whenBusy)
        register(container)
        do {
            try behaviour.install(container, in: scene)
        } catch {
            // The container never was: what it held is free again (their `containerHolds`).
            container.items = []
            container.paging?.alive = []
            unregister(vcID)
            scene.destroyView(view)
            throw error
        }
        return container
    }

    /// Makes every one of `items` a child (will_move first, then did_move), `items[shown]`'s view on screen.
    func adoptAll(_ items: [ViewController], of container: ContainerViewController, shown: Int, in scene: Scene) {
        for item in items { willMove(item, to: container, in: scene) }
        for item in items {
            container.children.append(item)
            item.parent = container
        }
        if items.indices.contains(shown) {
            let view = items[shown].view
            scene.addSubview(view, to: container.view)
            scene.set(view, frame: container.view.model.bounds)
            container.selectedIndex = shown
        }
        for item in items { didMove(item, to: container, in: scene) }
    }

    /// Makes `child` the container's child and selection without a transition (addChild, view in place,
    /// appearance when the container is on screen, didMove).
    func addSelectedChild(_ child: ViewController, of container: ContainerViewController, index: Int, in scene: Scene) {
        willMove(child, to: container, in: scene)
        container.children.append(child)
        child.parent = container
        scene.addSubview(child.view, to: container.view)
        scene.set(child.view, frame: container.view.model.bounds)
        container.selectedIndex = index
        if container.isVisible {
            beginAppearance(child, appearing: true, animated: false, in: scene)
            endAppearance(child, in: scene)
        }
        didMove(child, to: container, in: scene)
    }

    /// Takes `vcs` out of `container.children` in one pass (one `removeAll` per view controller was quadratic).
    func removeChildren(_ vcs: [ViewController], of container: ContainerViewController, in scene: Scene) {
        guard !vcs.isEmpty else { return }
        let gone = Set(vcs.map(ObjectIdentifier.init))
        container.children.removeAll { gone.contains(ObjectIdentifier($0)) }
    }

    /// True when some container holds `vc` as an item or keeps it alive (a paging container's page): its
    /// `containerHolds`, kept by the containers' lists, so one read whatever the number of containers.
    func isItemOfAnyContainer(_ vc: ViewController, in scene: Scene) -> Bool { vc.containerHolds > 0 }

    /// vc.destroy: a view controller that is nowhere (not in a container, not the root, not presented).
    func destroyViewController(_ vc: ViewController, in scene: Scene) throws(EngineError) {
        guard vc.parent == nil, vc !== scene.root, !isItemOfAnyContainer(vc, in: scene) else {
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
        unregister(vc.id)
        scene.destroyView(vc.view)
    }

    func layout(_ vc: ViewController, in scene: Scene) {
        if let container = vc as? ContainerViewController {
            for child in container.children where child.view.superview === container.view {
                if container.activeTransition == nil {
                    scene.set(child.view, frame: container.behaviour.frame(of: child, in: container))
                }
                layout(child, in: scene)
            }
        }
    }

    func willMove(_ vc: ViewController, to parent: ViewController?, in scene: Scene) {
        scene.emit(.vcWillMoveToParent, .willMoveToParent(vc: vc.id, parent: parent?.id))
    }

    func didMove(_ vc: ViewController, to parent: ViewController?, in scene: Scene) {
        scene.emit(.vcDidMoveToParent, .didMoveToParent(vc: vc.id, parent: parent?.id))
    }

    /// view_will_appear / view_will_disappear for `vc` and its visible descendants (parents first).
    func beginAppearance(_ vc: ViewController, appearing: Bool, animated: Bool, in scene: Scene) {
        let target: Appearance = appearing ? .appearing : .disappearing
        guard vc.appearance != target else { return }
        vc.appearance = target
        if appearing {
            scene.emit(.vcViewWillAppear, .viewWillAppear(vc: vc.id, animated: animated))
        } else {
            scene.emit(.vcViewWillDisappear, .viewWillDisappear(vc: vc.id, animated: animated))
        }
        for child in vc.visibleChildren { beginAppearance(child, appearing: appearing, animated: animated, in: scene) }
    }

    /// view_did_appear / view_did_disappear, completing what `beginAppearance` started.
    func endAppearance(_ vc: ViewController, animated: Bool = false, in scene: Scene) {
        switch vc.appearance {
        case .appearing:
            vc.appearance = .appeared
            scene.emit(.vcViewDidAppear, .viewDidAppear(vc: vc.id, animated: animated))
        case .disappearing:
            vc.appearance = .disappeared
            scene.emit(.vcViewDidDisappear, .viewDidDisappear(vc: vc.id, animated: animated))
        case .appeared, .disappeared:
            return
        }
        for child in vc.visibleChildren { endAppearance(child, animated: animated, in: scene) }
    }
}

extension ControllerTree {
    /// Reversed appearance of a cancelled transition: the to-side disappears, then the from-side appears (each
    /// only if it had begun to change).
    func reverseAppearance(_ from: ViewController, _ to: ViewController, animated: Bool, in scene: Scene) {
        if to.appearance == .appearing {
            beginAppearance(to, appearing: false, animated: animated, in: scene)
            endAppearance(to, animated: animated, in: scene)
        }
        if from.appearance == .disappearing {
            beginAppearance(from, appearing: true, animated: animated, in: scene)
            endAppearance(from, animated: animated, in: scene)
        }
    }

    /// A view controller that is about to join a container must not be anywhere else.
    func requireFree(_ vc: ViewController, param: String, in scene: Scene) throws(EngineError) {
        guard vc.parent == nil, vc !== scene.root, !isItemOfAnyContainer(vc, in: scene), vc.presentation == nil, vc.presentedViewController == nil
        else {
            throw .invalidParams(param, "'\(vc.id)' already has a parent, is in a container, is presented or is the root")
        }
    }
}
