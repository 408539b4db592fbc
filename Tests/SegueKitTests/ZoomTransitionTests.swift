import Testing

@testable import SegueKit

/// The zoom transition (`preferred_transition: {zoom: …}`, iOS 18's `.zoom(sourceViewProvider:)`) on a manual clock.
@Suite("Zoom transition")
struct ZoomTransitionTests {
    static let thumb = Rect(x: 20, y: 40, w: 80, h: 120)

    /// A root `main` with a thumbnail `t`, and `detail` preferring a zoom from it.
    static func scene(rect: Rect? = nil) throws -> (Scene, ViewController, ViewController, View) {
        let scene = Scene(id: "zoom", size: Size(w: 320, h: 480), clock: .manual)
        let main = try scene.createViewController(id: "main", title: nil, color: nil)
        let detail = try scene.createViewController(id: "detail", title: nil, color: nil)
        try scene.setRoot(main)
        let thumb = try scene.makeView(id: "t", frame: thumb)
        scene.addSubview(thumb, to: main.view)
        var s = ViewControllerSettings()
        s.preferredZoom = .some(ZoomTransition(sourceView: "t", sourceRect: rect))
        scene.apply(s, to: detail)
        return (scene, main, detail, thumb)
    }

    /// The presentation transform's scale and translation (a, d, tx, ty).
    static func parts(_ v: View) -> (Double, Double, Double, Double) {
        let m = v.presentation.transform.values
        return (m[0], m[5], m[12], m[13])
    }

    static func close(_ a: Double, _ b: Double) -> Bool { abs(a - b) < 1e-6 }

    @Test("the maths: the transform maps the final frame onto the source rect")
    func transformMaps() {
        let t = ZoomAnimator.transform(from: Rect(x: 0, y: 0, w: 320, h: 480), to: Self.thumb).values
        #expect(Self.close(t[0], 0.25) && Self.close(t[5], 0.25))
        #expect(Self.close(t[12], 60 - 160) && Self.close(t[13], 100 - 240))
    }

    @Test("present grows from the source: source rect at t=0, between at mid, the final frame at the end")
    func presentGeometry() throws {
        let (scene, main, detail, thumb) = try Self.scene()
        guard let t = try scene.present(detail, from: main, style: .fullScreen).transition else { Issue.record("not started"); return }
        #expect(t.animatorName == ZoomAnimator.name)
        _ = scene.step(frames: 1)
        let (a0, d0, tx0, ty0) = Self.parts(detail.view)
        // First frame: along the same path from the thumbnail (scale 0.25, centre offset (-100, -140)).
        let p0 = (a0 - 0.25) / 0.75
        #expect(p0 > 0 && p0 < 0.3 && Self.close(d0, a0) && Self.close(tx0, -100 * (1 - p0)) && Self.close(ty0, -140 * (1 - p0)),
                "starts at the thumbnail: \(a0) \(d0) \(tx0) \(ty0)")
        #expect(thumb.hidden, "the source hides during the transition")
        _ = scene.advance(by: 150_000_000)
        let (am, _, txm, _) = Self.parts(detail.view)
        #expect(am > a0 && am < 1 && txm > tx0 && txm < 0)
        _ = scene.advance(by: 600_000_000)
        #expect(detail.view.presentation.transform.isIdentity)
        #expect(detail.view.presentation.frame == Rect(x: 0, y: 0, w: 320, h: 480))
        #expect(!thumb.hidden, "the source is shown again at the end")
    }

    @Test("source_rect within the source view is the zoom's origin")
    func sourceRect() throws {
        let (scene, main, detail, _) = try Self.scene(rect: Rect(x: 0, y: 0, w: 80, h: 60))
        _ = try scene.present(detail, from: main, style: .fullScreen)
        _ = scene.step(frames: 1)
        let (a, d, _, _) = Self.parts(detail.view)
        let p = (a - 0.25) / 0.75  // from 80×60 (scale 0.25 × 0.125) to 320×480
        #expect(p > 0 && p < 0.3 && Self.close(d, 0.125 + 0.875 * p))
    }

    @Test("dismissal shrinks back to the source, resolved again at dismissal")
    func dismissReResolves() throws {
        let (scene, main, detail, thumb) = try Self.scene()
        _ = try scene.present(detail, from: main, style: .overFullScreen)
        _ = scene.advance(by: 700_000_000)
        scene.set(thumb, frame: Rect(x: 200, y: 300, w: 80, h: 120))  // the thumbnail moved meanwhile
        _ = try scene.dismiss(detail)
        _ = scene.step(frames: 1)
        #expect(thumb.hidden)
        _ = scene.advance(by: 480_000_000)
        let (a, _, tx, ty) = Self.parts(detail.view)
        #expect(a < 0.3 && tx > 70 && ty > 90, "ends at the moved thumbnail: \(a) \(tx) \(ty)")
        _ = scene.advance(by: 300_000_000)
        #expect(!thumb.hidden)
        #expect(main.presentedViewController == nil)
    }

    @Test("a source gone by dismissal: the view fades out instead")
    func dismissFadesWithoutSource() throws {
        let (scene, main, detail, thumb) = try Self.scene()
        _ = try scene.present(detail, from: main, style: .overFullScreen)
        _ = scene.advance(by: 700_000_000)
        scene.removeFromSuperview(thumb)
        _ = try scene.dismiss(detail)
        _ = scene.advance(by: 250_000_000)
        #expect(detail.view.presentation.transform.isIdentity)
        #expect(detail.view.presentation.alpha < 1)
        _ = scene.advance(by: 600_000_000)
        #expect(main.presentedViewController == nil)
    }

    @Test("push grows from the source and pop shrinks back to it")
    func pushPop() throws {
        let scene = Scene(id: "zoom", size: Size(w: 320, h: 480), clock: .manual)
        let list = try scene.createViewController(id: "list", title: nil, color: nil)
        let detail = try scene.createViewController(id: "detail", title: nil, color: nil)
        let nav = try scene.createContainer(id: "n", kind: .navigation, items: [list])
        try scene.setRoot(nav)
        _ = scene.advance(by: 100_000_000)
        let thumb = try scene.makeView(id: "t", frame: Self.thumb)
        scene.addSubview(thumb, to: list.view)
        var s = ViewControllerSettings()
        s.preferredZoom = .some(ZoomTransition(sourceView: "t"))
        scene.apply(s, to: detail)
        guard let push = (try scene.push(nav, detail)).transition else { Issue.record("push not started"); return }
        #expect(push.animatorName == ZoomAnimator.name)
        _ = scene.step(frames: 1)
        #expect(thumb.hidden)
        #expect(Self.parts(detail.view).0 < 0.5)
        _ = scene.advance(by: 700_000_000)
        #expect(!thumb.hidden)
        #expect(detail.view.presentation.transform.isIdentity)
        guard let pop = (try scene.pop(nav)).transition else { Issue.record("pop not started"); return }
        #expect(pop.animatorName == ZoomAnimator.name)
        _ = scene.advance(by: 480_000_000)
        #expect(thumb.hidden)
        #expect(Self.parts(detail.view).0 < 0.3)
        _ = scene.advance(by: 300_000_000)
        #expect(!thumb.hidden)
    }

    @Test("an explicit animator comes before the zoom")
    func explicitAnimatorWins() throws {
        let (scene, main, detail, thumb) = try Self.scene()
        let start = try scene.present(detail, from: main, style: .fullScreen, animator: DefaultSlideAnimator.name)
        guard let t = start.transition else { Issue.record("not started"); return }
        #expect(t.animatorName == DefaultSlideAnimator.name)
        #expect(!thumb.hidden)
    }
}
