import Testing
@testable import SegueKit

/// The built-in animations on UIKit's system curve (modal transition styles, the navigation slide) and the one
/// place that decides which animation runs.
@Suite("System transitions")
struct SystemTransitionTests {
    static let size = Size(w: 320, h: 480)

    /// `main` is the root; `m` is presented with the given transition style (nil: none named).
    static func presenting(_ style: ModalTransitionStyle?, presentation: PresentationStyle? = nil,
                           animator: String? = nil, provider: (any AnimatorProvider)? = nil)
        throws -> (Scene, ViewController, ViewController, Transition?)
    {
        let scene = Scene(id: "sys", size: size, clock: .manual)
        scene.animatorProvider = provider
        let main = try scene.createViewController(id: "main", title: nil, color: nil)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        try scene.setRoot(main)
        let t = try scene.present(m, from: main, style: presentation, animator: animator, transitionStyle: style).transition
        return (scene, main, m, t)
    }

    static func progress(at seconds: Double) -> Double { Timing.system.progress(at: seconds, duration: 0.5) }

    @Test("a present that names nothing covers vertically on the system curve, and its dismiss uncovers")
    func coverVerticalIsTheDefault() throws {
        let (scene, _, m, t) = try Self.presenting(nil)
        #expect(t?.animatorName == "cover-vertical")
        _ = scene.advance(by: 100_000_000)
        let ty = m.view.presentation.transform.affine.ty
        #expect(abs(ty - 480 * (1 - Self.progress(at: 0.1))) < 1e-6)
        #expect(ty > 0 && ty < 480)
        _ = scene.advance(by: 450_000_000)
        #expect(t?.isEnded == true)
        #expect(m.view.presentation.transform.isIdentity)
        let d = try scene.dismiss(m).transition
        #expect(d?.animatorName == "cover-vertical")
        _ = scene.advance(by: 200_000_000)
        #expect(abs(m.view.presentation.transform.affine.ty - 480 * Self.progress(at: 0.2)) < 1e-6)
        _ = scene.advance(by: 350_000_000)
        #expect(d?.isEnded == true)
    }

    @Test("crossDissolve fades the presented view in, and out on the dismiss")
    func crossDissolve() throws {
        let (scene, _, m, t) = try Self.presenting(.crossDissolve)
        #expect(t?.animatorName == "cross-dissolve")
        _ = scene.advance(by: 50_000_000)
        #expect(abs(m.view.presentation.alpha - Self.progress(at: 0.05)) < 1e-6)
        #expect(m.view.presentation.transform.isIdentity)
        _ = scene.advance(by: 500_000_000)
        #expect(m.view.presentation.alpha == 1)
        let d = try scene.dismiss(m).transition
        #expect(d?.animatorName == "cross-dissolve", "the dismiss keeps the presentation's transition style")
        _ = scene.advance(by: 50_000_000)
        #expect(abs(m.view.presentation.alpha - (1 - Self.progress(at: 0.05))) < 1e-6)
    }

    @Test("flipHorizontal turns the presenter to edge-on, then the presented view in from the other edge")
    func flipHorizontal() throws {
        let (scene, main, m, t) = try Self.presenting(.flipHorizontal)
        #expect(t?.animatorName == "flip-horizontal")
        _ = scene.advance(by: 16_000_000)
        let p = Self.progress(at: 0.016)
        #expect(p < 0.5)
        #expect(main.view.presentation.transform == SystemTransitionAnimator.turn(.pi * p))
        #expect(m.view.presentation.transform == SystemTransitionAnimator.turn(-.pi / 2))
        // Later, past the half-way point of the progress: the presenter is edge-on, the presented view turns in.
        var at = 0.016
        while Self.progress(at: at) <= 0.5 { at += 0.016; _ = scene.advance(by: 16_000_000) }
        let q = Self.progress(at: at)
        #expect(main.view.presentation.transform == SystemTransitionAnimator.turn(.pi / 2))
        #expect(m.view.presentation.transform == SystemTransitionAnimator.turn(-.pi * (1 - q)))
        _ = scene.advance(by: 600_000_000)
        #expect(t?.isEnded == true)
        #expect(m.view.presentation.transform.isIdentity && main.view.model.transform.isIdentity)
    }

    @Test("partialCurl folds the presenter's page up from its bottom edge to 0.6 of the height and keeps it curled; the dismiss uncurls it")
    func partialCurl() throws {
        let (scene, main, m, t) = try Self.presenting(.partialCurl)
        #expect(t?.animatorName == "partial-curl")
        _ = scene.advance(by: 100_000_000)
        let p = Self.progress(at: 0.1)
        let fold = 1 - (1 - SystemTransitionAnimator.curlFold) * p
        guard let mask = m.view.mask else { Issue.record("the presented view is not masked"); return }
        #expect(abs(mask.presentation.frame.y - 480 * fold) < 1e-6, "only what is below the fold shows")
        #expect(abs(mask.presentation.frame.h - 480 * (1 - fold)) < 1e-6)
        let container = try #require(m.presentation?.containerView)
        let flap = try #require(container.subviews.last)
        #expect(flap !== m.view && container.subviews.firstIndex { $0 === m.view } ?? 9 < container.subviews.count - 1)
        #expect(abs(flap.presentation.frame.y - 480 * (2 * fold - 1)) < 1e-6, "the page's back lies over the part above the fold")
        #expect(abs(flap.presentation.frame.h - 480 * (1 - fold)) < 1e-6)
        #expect(main.view.superview != nil, "the presenter's page stays in the hierarchy, under the presentation")
        _ = scene.advance(by: 500_000_000)
        #expect(t?.state == .completed)
        // At rest: curled at 0.6, the presenter still in the hierarchy (it has disappeared, as full screen says).
        #expect(main.view.superview === scene.window && main.appearance == .disappeared)
        #expect(m.view.mask === mask && mask.model.frame == Rect(x: 0, y: 288, w: 320, h: 192))
        #expect(abs(flap.model.frame.y - 96) < 1e-9 && abs(flap.model.frame.h - 192) < 1e-9)
        #expect(m.view.presentation.transform.isIdentity && main.view.presentation.transform.isIdentity)
        let d = try scene.dismiss(m).transition
        #expect(d?.animatorName == "partial-curl")
        _ = scene.advance(by: 200_000_000)
        let q = Self.progress(at: 0.2)
        let back = SystemTransitionAnimator.curlFold + (1 - SystemTransitionAnimator.curlFold) * q
        #expect(abs(mask.presentation.frame.y - 480 * back) < 1e-6)
        _ = scene.advance(by: 400_000_000)
        #expect(d?.state == .completed)
        #expect(m.view.mask == nil && !mask.isAlive && !flap.isAlive, "the curl is gone")
        #expect(main.appearance == .appeared && main.view.superview === scene.window)

        #expect(throws: EngineError.self) { _ = try Self.presenting(.partialCurl, presentation: .overFullScreen) }
        do {
            _ = try Self.presenting(.partialCurl, presentation: .overFullScreen)
        } catch let error as EngineError {
            #expect(error.param == "transition_style" && error.code == .invalidParams)
        }
    }

    @Test("a cancelled partialCurl present leaves the page flat and the presented view's own mask back; a cancelled dismiss stays curled")
    func partialCurlCancelled() throws {
        let scene = Scene(id: "sys", size: Self.size, clock: .manual)
        let main = try scene.createViewController(id: "main", title: nil, color: nil)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        try scene.setRoot(main)
        let own = try scene.makeView(frame: Rect(x: 0, y: 0, w: 320, h: 480))
        scene.setMask(m.view, own)
        let t = try #require(try scene.present(m, from: main, style: .fullScreen, interactive: .percent,
                                                transitionStyle: .partialCurl).transition)
        try scene.updateTransition(t, percent: 0.5)
        #expect(m.view.mask !== own)
        try scene.endInteraction(t, cancel: true)
        _ = scene.advance(by: 1_000_000_000)
        #expect(t.state == .cancelled)
        #expect(m.view.mask === own, "the presented view's own mask is back")
        #expect(m.presentation == nil && main.view.superview === scene.window)
        _ = try scene.present(m, from: main, style: .fullScreen, transitionStyle: .partialCurl)
        _ = scene.advance(by: 600_000_000)
        let curlMask = m.view.mask
        let d = try #require(try scene.dismiss(m, interactive: .percent).transition)
        try scene.updateTransition(d, percent: 0.7)
        try scene.endInteraction(d, cancel: true)
        _ = scene.advance(by: 1_000_000_000)
        #expect(d.state == .cancelled)
        #expect(m.view.mask === curlMask && curlMask?.isAlive == true)
        #expect(curlMask?.model.frame == Rect(x: 0, y: 288, w: 320, h: 192), "still curled at 0.6")
        #expect(curlMask?.presentation.frame == Rect(x: 0, y: 288, w: 320, h: 192))
    }

    @Test("an animator named over partialCurl, or a present without animation, is a plain full-screen presentation: no curl, the presenter leaves")
    func partialCurlOnlyWhenItRuns() throws {
        let recorder = FrameRecorder()
        let provider = ModalProvider([recorder], panel: FixedFramePresentation(frame: .zero, removesPresenterView: false))
        let (scene, main, m, t) = try Self.presenting(.partialCurl, animator: "rec", provider: provider)
        #expect(t?.animatorName == "rec")
        #expect(recorder.seen["present from final"] == .zero, "the full-screen frames")
        _ = scene.advance(by: 600_000_000)
        #expect(main.view.superview == nil && m.view.mask == nil)
        let still = Scene(id: "still", size: Self.size, clock: .manual)
        let root = try still.createViewController(id: "root", title: nil, color: nil)
        let n = try still.createViewController(id: "n", title: nil, color: nil)
        try still.setRoot(root)
        _ = try still.present(n, from: root, style: .fullScreen, animated: false, transitionStyle: .partialCurl)
        #expect(root.view.superview == nil && n.view.mask == nil)
        withExtendedLifetime(provider) {}
    }

    @Test("a refused partialCurl leaves nothing behind")
    func refusedLeavesNothing() throws {
        let scene = Scene(id: "sys", size: Self.size, clock: .manual)
        let main = try scene.createViewController(id: "main", title: nil, color: nil)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        try scene.setRoot(main)
        #expect(throws: EngineError.self) {
            _ = try scene.present(m, from: main, style: .overFullScreen, transitionStyle: .partialCurl)
        }
        #expect(m.presentation == nil && main.presentedViewController == nil)
        #expect(m.view.superview == nil)
    }

    @Test("first match wins: the request's animator, then the transition style, then the built-in")
    func precedence() throws {
        let provider = ModalProvider([FrameRecorder()], panel: FixedFramePresentation(frame: .zero, removesPresenterView: false))
        let (_, _, _, named) = try Self.presenting(.crossDissolve, animator: "rec", provider: provider)
        #expect(named?.animatorName == "rec")
        let (_, _, _, styled) = try Self.presenting(.flipHorizontal, provider: provider)
        #expect(styled?.animatorName == "flip-horizontal")
        let (_, _, _, plain) = try Self.presenting(nil, provider: provider)
        #expect(plain?.animatorName == "cover-vertical")
    }

    @Test("the view controller's own animator comes before the transition style")
    func ownAnimatorBeatsStyle() throws {
        let provider = ModalProvider([FrameRecorder()], panel: FixedFramePresentation(frame: .zero, removesPresenterView: false))
        let scene = Scene(id: "sys", size: Self.size, clock: .manual)
        scene.animatorProvider = provider
        let main = try scene.createViewController(id: "main", title: nil, color: nil)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        m.preferredAnimators["present"] = "rec"
        try scene.setRoot(main)
        let t = try scene.present(m, from: main, style: nil, transitionStyle: .crossDissolve).transition
        #expect(t?.animatorName == "rec")
    }
}

@Suite("Navigation slide")
struct NavigationSlideTests {
    static func nav() throws -> (Scene, ContainerViewController, ViewController, ViewController) {
        let scene = Scene(id: "nav", size: Size(w: 320, h: 480), clock: .manual)
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let nav = try scene.createContainer(id: "nav", kind: .navigation, items: [a])
        try scene.setRoot(nav)
        return (scene, nav, a, b)
    }

    static func progress(at seconds: Double) -> Double { Timing.system.progress(at: seconds, duration: 0.5) }

    @Test("a push without an animator slides the new view in from the right over the old one, which moves 0.3 left under a dimming view")
    func push() throws {
        let (scene, nav, a, b) = try Self.nav()
        let t = try scene.push(nav, b).transition
        #expect(t?.animatorName == "navigation-slide")
        _ = scene.advance(by: 100_000_000)
        let p = Self.progress(at: 0.1)
        #expect(abs(b.view.presentation.transform.affine.tx - 320 * (1 - p)) < 1e-6)
        #expect(abs(a.view.presentation.transform.affine.tx + 0.3 * 320 * p) < 1e-6)
        let dim = nav.view.subviews.first { $0 !== a.view && $0 !== b.view }
        #expect(dim != nil, "the dimming view is in the container")
        if let dim {
            #expect(abs(dim.presentation.alpha - p) < 1e-6)
            let order = nav.view.subviews.map { $0 === a.view ? "a" : $0 === b.view ? "b" : "dim" }
            #expect(order == ["a", "dim", "b"])
        }
        _ = scene.advance(by: 450_000_000)
        #expect(t?.isEnded == true)
        #expect(nav.view.subviews.count == 1 && nav.view.subviews.first === b.view)
        #expect(b.view.presentation.transform.isIdentity && a.view.model.transform.isIdentity)
    }

    @Test("a pop without an animator slides the top view out to the right and brings the old one back from 0.3 left")
    func pop() throws {
        let (scene, nav, a, b) = try Self.nav()
        _ = try scene.push(nav, b, animated: false)
        let t = try scene.pop(nav).transition
        #expect(t?.animatorName == "navigation-slide")
        _ = scene.advance(by: 200_000_000)
        let p = Self.progress(at: 0.2)
        #expect(abs(b.view.presentation.transform.affine.tx - 320 * p) < 1e-6)
        #expect(abs(a.view.presentation.transform.affine.tx + 0.3 * 320 * (1 - p)) < 1e-6)
        let order = nav.view.subviews.map { $0 === a.view ? "a" : $0 === b.view ? "b" : "dim" }
        #expect(order == ["a", "dim", "b"])
        _ = scene.advance(by: 350_000_000)
        #expect(t?.isEnded == true)
        #expect(nav.view.subviews.count == 1 && nav.view.subviews.first === a.view)
        #expect(a.view.presentation.transform.isIdentity)
    }
}
