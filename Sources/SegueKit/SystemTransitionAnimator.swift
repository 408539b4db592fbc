#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// UIKit's own transition animations, all on its system curve (`Timing.system`, 0.5 s): the modal transition
/// styles (UIModalTransitionStyle) and the navigation controller's slide. docs/PROTOCOL.md "Built-in animations"
/// gives the frames and the sources.
public final class SystemTransitionAnimator: Animator {
    public enum Style: String, Sendable {
        case coverVertical = "cover-vertical", flipHorizontal = "flip-horizontal"
        case crossDissolve = "cross-dissolve", partialCurl = "partial-curl"
        case navigationSlide = "navigation-slide"

        init(_ style: ModalTransitionStyle) {
            switch style {
            case .coverVertical: self = .coverVertical
            case .flipHorizontal: self = .flipHorizontal
            case .crossDissolve: self = .crossDissolve
            case .partialCurl: self = .partialCurl
            }
        }
    }

    /// The navigation slide: how far the covered view moves, as a fraction of the container's width (segued's
    /// choice, after the "about a third" visible in UIKit's push), and the dimming over it at the end.
    public static let parallax = 0.3
    public static let dimming = Color(r: 0, g: 0, b: 0, a: 0.1)
    public let style: Style
    /// The edge-swipe pop's slide: linear, so the top view follows the finger one to one.
    var followsFinger = false
    public init(_ style: Style) { self.style = style }
    public var name: String { style.rawValue }

    public func transitionDuration(using context: TransitionContext) -> Double { Spring.systemDuration }

    public func animationEnded(_ completed: Bool, context: TransitionContext) {}

    public func animateTransition(using context: TransitionContext) {
        let backward = context.kind == .dismiss || context.kind == .pop
            || (context.kind == .set && context.direction == .backward)
        switch style {
        case .navigationSlide: slide(context, backward: backward)
        case .coverVertical, .crossDissolve, .flipHorizontal, .partialCurl: modal(context, dismissing: backward)
        }
    }

    private var options: AnimationOptions { AnimationOptions(duration: Spring.systemDuration, timing: .system) }

    /// The view that is not animated but must show under the moving one: placed below `above` (or at the back).
    private func placeUnder(_ view: View, _ above: View?, frame: Rect, in context: TransitionContext) {
        let scene = context.scene, container = context.containerView
        if view.superview !== container || above == nil {
            let index = above.flatMap { a in container.subviews.firstIndex { $0 === a } } ?? 0
            if view.superview === container { scene.removeFromSuperview(view) }
            scene.insertSubview(view, into: container, at: min(index, container.subviews.count))
        }
        scene.set(view, frame: frame)
    }

    private func finish(_ context: TransitionContext, reset views: [View], destroy extra: View? = nil) -> (Bool) -> Void {
        { [anchor = context.scene.anchor] _ in
            guard let scene = anchor.object else { return }
            for view in views where view.isAlive { scene.set(view, transform: .identity); scene.set(view, alpha: 1) }
            if let extra, extra.isAlive { scene.destroyView(extra) }
            context.completeTransition(!context.transitionWasCancelled)
        }
    }

    // MARK: Modal transition styles

    private func modal(_ context: TransitionContext, dismissing: Bool) {
        let scene = context.scene
        let bounds = context.containerView.model.bounds
        let from = context.view(forKey: "from")
        let to = context.view(forKey: "to")
        let presentedVC = dismissing ? context.fromViewController : context.toViewController
        let presented: View = (dismissing ? from : to) ?? presentedVC.view
        let presenter = dismissing ? to : from
        if dismissing, let presenter { placeUnder(presenter, from, frame: context.finalFrame(for: context.toViewController), in: context) }
        if !dismissing {
            scene.addSubview(presented, to: context.containerView)
            scene.set(presented, frame: context.finalFrame(for: presentedVC))
        }
        switch style {
        case .coverVertical, .navigationSlide:
            let below = Transform3D.translation(0, bounds.h)
            if !dismissing { scene.set(presented, transform: below) }
            scene.animate(options) {
                scene.set(presented, transform: dismissing ? below : .identity)
            } completion: { [anchor = scene.anchor] _ in
                guard let scene = anchor.object else { return }
                if presented.isAlive { scene.set(presented, transform: .identity) }
                context.completeTransition(!context.transitionWasCancelled)
            }
        case .crossDissolve:
            if !dismissing { scene.set(presented, alpha: 0) }
            scene.animate(options) {
                scene.set(presented, alpha: dismissing ? 0 : 1)
            } completion: { [anchor = scene.anchor] _ in
                guard let scene = anchor.object else { return }
                if presented.isAlive { scene.set(presented, alpha: 1) }
                context.completeTransition(!context.transitionWasCancelled)
            }
        case .flipHorizontal:
            // UIKit turns the outgoing view to edge-on and the incoming one in from the other edge: the outgoing
            // half of the turn over the first half of the progress, the incoming half over the second.
            let outgoing = dismissing ? presented : presenter
            let incoming = dismissing ? presenter : presented
            let sign: Double = dismissing ? -1 : 1
            flip(context, outgoing: outgoing, incoming: incoming, sign: sign)
        case .partialCurl:
            curl(context, presented: presented, presenterColor: (presenter ?? context.fromViewController.view).model.color,
                 dismissing: dismissing)
        }
    }

    // MARK: Partial curl

    /// The curled page: the presenter's view folds up from its bottom edge about a horizontal line `curlFold` of
    /// the height down, its lower part lying face down over the part above the fold (the page's back, `flap`), and
    /// the presented view shows below the fold. Drawn with views: the presented view is masked to the region below
    /// the fold (the presenter, which stays in the hierarchy under it, shows above), and the flap is a view above
    /// it. The present rolls the fold up from the bottom edge; the presenter stays curled until the dismiss, which
    /// rolls it back down. docs/PROTOCOL.md "Built-in animations" (segued's geometry: UIKit publishes none).
    public static let curlFold = 0.6

    /// The mask (in the presented view's bounds) and the flap (in the container) with the fold at `fold` of the
    /// height: at 1 the page is flat (nothing shows), at `curlFold` it rests curled.
    static func curlFrames(_ bounds: Rect, fold: Double) -> (mask: Rect, flap: Rect) {
        let h = bounds.h, w = bounds.w
        let mask = Rect(x: bounds.x, y: bounds.y + fold * h, w: w, h: (1 - fold) * h)
        let flap = Rect(x: bounds.x, y: bounds.y + (2 * fold - 1) * h, w: w, h: (1 - fold) * h)
        return (mask, flap)
    }

    /// The page's back: the presenter's colour two thirds of the way to white (a light grey for a clear view).
    static func flapColor(_ presenter: Color) -> Color {
        let base = presenter.a > 0.001 ? presenter : Color(r: 0.75, g: 0.75, b: 0.75)
        let k = 2.0 / 3
        return Color(r: base.r + (1 - base.r) * k, g: base.g + (1 - base.g) * k, b: base.b + (1 - base.b) * k)
    }

    private func curl(_ context: TransitionContext, presented: View, presenterColor: Color, dismissing: Bool) {
        let scene = context.scene
        let container = context.containerView
        let record = dismissing ? context.fromViewController.presentation : context.toViewController.presentation
        let pageBounds = container.model.bounds
        let flat = SystemTransitionAnimator.curlFrames(pageBounds, fold: 1)
        let curled = SystemTransitionAnimator.curlFrames(pageBounds, fold: SystemTransitionAnimator.curlFold)
        let maskBounds = presented.model.bounds
        func inPresented(_ r: Rect) -> Rect { Rect(x: maskBounds.x, y: maskBounds.y + r.y - pageBounds.y, w: maskBounds.w, h: r.h) }
        var views = record?.curl
        if views == nil || views?.mask.isAlive != true || views?.flap.isAlive != true {
            // A present, or a dismiss whose curl views are gone: made at the state the page is in now.
            let start = dismissing ? curled : flat
            guard let mask = try? scene.makeView(frame: inPresented(start.mask), color: .white),
                let flap = try? scene.makeView(frame: start.flap, color: SystemTransitionAnimator.flapColor(presenterColor))
            else { return context.completeTransition(!context.transitionWasCancelled) }
            scene.set(flap, .shadowOpacity, [0.3])
            scene.set(flap, .shadowRadius, [6])
            let previous = presented.mask
            if previous != nil { scene.setMask(presented, nil) }
            scene.setMask(presented, mask)
            views = Presentation.Curl(mask: mask, flap: flap, previousMask: previous)
            record?.curl = views
        }
        guard let views else { return context.completeTransition(!context.transitionWasCancelled) }
        if views.flap.superview !== container { scene.addSubview(views.flap, to: container) } else { scene.bringToFront(views.flap) }
        let end = dismissing ? flat : curled
        scene.animate(options) {
            scene.set(views.mask, frame: inPresented(end.mask))
            scene.set(views.flap, frame: end.flap)
        } completion: { [anchor = scene.anchor] _ in
            guard let scene = anchor.object else { return }
            let cancelled = context.transitionWasCancelled
            // A finished dismiss or a cancelled present leaves the page flat: the curl views go. A cancelled dismiss
            // stays curled.
            if dismissing != cancelled {
                SystemTransitionAnimator.uncurl(presented, views, record: record, in: scene)
            } else {
                if views.mask.isAlive { scene.set(views.mask, frame: inPresented(curled.mask)) }
                if views.flap.isAlive { scene.set(views.flap, frame: curled.flap) }
            }
            context.completeTransition(!cancelled)
        }
    }

    /// Takes the curl away: the presented view's own mask comes back, the mask and flap are destroyed.
    static func uncurl(_ presented: View, _ views: Presentation.Curl, record: Presentation?, in scene: Scene) {
        if presented.isAlive, presented.mask === views.mask {
            scene.setMask(presented, nil)
            if let previous = views.previousMask, previous.isAlive, previous.superview == nil { scene.setMask(presented, previous) }
        }
        if views.mask.isAlive { scene.destroyView(views.mask) }
        if views.flap.isAlive { scene.destroyView(views.flap) }
        if record?.curl?.mask === views.mask { record?.curl = nil }
    }

    private func flip(_ context: TransitionContext, outgoing: View?, incoming: View?, sign: Double) {
        var tracks: [(View, (Double) -> Transform3D)] = []
        if let outgoing {
            tracks.append((outgoing, { p in SystemTransitionAnimator.turn(sign * .pi * min(max(p, 0), 0.5)) }))
        }
        if let incoming {
            // −π/2 until half-way, then to 0.
            tracks.append((incoming, { p in
                SystemTransitionAnimator.turn(-sign * .pi * (1 - min(max(p, 0.5), 1)))
            }))
        }
        context.scene.clock.animatePaths(options, tracks, in: context.scene,
                                         completion: finish(context, reset: tracks.map(\.0)))
    }

    /// A turn by `angle` about `axis` through the point `edge` above the view's centre, with perspective; the
    /// identity when there is no turn (so a path ends exactly on it).
    static func turn(_ angle: Double, axis: (Double, Double, Double) = (0, 1, 0), edge: Double = 0) -> Transform3D {
        if angle == 0 { return .identity }
        var m = Transform3D.rotation(angle, axis.0, axis.1, axis.2)
        if edge != 0 {
            m = Transform3D.concat(Transform3D.concat(Transform3D.translation3D(0, edge, 0), m),
                                   Transform3D.translation3D(0, -edge, 0))
        }
        return Transform3D.concat(m, Transform3D.perspective(Scene.flipPerspective))
    }

    // MARK: Navigation slide

    /// UIKit's push: the new view comes in from the right over the old one, which moves left by `parallax` of the
    /// width under a dimming view; pop is the reverse.
    private func slide(_ context: TransitionContext, backward: Bool) {
        let scene = context.scene
        let container = context.containerView
        let width = container.model.bounds.w
        let from = context.view(forKey: "from")
        guard let to = context.view(forKey: "to") else { return context.completeTransition(!context.transitionWasCancelled) }
        let toFrame = context.finalFrame(for: context.toViewController)
        let top = backward ? from : to  // the view that slides across the whole width
        let under = backward ? to : from
        let frame = toFrame == .zero ? container.model.bounds : toFrame
        if backward {
            placeUnder(to, from, frame: frame, in: context)
        } else {
            scene.addSubview(to, to: container)
            scene.set(to, frame: frame)
        }
        let dim = try? scene.makeView(frame: container.model.bounds, color: SystemTransitionAnimator.dimming)
        if let dim, let top, let index = container.subviews.firstIndex(where: { $0 === top }) {
            scene.insertSubview(dim, into: container, at: index)
            scene.set(dim, alpha: backward ? 1 : 0)
        }
        let offRight = Transform3D.translation(width, 0)
        let behind = Transform3D.translation(-SystemTransitionAnimator.parallax * width, 0)
        if backward {
            if let under { scene.set(under, transform: behind) }
        } else if let top {
            scene.set(top, transform: offRight)
        }
        // The edge-swipe pop: linear, so the top view follows the finger one to one.
        let timing = followsFinger ? AnimationOptions(duration: Spring.systemDuration, timing: .curve(.linear)) : options
        scene.animate(timing) {
            if let top { scene.set(top, transform: backward ? offRight : .identity) }
            if let under { scene.set(under, transform: backward ? .identity : behind) }
            if let dim { scene.set(dim, alpha: backward ? 0 : 1) }
        } completion: { [anchor = scene.anchor] _ in
            guard let scene = anchor.object else { return }
            for view in [top, under].compactMap({ $0 }) where view.isAlive { scene.set(view, transform: .identity) }
            if let dim, dim.isAlive { scene.destroyView(dim) }
            context.completeTransition(!context.transitionWasCancelled)
        }
    }
}

extension AnimationClock {
    /// Transforms moved along paths of one progress (a turn about an axis is not a straight line between two
    /// matrices): each view's model takes `path(1)` at once, its presentation runs the path on `options`' curve.
    func animatePaths(_ options: AnimationOptions, _ tracks: [(View, (Double) -> Transform3D)], in scene: Scene,
                      completion: @escaping (Bool) -> Void)
    {
        let group = newGroup(completion: completion)
        for (view, path) in tracks {
            let start = path(0).values, end = path(1).values
            scene.set(view, transform: path(1))
            scene.touch(view)
            view.setPresentation(.transform, start)
            tree.markChanged(view, ViewProperty.transform.changeBit)
            scene.tree.valuesChanged()
            addAnimation(view, .transform, from: start, to: end, options: options, group: group, path: { path($0).values })
        }
        completeIfEmpty(group)
    }
}
