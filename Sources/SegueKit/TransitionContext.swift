/// UIViewControllerContextTransitioning for one transition.
public final class TransitionContext {
    public unowned let scene: Scene
    public unowned let transition: Transition
    /// The view in which the transition takes place.
    public let containerView: View
    public let fromViewController: ViewController
    public let toViewController: ViewController
    public let isAnimated: Bool
    public internal(set) var isInteractive = false
    public internal(set) var transitionWasCancelled = false
    /// The value the animator's `transitionDuration` returned.
    public internal(set) var duration: Double = 0
    var fromInitial: Rect, fromFinal: Rect, toInitial: Rect, toFinal: Rect
    /// Keys whose view the animator must not touch (the presenting view of a custom presentation).
    var withheldViews: Set<String> = []
    /// The modal presentation style, for present and dismiss.
    public internal(set) var presentationStyle: PresentationStyle?

    init(scene: Scene, transition: Transition, containerView: View, from: ViewController, to: ViewController,
         animated: Bool, frames: ContextFrames)
    {
        self.scene = scene
        self.transition = transition
        self.containerView = containerView
        self.fromViewController = from
        self.toViewController = to
        self.isAnimated = animated
        fromInitial = frames.fromInitial
        fromFinal = frames.fromFinal
        toInitial = frames.toInitial
        toFinal = frames.toFinal
    }

    public var kind: TransitionKind { transition.kind }
    public var fromIndex: Int? { transition.fromIndex }
    public var toIndex: Int? { transition.toIndex }
    public var direction: TransitionDirection? { transition.direction }

    /// viewControllerForKey: "from" or "to".
    public func viewController(forKey key: String) -> ViewController? {
        switch key {
        case "from": fromViewController
        case "to": toViewController
        default: nil
        }
    }

    /// viewForKey: "from" or "to".
    public func view(forKey key: String) -> View? {
        withheldViews.contains(key) ? nil : viewController(forKey: key)?.view
    }

    public func initialFrame(for vc: ViewController) -> Rect {
        if vc === fromViewController { return fromInitial }
        if vc === toViewController { return toInitial }
        return .zero
    }

    public func finalFrame(for vc: ViewController) -> Rect {
        if vc === fromViewController { return fromFinal }
        if vc === toViewController { return toFinal }
        return .zero
    }

    /// completeTransition(_:). A second call is ignored with a `plugin.warning`.
    public func completeTransition(_ didComplete: Bool) {
        scene.ledger.completeTransition(transition, didComplete: didComplete, forced: false, in: scene)
    }
}
