/// The built-in animator of a split's transitions: 0.35 s ease-in-out. A column change cross-fades the new view
/// controller in over the old one; a display-mode change moves every column to its new frame, the columns coming
/// in from off the left edge and the ones going out back to it.
final class SplitAnimator: Animator {
    static let name = "default-split"
    let split: SplitContainer

    init(split: SplitContainer) { self.split = split }

    var name: String { SplitAnimator.name }

    func transitionDuration(using context: TransitionContext) -> Double { SplitContainer.duration }

    func animateTransition(using context: TransitionContext) {
        let scene = context.scene
        let container = context.containerView
        let bounds = container.model.bounds
        let split = self.split
        var changes: () -> Void = {}
        var faded: View?
        switch context.transition.change.split {
        case .column(let column, _, _)?:
            guard split.visibleColumns(split.displayMode).contains(column) else { break }
            let to = context.toViewController.view
            let old = context.fromViewController.view
            faded = old
            if let index = container.subviews.firstIndex(where: { $0 === old }) {
                scene.insertSubview(to, into: container, at: index + 1)
            } else {
                scene.addSubview(to, to: container)
            }
            scene.set(to, frame: context.finalFrame(for: context.toViewController))
            scene.set(to, alpha: 0)
            changes = {
                scene.set(to, alpha: 1)
                scene.set(old, alpha: 0)
            }
        case .displayMode(let old, let new)?:
            changes = {
                for column in SplitColumn.allCases {
                    guard let vc = split.viewController(of: column), vc.view.superview === container else { continue }
                    let target = split.frame(of: column, mode: new, bounds: bounds)
                        ?? split.frame(of: column, mode: old, bounds: bounds).map(split.offscreen)
                    if let target { scene.set(vc.view, frame: target) }
                }
            }
        case nil:
            break
        }
        // A block that animates nothing (a hidden column) completes at the next tick.
        scene.animate(AnimationOptions(duration: SplitContainer.duration, timing: .curve(.easeInOut)), changes) {
            [anchor = scene.anchor] _ in
            guard let scene = anchor.object else { return }
            if let faded, faded.isAlive { scene.set(faded, alpha: 1) }
            context.completeTransition(!context.transitionWasCancelled)
        }
    }

    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}
