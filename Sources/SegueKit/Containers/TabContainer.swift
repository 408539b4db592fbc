/// UITabBarController (`kind: "tab"`): every item is a child for good; only the selected one's view is on screen,
/// so a `container.select` has appearance calls and no containment ones.
final class TabContainer: CustomContainer {
    override var kind: ContainerKind { .tab }

    override func contextFrames(_ t: Transition, bounds: Rect) -> ContextFrames { .unseeded(bounds: bounds) }

    /// Every item becomes a child; the first is selected and on screen.
    override func install(_ container: ContainerViewController, in scene: Scene) throws(EngineError) {
        scene.controllers.adoptAll(container.items, of: container, shown: 0, in: scene)
    }

    override func beginContainment(_ t: Transition, in scene: Scene) {}  // the children stay children

    override func finish(_ t: Transition, in scene: Scene, animated: Bool) {
        scene.removeFromSuperview(t.from.view)
        t.container.selectedIndex = t.toIndex
        scene.controllers.endAppearance(t.from, animated: animated, in: scene)
        scene.controllers.endAppearance(t.to, animated: animated, in: scene)
    }

    override func undoContainment(_ t: Transition, in scene: Scene, animated: Bool) {}
}
