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

    @Test("partialCurl turns the presented view down about its top edge, only with fullScreen")
    func partialCurl() throws {
        let (scene, _, m, t) = try Self.presenting(.partialCurl)
        #expect(t?.animatorName == "partial-curl")
        _ = scene.advance(by: 100_000_000)
        let p = Self.progress(at: 0.1)
        #expect(m.view.presentation.transform == SystemTransitionAnimator.turn((1 - p) * .pi / 2, axis: (1, 0, 0), edge: 240))
        _ = scene.advance(by: 500_000_000)
        #expect(m.view.presentation.transform.isIdentity)

        #expect(throws: EngineError.self) { _ = try Self.presenting(.partialCurl, presentation: .overFullScreen) }
        do {
            _ = try Self.presenting(.partialCurl, presentation: .overFullScreen)
        } catch let error as EngineError {
            #expect(error.param == "transition_style" && error.code == .invalidParams)
        }
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
