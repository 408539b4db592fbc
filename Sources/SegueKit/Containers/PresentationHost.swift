/// The internal host of one modal presentation's transitions (present and dismiss): its view is the transition
/// container view above the root. Not a kind anyone creates or names; the presentation's own steps are in
/// Scene+Modal.
final class PresentationHost: ContainerBehaviour {
    /// UIKit's default modalTransitionStyle, coverVertical, on its system curve.
    func builtInAnimator() -> any Animator { SystemTransitionAnimator(.coverVertical) }

    var kind: ContainerKind { .custom }

    func install(_ container: ContainerViewController, in scene: Scene) {}

    func accepts(_ kind: TransitionKind) -> Bool { kind == .present || kind == .dismiss }

    func selected(of container: ContainerViewController) -> ViewController? { nil }

    func visibleChildren(of container: ContainerViewController) -> [ViewController] { [] }

    func beginContainment(_ t: Transition, in scene: Scene) {}

    func beginAppearance(_ t: Transition, in scene: Scene, animated: Bool) { scene.ledger.modalWillBegin(t, animated: animated, in: scene) }

    func expectsToView(_ t: Transition) -> Bool { t.kind != .dismiss }

    func finish(_ t: Transition, in scene: Scene, animated: Bool) { scene.ledger.modalFinish(t, animated: animated, in: scene) }

    func undoViews(_ t: Transition, in scene: Scene) {}  // the presentation's views are the plugin's and the host's

    func undoContainment(_ t: Transition, in scene: Scene, animated: Bool) { scene.ledger.modalUndo(t, animated: animated, in: scene) }
}
