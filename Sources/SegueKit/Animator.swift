/// A fault raised by third-party animator code (a Lua error, a budget or memory stop).
public struct AnimatorFault: Error, Sendable, CustomStringConvertible {
    public let message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// UIViewControllerAnimatedTransitioning.
public protocol Animator: AnyObject {
    /// The name the animator is known by (`default-slide` for the built-in one).
    var name: String { get }
    /// transitionDuration(using:), in seconds.
    func transitionDuration(using context: TransitionContext) throws(AnimatorFault) -> Double
    /// animateTransition(using:): must lead to exactly one `context.completeTransition(_:)`.
    func animateTransition(using context: TransitionContext) throws(AnimatorFault)
    /// animationEnded(_:).
    func animationEnded(_ completed: Bool, context: TransitionContext) throws(AnimatorFault)
    /// True when the animator offers interruptibleAnimator(using:).
    var offersInterruptibleAnimator: Bool { get }
    /// True when the animator has animateTransition of its own (else its interruptible animator is started).
    var hasAnimateTransition: Bool { get }
    /// interruptibleAnimator(using:): called once per transition; a fault when the answer is no property animator.
    func interruptibleAnimator(using context: TransitionContext) throws(AnimatorFault) -> PropertyAnimator
}

extension Animator {
    public var offersInterruptibleAnimator: Bool { false }
    public var hasAnimateTransition: Bool { true }
    public func interruptibleAnimator(using context: TransitionContext) throws(AnimatorFault) -> PropertyAnimator {
        throw AnimatorFault("the animator has no interruptible_animator")
    }
}

/// Finds animators by name for a scene (the Lua plugin host implements this).
public protocol AnimatorProvider: AnyObject {
    /// The animator named `name` for `scene`, or nil when no animator has that name.
    func animator(named name: String, for scene: Scene) throws(EngineError) -> (any Animator)?
    /// Asks the delegate plugin `delegate` for an animator name (`animator_for(op)`); nil when it has none.
    func delegateAnimator(_ delegate: String, operation: TransitionOperation, for scene: Scene) -> Result<String?, AnimatorFault>
    /// The interaction plugin named `name` for `scene`, or nil when none has that name.
    func interaction(named name: String, for scene: Scene) throws(EngineError) -> (any InteractionController)?
    /// The presentation plugin named `name` for `scene`, or nil when none has that name.
    func presentation(named name: String, for scene: Scene) throws(EngineError) -> (any PresentationController)?
    /// Asks the delegate plugin for an interaction plugin name (`interaction_for(op, animator)`).
    func delegateInteraction(_ delegate: String, operation: TransitionOperation, animator: String, for scene: Scene)
        -> Result<String?, AnimatorFault>
}

extension AnimatorProvider {
    public func delegateAnimator(_ delegate: String, operation: TransitionOperation, for scene: Scene)
        -> Result<String?, AnimatorFault>
    {
        .failure(AnimatorFault("no delegate plugin named '\(delegate)'"))
    }
}

/// A `gesture.pan` sample (docs/PLUGIN_API.md's `g`).
public struct PanGesture: Sendable {
    /// UIGestureRecognizer.State, the four a pan sends.
    public enum Phase: String, Sendable, CaseIterable {
        case began, changed, ended, cancelled
    }

    public var phase: Phase
    public var translation: Point
    public var velocity: Point

    public init(phase: Phase, translation: Point, velocity: Point) {
        self.phase = phase
        self.translation = translation
        self.velocity = velocity
    }
}

/// UIViewControllerInteractiveTransitioning, percent driven: an interaction plugin fed with `gesture.pan`.
public protocol InteractionController: AnyObject {
    var name: String { get }
    /// `began(tr, g)`, `changed(tr, g)` or `ended(tr, g)` by the gesture's phase (`cancelled` goes to `ended`).
    func handle(_ gesture: PanGesture, transition: Transition) throws(AnimatorFault)
    /// `completion_speed(tr)`: nil when the plugin has none.
    func completionSpeed(_ transition: Transition) throws(AnimatorFault) -> Double?
    /// `completion_curve(tr)`: nil when the plugin has none.
    func completionCurve(_ transition: Transition) throws(AnimatorFault) -> CubicBezier?
    /// The transition ended: forget what was kept for it.
    func transitionEnded(_ transition: Transition)
    /// UIViewControllerInteractiveTransitioning.wantsInteractiveStart: false lets an interactive start run until
    /// the interaction pauses it.
    var wantsInteractiveStart: Bool { get }
    /// startInteractiveTransition(_:) of a fully custom interaction (`start(ctx)`); false when it has none.
    func startInteractiveTransition(_ transition: Transition, context: TransitionContext) throws(AnimatorFault) -> Bool
}

extension InteractionController {
    public var wantsInteractiveStart: Bool { true }
    public func startInteractiveTransition(_ transition: Transition, context: TransitionContext) throws(AnimatorFault)
        -> Bool
    { false }
}

extension AnimatorProvider {
    public func interaction(named name: String, for scene: Scene) throws(EngineError) -> (any InteractionController)? { nil }
    public func delegateInteraction(_ delegate: String, operation: TransitionOperation, animator: String, for scene: Scene)
        -> Result<String?, AnimatorFault>
    {
        .success(nil)
    }
}
