/// Seed 000's ContainerViewController (`kind: "custom"`): `items` are the view controllers it switches between;
/// only the selected one is a child, added and removed as the selection changes (`container.select`).
public class CustomContainer: ContainerBehaviour {
    var kind: ContainerKind { .custom }

    func accepts(_ kind: TransitionKind) -> Bool { kind == .select }

    func selected(of container: ContainerViewController) -> ViewController? {
        guard let index = container.selectedIndex, index < container.items.count else { return nil }
        return container.items[index]
    }

    func held(by container: ContainerViewController) -> [ViewController] { [] }

    /// How many indexes `container.select` takes.
    func selectableCount(of container: ContainerViewController) -> Int { container.items.count }

    /// The view controller `container.select` shows at `index`.
    func viewController(at index: Int, of container: ContainerViewController, in scene: Scene) throws(EngineError)
        -> ViewController
    {
        container.items[index]
    }

    func contextFrames(_ t: Transition, bounds: Rect) -> ContextFrames {
        .seeded(bounds: bounds, goingRight: (t.toIndex ?? 0) > (t.fromIndex ?? 0))
    }

    /// The first item becomes the selected child (seed 000 adds only it).
    func install(_ container: ContainerViewController, in scene: Scene) throws(EngineError) {
        if !container.items.isEmpty { scene.controllers.addSelectedChild(container.items[0], of: container, index: 0, in: scene) }
    }

    /// A.will_move_to_parent(nil), B.will_move_to_parent(container); B becomes a child.
    func beginContainment(_ t: Transition, in scene: Scene) {
        let container = t.container
        scene.controllers.willMove(t.from, to: nil, in: scene)
        scene.controllers.willMove(t.to, to: container, in: scene)
        container.children.append(t.to)
        t.to.parent = container
    }

    func finish(_ t: Transition, in scene: Scene, animated: Bool) {
        let container = t.container
        scene.removeFromSuperview(t.from.view)
        container.children.removeAll { $0 === t.from }
        t.from.parent = nil
        container.selectedIndex = t.toIndex
        scene.controllers.endAppearance(t.from, animated: animated, in: scene)
        scene.controllers.endAppearance(t.to, animated: animated, in: scene)
        scene.controllers.didMove(t.from, to: nil, in: scene)
        scene.controllers.didMove(t.to, to: container, in: scene)
    }

    func undoContainment(_ t: Transition, in scene: Scene, animated: Bool) {
        let container = t.container
        container.children.removeAll { $0 === t.to }
        t.to.parent = nil
        scene.controllers.didMove(t.to, to: nil, in: scene)
        scene.controllers.didMove(t.from, to: container, in: scene)
    }
}
