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

/// A gesture sample from `gesture.pan`, `gesture.pinch` or `gesture.rotate` (docs/PLUGIN_API.md's `g`), with the
/// values UIKit's recognizers report: UIPanGestureRecognizer's translation and velocity (points, points per
/// second), UIPinchGestureRecognizer's scale and velocity (scale per second), UIRotationGestureRecognizer's rotation
/// and velocity (radians, radians per second), and `location(in:)` in the scene's window coordinates.
public struct PanGesture: Sendable {
    /// UIGestureRecognizer.State, the four a pan sends.
    public enum Phase: String, Sendable, CaseIterable {
        case began, changed, ended, cancelled
    }

    /// Which recognizer the sample comes from.
    public enum Kind: String, Sendable, CaseIterable {
        case pan, pinch, rotate
    }

    public var phase: Phase
    public var kind: Kind = .pan
    /// A pan's translation and velocity (zero for a pinch or a rotation).
    public var translation: Point
    public var velocity: Point
    /// A pinch's scale (> 0; 1 at began) — 1 for the other kinds.
    public var scale: Double = 1
    /// A rotation's angle in radians — 0 for the other kinds.
    public var rotation: Double = 0
    /// A pinch's or a rotation's velocity (scale per second, radians per second) — 0 for a pan.
    public var rate: Double = 0
    /// The gesture's location in the window, when the client gave one.
    public var location: Point?

    public init(phase: Phase, translation: Point, velocity: Point) {
        self.phase = phase
        self.translation = translation
        self.velocity = velocity
    }

    public init(phase: Phase, kind: Kind, translation: Point = Point(x: 0, y: 0), velocity: Point = Point(x: 0, y: 0),
                scale: Double = 1, rotation: Double = 0, rate: Double = 0, location: Point? = nil)
    {
        self.phase = phase
        self.kind = kind
        self.translation = translation
        self.velocity = velocity
        self.scale = scale
        self.rotation = rotation
        self.rate = rate
        self.location = location
    }
}

/// The operation an interaction plugin's `gesture_began(g, scene_info)` chose to start: a transition-starting
/// method and its parameters (segued's gesture-first interaction: the controller decides at the gesture's start,
/// as VCTransitionsLibrary's controllers do in their `UIGestureRecognizerStateBegan` branch).
public struct GestureOperation: Sendable {
    public var method: String
    public var params: InfoValue
    public init(method: String, params: InfoValue) {
        self.method = method
        self.params = params
    }
}

/// What `gesture_began` answered.
public enum GestureChoice: Sendable {
    /// nil: the plugin refuses the gesture.
    case refuse
    /// The plugin has no `gesture_began`.
    case unsupported
    case start(GestureOperation)
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
    /// `gesture_began(g, scene_info)`: the operation to start for a gesture that has no transition yet.
    func gestureBegan(_ gesture: PanGesture, sceneInfo: SceneInfo) throws(AnimatorFault) -> GestureChoice
    /// UIViewControllerInteractiveTransitioning.wantsInteractiveStart: false lets an interactive start run until
    /// the interaction pauses it.
    var wantsInteractiveStart: Bool { get }
    /// startInteractiveTransition(_:) of a fully custom interaction (`start(ctx)`); false when it has none.
    func startInteractiveTransition(_ transition: Transition, context: TransitionContext) throws(AnimatorFault) -> Bool
}

extension InteractionController {
    public func gestureBegan(_ gesture: PanGesture, sceneInfo: SceneInfo) throws(AnimatorFault) -> GestureChoice {
        .unsupported
    }
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
