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
}

/// Finds animators by name for a scene (the Lua plugin host implements this).
public protocol AnimatorProvider: AnyObject {
    /// The animator named `name` for `scene`, or nil when no animator has that name.
    func animator(named name: String, for scene: Scene) throws(EngineError) -> (any Animator)?
    /// Asks the delegate plugin `delegate` for an animator name (`animator_for(op)`); nil when it has none.
    func delegateAnimator(_ delegate: String, operation: TransitionOperation, for scene: Scene) -> Result<String?, AnimatorFault>
}

extension AnimatorProvider {
    public func delegateAnimator(_ delegate: String, operation: TransitionOperation, for scene: Scene)
        -> Result<String?, AnimatorFault>
    {
        .failure(AnimatorFault("no delegate plugin named '\(delegate)'"))
    }
}
