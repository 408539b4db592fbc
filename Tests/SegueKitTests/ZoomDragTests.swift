import Testing

@testable import SegueKit

/// The zoom's interactive dismissal (ZoomDrag.swift): a downward drag or a pinch poses the view, the release
/// finishes into the source or springs back — on a manual clock.
@Suite("Zoom interactive dismissal")
struct ZoomDragTests {
    /// `detail` presented over-full-screen by a zoom from thumbnail `t` (20, 40, 80×120) in a 320×480 scene.
    static func presented() throws -> (Scene, ViewController, ViewController, View, EventRecorder) {
        let recorder = EventRecorder()
        let (scene, main, detail, thumb) = try ZoomTransitionTests.scene()
        scene.sink = recorder
        _ = try scene.present(detail, from: main, style: .overFullScreen)
        _ = scene.advance(by: 700_000_000)
        return (scene, main, detail, thumb, recorder)
    }

    static func dismiss(_ scene: Scene, _ detail: ViewController) throws -> Transition {
        guard let t = try scene.dismiss(detail, interactive: .percent).transition else {
            throw EngineError(.invalidState, "not started")
        }
        return t
    }

    static func pan(_ phase: PanGesture.Phase, _ tx: Double, _ ty: Double, vy: Double = 0,
                    at location: Point = Point(x: 160, y: 240)) -> PanGesture
    {
        PanGesture(phase: phase, kind: .pan, translation: Point(x: tx, y: ty), velocity: Point(x: 0, y: vy),
                   location: Point(x: location.x + tx, y: location.y + ty))
    }

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

    @Test("interactive: true on a zoom dismissal gets the zoom's own interaction; the source hides, nothing moves yet")
    func startsWithZoomInteraction() throws {
        let (scene, _, detail, thumb, _) = try Self.presented()
        let t = try Self.dismiss(scene, detail)
        #expect(t.animatorName == ZoomAnimator.name)
        #expect(t.interactionName == ZoomInteraction.name)
        #expect(t.state == .interactive)
        #expect(thumb.hidden)
        _ = scene.advance(by: 2_000_000_000)
        #expect(t.state == .interactive, "no watchdog while the finger holds it")
        #expect(detail.view.presentation.transform.isIdentity)
        #expect(scene.percent(of: t) == 0)
    }

    @Test("a drag moves the view with the finger and shrinks it: scale 1 − 0.5·ty/H about the touch's start")
    func dragPoses() throws {
        let (scene, _, detail, _, _) = try Self.presented()
        let t = try Self.dismiss(scene, detail)
        try scene.pan(t, Self.pan(.began, 0, 0))
        try scene.pan(t, Self.pan(.changed, 30, 96))
        let m = detail.view.presentation.transform.values
        #expect(Self.close(m[0], 0.9) && Self.close(m[5], 0.9))
        // The touch started at the view's centre (160, 240): scaling about it leaves only the translation.
        #expect(Self.close(m[12], 30) && Self.close(m[13], 96))
        #expect(Self.close(scene.percent(of: t), 0.2))
        // A touch off-centre stays under the finger: the point under it moves by the translation exactly.
        let (scene2, _, detail2, _, _) = try Self.presented()
        let t2 = try Self.dismiss(scene2, detail2)
        try scene2.pan(t2, Self.pan(.changed, 0, 240, at: Point(x: 60, y: 100)))
        let n = detail2.view.presentation.transform.values
        let s = 0.75
        #expect(Self.close(n[0], s))
        // The point (60, 100) maps to centre + s·(p − centre) + t = (60, 340).
        #expect(Self.close(160 + s * (60 - 160) + n[12], 60) && Self.close(240 + s * (100 - 240) + n[13], 340))
    }

    @Test("released past half-way it shrinks into the source on the system curve, then the source shows again")
    func releaseFinishes() throws {
        let (scene, main, detail, thumb, recorder) = try Self.presented()
        let t = try Self.dismiss(scene, detail)
        try scene.pan(t, Self.pan(.changed, 0, 288))
        try scene.pan(t, Self.pan(.ended, 0, 288, vy: 0))
        #expect(t.state == .finishing)
        #expect(recorder.events.contains { if case .interactionEnded(_, false, _) = $0.payload { true } else { false } })
        _ = scene.advance(by: 480_000_000)
        let m = detail.view.presentation.transform.values
        #expect(m[0] < 0.3 && m[12] < -90 && m[13] < -130, "heading for the thumbnail: \(m[0]) \(m[12]) \(m[13])")
        #expect(thumb.hidden, "hidden throughout")
        _ = scene.advance(by: 100_000_000)
        #expect(t.state == .completed)
        #expect(main.presentedViewController == nil)
        #expect(!thumb.hidden)
    }

    @Test("released under half-way and slow it springs back: cancelled, the view where it was, the source shown")
    func releaseCancels() throws {
        let (scene, main, detail, thumb, _) = try Self.presented()
        let t = try Self.dismiss(scene, detail)
        try scene.pan(t, Self.pan(.changed, 40, 96))
        try scene.pan(t, Self.pan(.ended, 40, 96, vy: 100))
        #expect(t.state == .cancelling)
        _ = scene.advance(by: 250_000_000)
        #expect(scene.percent(of: t) < 0.2 && scene.percent(of: t) > 0)
        _ = scene.advance(by: 300_000_000)
        #expect(t.state == .cancelled)
        #expect(main.presentedViewController === detail)
        #expect(detail.view.presentation.transform.isIdentity)
        #expect(!thumb.hidden)
    }

    @Test("a fast downward flick finishes even under half-way (velocity over 500 pt/s)")
    func flickFinishes() throws {
        let (scene, _, detail, _, _) = try Self.presented()
        let t = try Self.dismiss(scene, detail)
        try scene.pan(t, Self.pan(.changed, 0, 48))
        try scene.pan(t, Self.pan(.ended, 0, 48, vy: 800))
        #expect(t.state == .finishing)
        _ = scene.advance(by: 600_000_000)
        #expect(t.state == .completed)
    }

    @Test("a pinch scales about the touch location; closing fast finishes; the percent is 1 − scale")
    func pinch() throws {
        let (scene, main, detail, thumb, _) = try Self.presented()
        let t = try Self.dismiss(scene, detail)
        let at = Point(x: 100, y: 200)
        try scene.pan(t, PanGesture(phase: .began, kind: .pinch, scale: 1, location: at))
        try scene.pan(t, PanGesture(phase: .changed, kind: .pinch, scale: 0.8, rate: -0.5, location: Point(x: 110, y: 220)))
        let m = detail.view.presentation.transform.values
        #expect(Self.close(m[0], 0.8) && Self.close(m[5], 0.8))
        // The pinch's start point follows the touch: (100, 200) → (110, 220).
        #expect(Self.close(160 + 0.8 * (100 - 160) + m[12], 110) && Self.close(240 + 0.8 * (200 - 240) + m[13], 220))
        #expect(Self.close(scene.percent(of: t), 0.2))
        try scene.pan(t, PanGesture(phase: .ended, kind: .pinch, scale: 0.8, rate: -2, location: Point(x: 110, y: 220)))
        #expect(t.state == .finishing)
        _ = scene.advance(by: 600_000_000)
        #expect(main.presentedViewController == nil && !thumb.hidden)
    }

    @Test("transition.update poses it as a straight drag; finish and cancel release it; pause is refused after")
    func percentDriven() throws {
        let (scene, _, detail, thumb, recorder) = try Self.presented()
        let t = try Self.dismiss(scene, detail)
        try scene.updateTransition(t, percent: 0.4)
        let m = detail.view.presentation.transform.values
        #expect(Self.close(m[0], 0.8) && Self.close(m[13], 0.4 * 480))
        #expect(recorder.events.contains { if case .transitionUpdated(_, 0.4) = $0.payload { true } else { false } })
        try scene.endInteraction(t, cancel: true)
        #expect(t.state == .cancelling)
        #expect(throws: EngineError.self) { try scene.pauseTransition(t) }
        #expect(throws: EngineError.self) { try scene.updateTransition(t, percent: 0.5) }
        _ = scene.advance(by: 600_000_000)
        #expect(t.state == .cancelled && !thumb.hidden)
    }

    @Test("the source is resolved again at the release: it moved during the drag, the view lands on it")
    func sourceReResolvedAtRelease() throws {
        let (scene, _, detail, thumb, _) = try Self.presented()
        let t = try Self.dismiss(scene, detail)
        try scene.pan(t, Self.pan(.changed, 0, 300))
        scene.set(thumb, frame: Rect(x: 200, y: 300, w: 80, h: 120))
        try scene.pan(t, Self.pan(.ended, 0, 300))
        _ = scene.advance(by: 490_000_000)
        let m = detail.view.presentation.transform.values
        #expect(m[12] > 70 && m[13] > 90, "ends at the moved thumbnail: \(m[12]) \(m[13])")
    }

    @Test("the source gone by the release (UIKit falls back to a plain animation): the view fades where it is")
    func sourceGoneAtRelease() throws {
        let (scene, main, detail, thumb, _) = try Self.presented()
        let t = try Self.dismiss(scene, detail)
        try scene.pan(t, Self.pan(.changed, 0, 300))
        scene.removeFromSuperview(thumb)
        try scene.pan(t, Self.pan(.ended, 0, 300))
        _ = scene.advance(by: 250_000_000)
        #expect(detail.view.presentation.alpha < 1)
        #expect(Self.close(detail.view.presentation.transform.values[13], 300), "it stays where the finger left it")
        _ = scene.advance(by: 400_000_000)
        #expect(main.presentedViewController == nil)
    }

    @Test("an interactive zoom pop: the view under comes in below, the drag drives the pop")
    func interactivePop() throws {
        let scene = Scene(id: "zoom", size: Size(w: 320, h: 480), clock: .manual)
        let list = try scene.createViewController(id: "list", title: nil, color: nil)
        let detail = try scene.createViewController(id: "detail", title: nil, color: nil)
        let nav = try scene.createContainer(id: "n", kind: .navigation, items: [list])
        try scene.setRoot(nav)
        let thumb = try scene.makeView(id: "t", frame: ZoomTransitionTests.thumb)
        scene.addSubview(thumb, to: list.view)
        var s = ViewControllerSettings()
        s.preferredZoom = .some(ZoomTransition(sourceView: "t"))
        scene.apply(s, to: detail)
        _ = try scene.push(nav, detail)
        _ = scene.advance(by: 700_000_000)
        #expect(scene.zoomDismissal(at: Point(x: 160, y: 300)).map { if case .pop = $0 { true } else { false } } == true)
        guard let t = try scene.pop(nav, interactive: .percent).transition else { Issue.record("no pop"); return }
        #expect(t.interactionName == ZoomInteraction.name && t.state == .interactive)
        #expect(thumb.hidden && list.view.superview != nil)
        try scene.pan(t, Self.pan(.changed, 0, 300))
        try scene.pan(t, Self.pan(.ended, 0, 300))
        _ = scene.advance(by: 600_000_000)
        #expect(nav.items.map(\.id) == ["list"] && !thumb.hidden)
    }

    @Test("the gesture-first rule: a downward or still pan and a closing pinch start it; up, sideways, opening do not")
    func acceptsRule() {
        #expect(Self.pan(.began, 0, 0).startsZoomDismissal)
        #expect(Self.pan(.began, 2, 10).startsZoomDismissal)
        #expect(!Self.pan(.began, 0, -10).startsZoomDismissal)
        #expect(!Self.pan(.began, 20, 10).startsZoomDismissal)
        #expect(PanGesture(phase: .began, kind: .pinch, scale: 0.95).startsZoomDismissal)
        #expect(!PanGesture(phase: .began, kind: .pinch, scale: 1.1).startsZoomDismissal)
        #expect(!PanGesture(phase: .began, kind: .rotate, rotation: 0.1).startsZoomDismissal)
    }

    @Test("zoomDismissal: the top presentation only when it zooms and the touch is on it")
    func target() throws {
        let (scene, _, detail, _, _) = try Self.presented()
        guard case .dismiss(let vc)? = scene.zoomDismissal(at: Point(x: 10, y: 10)) else { Issue.record("none"); return }
        #expect(vc === detail)
        #expect(scene.zoomDismissal(at: Point(x: 400, y: 10)) == nil)
    }
}
