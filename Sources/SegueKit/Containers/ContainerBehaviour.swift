/// What makes a container the kind it is — UIKit's container view controllers, one type each: which transitions
/// it accepts, the containment and appearance steps of each, the frames of its children and which of them are on
/// screen. `Scene` starts every transition through one pipeline (`Scene.startTransition`, admit → resolve the
/// animator and the interaction → begin) and asks the container's behaviour at each step.
///
/// A new container kind is one type conforming to this, in a file of its own in this folder, with its requests
/// (an `extension Scene` in the same file), plus its protocol handlers in SegueDaemon (docs/DESIGN.md §1
/// "Container kinds").
protocol ContainerBehaviour: AnyObject {
    var kind: ContainerKind { get }
    /// Places the container's first children (container.create): containment, and appearance when on screen.
    func install(_ container: ContainerViewController, in scene: Scene) throws(EngineError)
    /// Whether a request of `kind` may start a transition on the container.
    func accepts(_ kind: TransitionKind) -> Bool
    /// The view controller on screen: the selected one, the top of the stack, the current page's.
    func selected(of container: ContainerViewController) -> ViewController?
    /// The children whose views are on screen when the container's is (appearance is forwarded to them).
    func visibleChildren(of container: ContainerViewController) -> [ViewController]
    /// View controllers the container keeps besides `items` (a paging container's reusable ones): they cannot join
    /// another container.
    func held(by container: ContainerViewController) -> [ViewController]
    /// The frame a child's view has in the container when nothing animates (layout after a resize).
    func frame(of child: ViewController, in container: ContainerViewController) -> Rect
    /// The from/to initial and final frames the transition's context reports.
    func contextFrames(_ t: Transition, bounds: Rect) -> ContextFrames
    /// The animator used when no request, view controller, delegate or rule chose one.
    func builtInAnimator() -> any Animator
    /// The containment steps at the start of a transition (will-calls, new children), in docs/DESIGN.md §3's
    /// order for the kind.
    func beginContainment(_ t: Transition, in scene: Scene)
    /// The appearance calls at the start (view_will_appear/disappear).
    func beginAppearance(_ t: Transition, in scene: Scene, animated: Bool)
    /// Whether the to-view must be in the container view when the animator completes.
    func expectsToView(_ t: Transition) -> Bool
    /// A completed transition: views, containment, the did-calls.
    func finish(_ t: Transition, in scene: Scene, animated: Bool)
    /// A cancelled transition: the views as they were before it (before the appearance is reversed).
    func undoViews(_ t: Transition, in scene: Scene)
    /// A cancelled transition: the appearance reversed (what was appearing disappears, then what was disappearing
    /// appears).
    func reverseAppearance(_ t: Transition, in scene: Scene, animated: Bool)
    /// A cancelled transition: containment back to what it was, every will-call balanced (after the appearance
    /// is reversed).
    func undoContainment(_ t: Transition, in scene: Scene, animated: Bool)
}

/// The frames of UIViewControllerContextTransitioning's initialFrame/finalFrame for the from and to view
/// controllers.
struct ContextFrames {
    var fromInitial: Rect
    var fromFinal: Rect
    var toInitial: Rect
    var toFinal: Rect

    /// Seed 000's PrivateTransitionContext: from-initial = to-final = bounds; going right, the from-view leaves to
    /// the left and the to-view comes from the right (docs/DESIGN.md §1 "Custom-container frames").
    static func seeded(bounds: Rect, goingRight: Bool) -> ContextFrames {
        let travel = goingRight ? -bounds.w : bounds.w
        return ContextFrames(fromInitial: bounds, fromFinal: bounds.offsetBy(dx: travel, dy: 0),
                             toInitial: bounds.offsetBy(dx: -travel, dy: 0), toFinal: bounds)
    }

    /// UIKit's navigation and tab bar controllers: zero where the animator decides.
    static func unseeded(bounds: Rect) -> ContextFrames {
        ContextFrames(fromInitial: bounds, fromFinal: .zero, toInitial: .zero, toFinal: bounds)
    }
}

extension ContainerBehaviour {
    func held(by container: ContainerViewController) -> [ViewController] { [] }

    func frame(of child: ViewController, in container: ContainerViewController) -> Rect { container.view.model.bounds }

    func visibleChildren(of container: ContainerViewController) -> [ViewController] {
        guard let shown = selected(of: container) else { return [] }
        return [shown]
    }

    func contextFrames(_ t: Transition, bounds: Rect) -> ContextFrames { .unseeded(bounds: bounds) }

    func builtInAnimator() -> any Animator { DefaultSlideAnimator() }

    /// The from side disappears, the to side appears (when the container is on screen).
    func beginAppearance(_ t: Transition, in scene: Scene, animated: Bool) {
        guard t.container.isVisible else { return }
        scene.controllers.beginAppearance(t.from, appearing: false, animated: animated, in: scene)
        scene.controllers.beginAppearance(t.to, appearing: true, animated: animated, in: scene)
    }

    func expectsToView(_ t: Transition) -> Bool { true }

    func reverseAppearance(_ t: Transition, in scene: Scene, animated: Bool) {
        scene.controllers.reverseAppearance(t.from, t.to, animated: animated, in: scene)
    }

    /// The to-view leaves and the from-view is back in the container view.
    func undoViews(_ t: Transition, in scene: Scene) {
        guard let context = t.context else { return }
        scene.removeFromSuperview(t.to.view)
        if t.from.view.superview !== context.containerView { scene.addSubview(t.from.view, to: context.containerView) }
    }
}
