/// UINavigationController (`kind: "navigation"`): `items` is the stack, root first, every item a child; the top is
/// on screen. Requests: `nav.push`, `nav.pop`, `nav.pop_to_root`, `nav.set`.
final class NavigationContainer: ContainerBehaviour {
    var kind: ContainerKind { .navigation }

    /// UIKit's push and pop slide on its system curve (`SystemTransitionAnimator`'s `navigation-slide`).
    func builtInAnimator() -> any Animator { SystemTransitionAnimator(.navigationSlide) }

    func accepts(_ kind: TransitionKind) -> Bool { kind == .push || kind == .pop || kind == .set }

    func selected(of container: ContainerViewController) -> ViewController? { container.items.last }

    /// The items are the stack: all children, the top on screen.
    func install(_ container: ContainerViewController, in scene: Scene) {
        scene.controllers.adoptAll(container.items, of: container, shown: container.items.count - 1, in: scene)
    }

    func beginContainment(_ t: Transition, in scene: Scene) {
        let container = t.container
        switch t.kind {
        case .push:
            scene.controllers.willMove(t.to, to: container, in: scene)
            container.items.append(t.to)
            container.children.append(t.to)
            t.to.parent = container
        case .pop:
            scene.controllers.willMove(t.from, to: nil, in: scene)
            for vc in t.leaving { scene.controllers.willMove(vc, to: nil, in: scene) }
            container.items = t.newStack
        case .set:
            for vc in t.leaving { scene.controllers.willMove(vc, to: nil, in: scene) }
            for vc in t.entering {
                scene.controllers.willMove(vc, to: container, in: scene)
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
            scene.controllers.endAppearance(from, animated: animated, in: scene)
            scene.controllers.endAppearance(to, animated: animated, in: scene)
            scene.controllers.didMove(to, to: container, in: scene)
        case .pop:
            scene.controllers.removeChildren([from] + t.leaving, of: container, in: scene)
            for vc in [from] + t.leaving { vc.parent = nil }
            container.selectedIndex = container.items.count - 1
            scene.controllers.endAppearance(from, animated: animated, in: scene)
            scene.controllers.endAppearance(to, animated: animated, in: scene)
            scene.controllers.didMove(from, to: nil, in: scene)
            for vc in t.leaving { scene.controllers.didMove(vc, to: nil, in: scene) }
        case .set:
            scene.controllers.removeChildren(t.leaving, of: container, in: scene)
            for vc in t.leaving {
                vc.parent = nil
                if vc.view.superview === container.view { scene.removeFromSuperview(vc.view) }
            }
            container.selectedIndex = container.items.count - 1
            scene.controllers.endAppearance(from, animated: animated, in: scene)
            scene.controllers.endAppearance(to, animated: animated, in: scene)
            for vc in t.leaving { scene.controllers.didMove(vc, to: nil, in: scene) }
            for vc in t.entering { scene.controllers.didMove(vc, to: container, in: scene) }
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
            scene.controllers.didMove(t.to, to: nil, in: scene)
        case .pop:
            container.items = t.oldStack
            scene.controllers.didMove(t.from, to: container, in: scene)
            for vc in t.leaving { scene.controllers.didMove(vc, to: container, in: scene) }
        case .set:
            container.items = t.oldStack
            scene.controllers.removeChildren(t.entering, of: container, in: scene)
            for vc in t.entering {
                vc.parent = nil
                scene.controllers.didMove(vc, to: nil, in: scene)
            }
            for vc in t.leaving { scene.controllers.didMove(vc, to: container, in: scene) }
        case .select, .present, .dismiss, .column, .displayMode:
            break
        }
    }
}
