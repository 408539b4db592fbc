/// The built-in default animator, seed 000's `PrivateAnimatedTransition`: a 1 s spring (damping 0.75, initial
/// velocity 0.5); the to-view comes in from one side at alpha 0 while the from-view slides out the other way and
/// fades; transforms are reset on completion.
public final class DefaultSlideAnimator: Animator {
    public static let name = "default-slide"
    static let padding = 16.0
    static let damping = 0.75
    static let initialVelocity = 0.5

    public init() {}

    public var name: String { DefaultSlideAnimator.name }

    public func transitionDuration(using context: TransitionContext) -> Double { 1 }

    public func animateTransition(using context: TransitionContext) {
        let scene = context.scene
        // viewForKey: a custom presentation's presenting view is not the animator's to touch.
        let from = context.view(forKey: "from")
        guard let to = context.view(forKey: "to") ?? (context.kind == .dismiss ? nil : context.toViewController.view) else {
            return dismissOnly(context, from: from)
        }
        let container = context.containerView
        // Seed: goingRight = initialFrame(to).x < finalFrame(to).x.
        let goingRight = context.initialFrame(for: context.toViewController).x
            < context.finalFrame(for: context.toViewController).x
        let distance = container.model.bounds.w + DefaultSlideAnimator.padding
        let travel = Transform3D.translation(goingRight ? distance : -distance, 0)
        let inverse = Transform3D.translation(goingRight ? -distance : distance, 0)

        scene.addSubview(to, to: container)
        scene.set(to, frame: context.finalFrame(for: context.toViewController))
        scene.set(to, alpha: 0)
        scene.set(to, transform: inverse)
        let duration = transitionDuration(using: context)
        let spring = Spring(
            dampingRatio: DefaultSlideAnimator.damping, initialVelocity: DefaultSlideAnimator.initialVelocity,
            duration: duration)
        let timing: Timing = spring.map { .spring($0) } ?? .curve(.easeInOut)
        scene.animate(AnimationOptions(duration: duration, timing: timing)) {
            if let from {
                scene.set(from, transform: travel)
                scene.set(from, alpha: 0)
            }
            scene.set(to, transform: .identity)
            scene.set(to, alpha: 1)
        } completion: { [anchor = scene.anchor] _ in
            guard let scene = anchor.object else { return }
            if let from, from.isAlive {
                scene.set(from, transform: .identity)
                scene.set(from, alpha: 1)
            }
            context.completeTransition(!context.transitionWasCancelled)
        }
    }

    /// A dismissal whose to-view is withheld (custom, overFullScreen): the presented view slides out and fades.
    func dismissOnly(_ context: TransitionContext, from: View?) {
        let scene = context.scene
        let duration = transitionDuration(using: context)
        let distance = context.containerView.model.bounds.w + DefaultSlideAnimator.padding
        let spring = Spring(
            dampingRatio: DefaultSlideAnimator.damping, initialVelocity: DefaultSlideAnimator.initialVelocity,
            duration: duration)
        scene.animate(AnimationOptions(duration: duration, timing: spring.map { .spring($0) } ?? .curve(.easeInOut))) {
            if let from {
                scene.set(from, transform: .translation(distance, 0))
                scene.set(from, alpha: 0)
            }
        } completion: { [anchor = scene.anchor] _ in
            guard let scene = anchor.object else { return }
            if let from, from.isAlive {
                scene.set(from, transform: .identity)
                scene.set(from, alpha: 1)
            }
            context.completeTransition(!context.transitionWasCancelled)
        }
    }

    public func animationEnded(_ completed: Bool, context: TransitionContext) {}
}
