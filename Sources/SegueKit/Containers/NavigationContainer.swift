/// UINavigationController (`kind: "navigation"`): `items` is the stack, root first, every item a child; the top is
/// on screen. Requests: `nav.push`, `nav.pop`, `nav.pop_to_root`, `nav.set`.
final class NavigationContainer: ContainerBehaviour {
    var kind: ContainerKind { .navigation }

    func accepts(_ kind: TransitionKind) -> Bool { kind == .push || kind == .pop || kind == .set }

    func selected(of container: ContainerViewController) -> ViewController? { container.items.last }

    /// The items are the stack: all children, the top on screen.
    func install(_ container: ContainerViewController, in scene: Scene) {
        scene.adoptAll(container.items, of: container, shown: container.items.count - 1)
    }

    func beginContainment(_ t: Transition, in scene: Scene) {
        let container = t.container
        switch t.kind {
        case .push:
            scene.willMove(t.to, to: container)
            container.items.append(t.to)
            container.children.append(t.to)
            t.to.parent = container
        case .pop:
            scene.willMove(t.from, to: nil)
            for vc in t.leaving { scene.willMove(vc, to: nil) }
            container.items = t.newStack
        case .set:
            for vc in t.leaving { scene.willMove(vc, to: nil) }
            for vc in t.entering {
                scene.willMove(vc, to: container)
                container.children.append(vc)
                vc.parent = container
            }
            container.items = t.newStack
        case .select, .present, .dismiss, .column, .displayMode:
            break  // not accepted (`accepts`)
        }
    }

    func finish(_ t: Transition, in scene: Scene, animated: Bool) {
        let container = t.container
        let from = t.from, to = t.to
        scene.removeFromSuperview(from.view)
        switch t.kind {
        case .push:
            container.selectedIndex = container.items.count - 1
            scene.endAppearance(from, animated: animated)
            scene.endAppearance(to, animated: animated)
            scene.didMove(to, to: container)
        case .pop:
            scene.removeChildren([from] + t.leaving, of: container)
            for vc in [from] + t.leaving { vc.parent = nil }
            container.selectedIndex = container.items.count - 1
            scene.endAppearance(from, animated: animated)
            scene.endAppearance(to, animated: animated)
            scene.didMove(from, to: nil)
            for vc in t.leaving { scene.didMove(vc, to: nil) }
        case .set:
            scene.removeChildren(t.leaving, of: container)
            for vc in t.leaving {
                vc.parent = nil
                if vc.view.superview === container.view { scene.removeFromSuperview(vc.view) }
            }
            container.selectedIndex = container.items.count - 1
            scene.endAppearance(from, animated: animated)
            scene.endAppearance(to, animated: animated)
            for vc in t.leaving { scene.didMove(vc, to: nil) }
            for vc in t.entering { scene.didMove(vc, to: container) }
        case .select, .present, .dismiss, .column, .displayMode:
            break
        }
    }

    func undoContainment(_ t: Transition, in scene: Scene, animated: Bool) {
        let container = t.container
        switch t.kind {
        case .push:
            container.items = t.oldStack
            container.children.removeAll { $0 === t.to }
            t.to.parent = nil
            scene.didMove(t.to, to: nil)
        case .pop:
            container.items = t.oldStack
            scene.didMove(t.from, to: container)
            for vc in t.leaving { scene.didMove(vc, to: container) }
        case .set:
            container.items = t.oldStack
            scene.removeChildren(t.entering, of: container)
            for vc in t.entering {
                vc.parent = nil
                scene.didMove(vc, to: nil)
            }
            for vc in t.leaving { scene.didMove(vc, to: container) }
        case .select, .present, .dismiss, .column, .displayMode:
            break
        }
    }
}
