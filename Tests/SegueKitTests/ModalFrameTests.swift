import SegueJSON
import Testing

@testable import SegueKit

/// A presentation plugin stand-in: a fixed frame for the presented view.
final class FixedFramePresentation: PresentationController {
    let name = "panel"
    let removesPresenterView: Bool
    let frame: Rect
    init(frame: Rect, removesPresenterView: Bool) {
        self.frame = frame
        self.removesPresenterView = removesPresenterView
    }
    func frameOfPresentedView(_ presentation: Presentation) -> Rect? { frame }
    func call(_ hook: String, _ presentation: Presentation, completed: Bool?) {}
    func presentationEnded(_ presentation: Presentation) {}
}

/// Records the four frames of each transition it runs, then puts the to-view in and completes.
final class FrameRecorder: Animator {
    let name = "rec"
    var seen: [String: Rect] = [:]
    func transitionDuration(using context: TransitionContext) -> Double { 0.5 }
    func animateTransition(using context: TransitionContext) {
        let prefix = context.kind == .present ? "present" : "dismiss"
        let from = context.fromViewController, to = context.toViewController
        seen["\(prefix) from initial"] = context.initialFrame(for: from)
        seen["\(prefix) from final"] = context.finalFrame(for: from)
        seen["\(prefix) to initial"] = context.initialFrame(for: to)
        seen["\(prefix) to final"] = context.finalFrame(for: to)
        if context.kind == .present {
            context.scene.addSubview(to.view, to: context.containerView)
            context.scene.set(to.view, frame: context.finalFrame(for: to))
        } else {
            context.scene.removeFromSuperview(from.view)
        }
        context.completeTransition(true)
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}

/// Seed 001's ExampleAnimatedTransitioning, dismissal half: the panel slides from its final frame to that frame
/// moved right by its width.
final class SlideOutPanel: Animator {
    let name = "slide-out"
    func transitionDuration(using context: TransitionContext) -> Double { 0.5 }
    func animateTransition(using context: TransitionContext) {
        let scene = context.scene
        let panel = context.fromViewController.view
        let final = context.finalFrame(for: context.fromViewController)
        scene.set(panel, frame: final)
        scene.animate(AnimationOptions(duration: 0.5)) {
            scene.set(panel, frame: final.offsetBy(dx: final.w, dy: 0))
        } completion: { _ in
            scene.removeFromSuperview(panel)
            context.completeTransition(true)
        }
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}

final class ModalProvider: AnimatorProvider {
    let animators: [String: any Animator]
    let panel: FixedFramePresentation
    init(_ animators: [any Animator], panel: FixedFramePresentation) {
        self.animators = Dictionary(uniqueKeysWithValues: animators.map { ($0.name, $0) })
        self.panel = panel
    }
    func animator(named name: String, for scene: Scene) throws(EngineError) -> (any Animator)? { animators[name] }
    func presentation(named name: String, for scene: Scene) throws(EngineError) -> (any PresentationController)? {
        name == panel.name ? panel : nil
    }
}

/// The four frames of a present and of its dismissal, by style: the table of the plugin guide's "Frames in a
/// presentation", cell by cell.
@Suite("Modal frames")
struct ModalFrameTests {
    static let bounds = Rect(x: 0, y: 0, w: 320, h: 480)
    static let panel = Rect(x: 40, y: 60, w: 240, h: 360)

    /// A root `main` presents `m` in `style` ("custom+removes": a plugin whose removes_presenter_view is true),
    /// the present runs, 600 ms pass, and `m` is dismissed.
    static func frames(style: String) throws -> [String: Rect] {
        let scene = Scene(id: "frames", size: bounds.size, clock: .manual)
        let recorder = FrameRecorder()
        let provider = ModalProvider([recorder], panel: FixedFramePresentation(
            frame: panel, removesPresenterView: style == "custom+removes"))
        scene.animatorProvider = provider
        let main = try scene.createViewController(id: "main", title: nil, color: nil)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        try scene.setRoot(main)
        let custom = style.hasPrefix("custom")
        _ = try scene.present(m, from: main, style: PresentationStyle(rawValue: custom ? "custom" : style),
                              presentation: custom ? "panel" : nil, animator: "rec")
        _ = scene.advance(by: 600_000_000)
        _ = try scene.dismiss(m, animator: "rec")
        _ = scene.advance(by: 600_000_000)
        withExtendedLifetime(provider) {}
        return recorder.seen
    }

    static let z = Rect.zero, b = bounds, p = panel
    /// style, transition, key, initial/final, expected.
    static let table: [(String, String, Rect)] = [
        ("fullScreen", "present from initial", b), ("fullScreen", "present from final", z),
        ("fullScreen", "present to initial", z), ("fullScreen", "present to final", b),
        ("fullScreen", "dismiss from initial", b), ("fullScreen", "dismiss from final", z),
        ("fullScreen", "dismiss to initial", z), ("fullScreen", "dismiss to final", b),
        ("overFullScreen", "present from initial", b), ("overFullScreen", "present from final", b),
        ("overFullScreen", "present to initial", z), ("overFullScreen", "present to final", b),
        ("overFullScreen", "dismiss from initial", b), ("overFullScreen", "dismiss from final", z),
        ("overFullScreen", "dismiss to initial", b), ("overFullScreen", "dismiss to final", b),
        ("custom", "present from initial", b), ("custom", "present from final", b),
        ("custom", "present to initial", z), ("custom", "present to final", p),
        ("custom", "dismiss from initial", p), ("custom", "dismiss from final", p),
        ("custom", "dismiss to initial", b), ("custom", "dismiss to final", b),
        ("custom+removes", "present from initial", b), ("custom+removes", "present from final", z),
        ("custom+removes", "present to initial", z), ("custom+removes", "present to final", p),
        ("custom+removes", "dismiss from initial", p), ("custom+removes", "dismiss from final", p),
        ("custom+removes", "dismiss to initial", z), ("custom+removes", "dismiss to final", b),
    ]

    @Test("each cell of the frames table holds", arguments: table)
    func cell(style: String, cell: String, expected: Rect) throws {
        let seen = try Self.frames(style: style)
        #expect(seen[cell] == expected, "\(style) \(cell)")
    }

    @Test("seed 001's panel dismissal slides out for its whole duration from final_frame(from)")
    func panelDismissalSlidesOut() throws {
        let scene = Scene(id: "panel", size: Self.bounds.size, clock: .manual)
        let provider = ModalProvider([FrameRecorder(), SlideOutPanel()], panel: FixedFramePresentation(
            frame: Self.panel, removesPresenterView: false))
        scene.animatorProvider = provider
        let main = try scene.createViewController(id: "main", title: nil, color: nil)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        try scene.setRoot(main)
        _ = try scene.present(m, from: main, style: .custom, presentation: "panel", animator: "rec")
        _ = scene.advance(by: 600_000_000)
        guard let t = try scene.dismiss(m, animator: "slide-out").transition else {
            Issue.record("the dismissal did not start")
            return
        }
        _ = scene.advance(by: 250_000_000)
        #expect(!t.isEnded, "the dismissal ended early")
        let mid = m.view.presentation.frame
        #expect(mid.w == Self.panel.w && mid.x > Self.panel.x && mid.x < Self.panel.x + Self.panel.w)
        _ = scene.advance(by: 350_000_000)
        #expect(t.isEnded)
        withExtendedLifetime(provider) {}
    }
}
