/// The interactive half of the zoom transition (docs/PROTOCOL.md "Interactive zoom dismissal"): iOS 18's
/// dismissal by a downward drag or a pinch, the view following the finger. While the transition is interactive
/// the leaving view is posed directly from the gesture (no animation is held): a pan's translation moves it and
/// the drag shrinks it, a pinch's scale scales it about the touch location. Released, it springs into the source
/// (re-resolved then, as Apple's provider is) or back to where it was, on the system curve.
final class ZoomDrag {
    /// A full-height downward drag halves the view (segued's choice: Apple publishes no figure).
    static let shrinkPerHeight = 0.5
    /// The release rule (segued's choice, the edge-swipe pop's): finish past half-way or at more than 500 pt/s
    /// downward (a pan) or closing at more than 1 scale per second (a pinch); cancel otherwise.
    static let finishVelocity = 500.0
    static let finishPinchRate = 1.0

    let view: View
    /// The leaving view's frame and centre in the container view's coordinates, and the container's origin in the
    /// window's (gesture locations are in the window's).
    let frame: Rect
    let origin: Point
    let height: Double
    /// The touch's start, in the container's coordinates (set by the first sample).
    var start: Point?
    var percent = 0.0
    /// The release: when it began, how long it runs, where the percent goes.
    var release: (begin: Int64, length: Int64, from: Double, to: Double)?

    init(view: View, frame: Rect, origin: Point, height: Double) {
        self.view = view
        self.frame = frame
        self.origin = origin
        self.height = max(height, 1)
    }

    /// The transition's percent at `now`: the gesture's while interactive, then moving to 1 or 0 with the release.
    func percent(at now: Int64) -> Double {
        guard let r = release else { return percent }
        let u = r.length > 0 ? min(1, max(0, Double(now - r.begin) / Double(r.length))) : 1
        return r.from + (r.to - r.from) * u
    }

    /// The transform (about the view's centre) that scales it by `s` about `anchor` and then moves it by `by`.
    func transform(scale s: Double, about anchor: Point, moved by: Point) -> Transform3D {
        let c = frame.mid
        return Transform3D(a: s, b: 0, c: 0, d: s, tx: (anchor.x - c.x) * (1 - s) + by.x,
                           ty: (anchor.y - c.y) * (1 - s) + by.y)
    }

    /// The pose for a gesture sample: (transform, percent).
    func pose(_ g: PanGesture) -> (Transform3D, Double) {
        let location = g.location.map { Point(x: $0.x - origin.x, y: $0.y - origin.y) } ?? frame.mid
        switch g.kind {
        case .pinch:
            let begin = start ?? location
            start = begin
            let s = min(max(g.scale, 0.05), 4)
            let p = min(max(1 - g.scale, 0), 1)
            return (transform(scale: s, about: begin, moved: Point(x: location.x - begin.x, y: location.y - begin.y)), p)
        case .pan, .rotate:
            let begin = start ?? Point(x: location.x - g.translation.x, y: location.y - g.translation.y)
            start = begin
            let p = min(max(g.translation.y / height, 0), 1)
            let s = 1 - ZoomDrag.shrinkPerHeight * p
            return (transform(scale: s, about: begin, moved: g.translation), p)
        }
    }

    /// transition.update's pose: as a straight downward drag of percent × the container's height from the
    /// view's centre would put it.
    func pose(percent p: Double) -> Transform3D {
        let s = 1 - ZoomDrag.shrinkPerHeight * p
        return transform(scale: s, about: frame.mid, moved: Point(x: 0, y: p * height))
    }

    /// Whether a released gesture finishes the dismissal (`ended`; `cancelled` always cancels).
    func finishes(_ g: PanGesture) -> Bool {
        guard g.phase == .ended else { return false }
        switch g.kind {
        case .pinch: return percent > 0.5 || g.rate < -ZoomDrag.finishPinchRate
        case .pan, .rotate: return percent > 0.5 || g.velocity.y > ZoomDrag.finishVelocity
        }
    }
}

/// The built-in interaction of a zoom dismissal or pop started interactive with no interaction plugin (`interactive:
/// true`, or the gesture-first rule of docs/PROTOCOL.md): `gesture.pan` and `gesture.pinch` samples pose the
/// view and the release finishes or cancels by `ZoomDrag.finishes`.
final class ZoomInteraction: InteractionController {
    static let name = "zoom"
    var name: String { ZoomInteraction.name }

    func handle(_ gesture: PanGesture, transition t: Transition) throws(AnimatorFault) {
        guard let scene = t.context?.scene, let drag = t.interactive.zoomDrag else {
            throw AnimatorFault("the zoom interaction drives only a zoom dismissal or pop")
        }
        if gesture.phase == .ended || gesture.phase == .cancelled {
            if gesture.phase == .ended { scene.ledger.poseZoom(t, drag, gesture, in: scene) }
            try? scene.ledger.endInteraction(t, cancel: !drag.finishes(gesture), in: scene)
            return
        }
        scene.ledger.poseZoom(t, drag, gesture, in: scene)
    }

    func completionSpeed(_ transition: Transition) throws(AnimatorFault) -> Double? { nil }
    func completionCurve(_ transition: Transition) throws(AnimatorFault) -> CubicBezier? { nil }
    func transitionEnded(_ transition: Transition) {}
}

/// What a gesture with no transition named dismisses by the zoom (docs/PROTOCOL.md "Interactive zoom dismissal").
public enum ZoomDismissal {
    /// `modal.dismiss` of this presented view controller.
    case dismiss(ViewController)
    /// `nav.pop` of this navigation container.
    case pop(ContainerViewController)
}

extension Scene {
    /// The zoomed view controller under `location` that a `began` with no `transition`, `start` or `interaction`
    /// dismisses, as UIKit's zoom installs its recognizers on the zoomed view: the topmost presentation when it
    /// has a `preferred_transition` zoom (a presentation without one hides what is under it, so nothing), else a
    /// navigation container on screen whose top view controller was pushed with one and is not its root.
    public func zoomDismissal(at location: Point) -> ZoomDismissal? {
        func under(_ vc: ViewController) -> Bool {
            guard isInWindow(vc.view) else { return false }
            let r = windowRect(of: vc.view)
            return location.x >= r.x && location.x <= r.x + r.w && location.y >= r.y && location.y <= r.y + r.h
        }
        let all = controllers.all
        if let top = all.last(where: { $0.presentingViewController != nil && $0.presentedViewController == nil }) {
            return top.preferredZoom != nil && under(top) ? .dismiss(top) : nil
        }
        for case let nav as ContainerViewController in all.reversed() where nav.containerKind == .navigation {
            guard nav.items.count > 1, let top = nav.items.last, top.preferredZoom != nil, under(top) else { continue }
            return .pop(nav)
        }
        return nil
    }
}

extension PanGesture {
    /// Whether a `began` sample may start a zoom dismissal: a pan that does not move up or more sideways than
    /// down (its velocity, else its translation), a pinch that does not open (its velocity, else its scale).
    public var startsZoomDismissal: Bool {
        let g = self
        switch g.kind {
        case .pan:
            let d = g.velocity.x != 0 || g.velocity.y != 0 ? g.velocity : g.translation
            return (d.x == 0 && d.y == 0) || (d.y > 0 && d.y >= abs(d.x))
        case .pinch:
            return (g.rate != 0 ? g.rate : g.scale - 1) <= 0
        case .rotate:
            return false
        }
    }
}
