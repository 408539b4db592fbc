/// iOS 18's zoom transition (`UIViewController.Transition.zoom(options:sourceViewProvider:)`): the destination's
/// `preferred_transition` names a source view (and optionally a rect within it).
public struct ZoomTransition: Sendable, Equatable {
    /// The id of the view the transition zooms from; looked up again at every transition, as Apple's
    /// `sourceViewProvider` is called again at dismissal.
    public var sourceView: String
    /// A rect in the source view's bounds coordinates (default: its bounds).
    public var sourceRect: Rect?

    public init(sourceView: String, sourceRect: Rect? = nil) {
        self.sourceView = sourceView
        self.sourceRect = sourceRect
    }
}

/// The built-in zoom animator (docs/PROTOCOL.md "preferred_transition"): present and push grow the destination's
/// view from the source's rect to its final frame; dismiss and pop shrink it back to the source, resolved again
/// at that moment. The source view is hidden while the transition runs and shown again at its end. When the
/// source is gone at dismissal the view fades out instead (segued's choice: UIKit falls back to a fade-like
/// animation when the provider returns nil). Timing: UIKit's system curve (`Timing.system`, 0.5 s).
public final class ZoomAnimator: Animator {
    public static let name = "zoom"
    let zoom: ZoomTransition
    /// An interactive dismissal or pop (ZoomDrag.swift): the gesture drives the view, and the source view hidden
    /// for it is shown again when the transition ends, however it ends.
    private var drag: ZoomDrag?
    private var hiddenSource: View?

    public init(_ zoom: ZoomTransition) { self.zoom = zoom }

    public var name: String { ZoomAnimator.name }

    public func transitionDuration(using context: TransitionContext) -> Double { Spring.systemDuration }

    /// The transform (about the view's centre) that maps `frame` onto `target`.
    public static func transform(from frame: Rect, to target: Rect) -> Transform3D {
        let sx = frame.w > 0 ? target.w / frame.w : 1
        let sy = frame.h > 0 ? target.h / frame.h : 1
        let t = target.mid, f = frame.mid
        return Transform3D(a: sx, b: 0, c: 0, d: sy, tx: t.x - f.x, ty: t.y - f.y)
    }

    /// The source's rect in the container view's coordinates, or nil when the source view is gone or off-window.
    func sourceRect(in context: TransitionContext) -> (View, Rect)? {
        let scene = context.scene
        guard let source = scene.view(zoom.sourceView), source.isAlive, scene.isInWindow(source) else { return nil }
        let r = scene.windowRect(of: source, rect: zoom.sourceRect)
        let c = scene.windowRect(of: context.containerView)
        return (source, r.offsetBy(dx: -c.x, dy: -c.y))
    }

    public func animateTransition(using context: TransitionContext) {
        let scene = context.scene
        let container = context.containerView
        let backward = context.kind == .dismiss || context.kind == .pop
        let options = AnimationOptions(duration: Spring.systemDuration, timing: .system)
        if context.kind == .pop, let to = context.view(forKey: "to") {
            // The view popped to comes in under the shrinking one (before the source is looked up: it may be in it).
            scene.set(to, frame: context.finalFrame(for: context.toViewController))
            scene.addSubview(to, to: container)
            scene.addSubview(context.view(forKey: "from") ?? context.fromViewController.view, to: container)
        }
        let resolved = sourceRect(in: context)
        let source = resolved?.0
        if let source { scene.set(source, hidden: true) }
        if backward, context.isInteractive, context.transition.interaction?.wantsInteractiveStart ?? true {
            // Interactive: no animation yet; the gesture or transition.update poses the view, a finish or cancel
            // releases it (TransitionLedger+ZoomDrag.swift).
            let from = context.view(forKey: "from") ?? context.fromViewController.view
            let origin = scene.windowRect(of: container)
            let drag = ZoomDrag(view: from, frame: context.initialFrame(for: context.fromViewController),
                                origin: Point(x: origin.x, y: origin.y), height: container.model.bounds.h)
            self.drag = drag
            hiddenSource = source
            context.transition.interactive.zoomDrag = drag
            return
        }
        if !backward {
            let to = context.view(forKey: "to") ?? context.toViewController.view
            let final = context.finalFrame(for: context.toViewController)
            scene.addSubview(to, to: container)
            scene.set(to, frame: final)
            if let rect = resolved?.1 {
                scene.set(to, transform: ZoomAnimator.transform(from: final, to: rect))
            } else {
                scene.set(to, alpha: 0)
            }
            scene.animate(options) {
                scene.set(to, transform: .identity)
                scene.set(to, alpha: 1)
            } completion: { [anchor = scene.anchor] _ in
                guard let scene = anchor.object else { return }
                ZoomAnimator.settle(to, source: source, context: context, in: scene)
            }
            return
        }
        let from = context.view(forKey: "from") ?? context.fromViewController.view
        let initial = context.initialFrame(for: context.fromViewController)
        scene.animate(options) {
            if let rect = resolved?.1 {
                scene.set(from, transform: ZoomAnimator.transform(from: initial, to: rect))
            } else {
                scene.set(from, alpha: 0)
            }
        } completion: { [anchor = scene.anchor] _ in
            guard let scene = anchor.object else { return }
            ZoomAnimator.settle(from, source: source, context: context, in: scene)
        }
    }

    /// The end of either direction: the source shown again, the zoomed view back to identity and opaque, the
    /// transition completed.
    static func settle(_ view: View, source: View?, context: TransitionContext, in scene: Scene) {
        if let source, source.isAlive { scene.set(source, hidden: false) }
        if view.isAlive {
            scene.set(view, transform: .identity)
            scene.set(view, alpha: 1)
        }
        context.completeTransition(!context.transitionWasCancelled)
    }

    /// The release of an interactive dismissal: from where the gesture left the view into the source, resolved
    /// again now (gone: the view fades out where it is), or back to identity for a cancel.
    func release(_ drag: ZoomDrag, cancel: Bool, seconds: Double, curve: CubicBezier?, context: TransitionContext) {
        let scene = context.scene
        let from = drag.view
        var target = Transform3D.identity
        var fade = false
        if !cancel {
            if let (source, rect) = sourceRect(in: context) {
                if source !== hiddenSource {
                    if let old = hiddenSource, old.isAlive { scene.set(old, hidden: false) }
                    scene.set(source, hidden: true)
                    hiddenSource = source
                }
                target = ZoomAnimator.transform(from: drag.frame, to: rect)
            } else {
                if let old = hiddenSource, old.isAlive { scene.set(old, hidden: false) }
                hiddenSource = nil
                target = from.model.transform
                fade = true
            }
        }
        let options = AnimationOptions(duration: seconds, timing: curve.map { .curve($0) } ?? .system)
        scene.animate(options) {
            scene.set(from, transform: target)
            if fade { scene.set(from, alpha: 0) }
        } completion: { [weak self] _ in
            self?.endDrag(scene)
            context.completeTransition(!context.transitionWasCancelled)
        }
    }

    /// The source shown again and the leaving view back at identity, once.
    private func endDrag(_ scene: Scene) {
        guard let drag else { return }
        self.drag = nil
        if let source = hiddenSource, source.isAlive { scene.set(source, hidden: false) }
        hiddenSource = nil
        if drag.view.isAlive {
            scene.set(drag.view, transform: .identity)
            scene.set(drag.view, alpha: 1)
        }
    }

    public func animationEnded(_ completed: Bool, context: TransitionContext) {
        // Ended while still dragged (scene.destroy, or an engine-forced end): tidy what the drag changed.
        endDrag(context.scene)
    }
}
