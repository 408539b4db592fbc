/// UITabBarController (`kind: "tab"`): every item is a child for good; only the selected one's view is on screen,
/// so a `container.select` has appearance calls and no containment ones.
final class TabContainer: CustomContainer {
    override var kind: ContainerKind { .tab }

    override func contextFrames(_ t: Transition, bounds: Rect) -> ContextFrames { .unseeded(bounds: bounds) }

    /// Every item becomes a child; the first is selected and on screen.
    override func install(_ container: ContainerViewController, in scene: Scene) throws(EngineError) {
        scene.adoptAll(container.items, of: container, shown: 0)
    }

    override func beginContainment(_ t: Transition, in scene: Scene) {}  // the children stay children

    override func finish(_ t: Transition, in scene: Scene, animated: Bool) {
        scene.removeFromSuperview(t.from.view)
        t.container.selectedIndex = t.toIndex
        scene.endAppearance(t.from, animated: animated)
        scene.endAppearance(t.to, animated: animated)
    }

    override func undoContainment(_ t: Transition, in scene: Scene, animated: Bool) {}
}
