import Testing

@testable import SegueKit

/// Issue 28: the sheet's grabber, and providesPresentationContextTransitionStyle.
@Suite("Sheet grabber and context transition styles")
struct SheetGrabberTests {
    static func scene(_ size: Size) throws -> (Scene, ViewController, ViewController) {
        let scene = Scene(id: "grab", size: size, clock: .manual)
        let main = try scene.createViewController(id: "main", title: nil, color: nil)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        try scene.setRoot(main)
        return (scene, main, m)
    }

    @Test("grabber: true puts a 36 × 5 pill, radius 2.5, 5 pt below the sheet's top, centred, on top of the presented view")
    func grabberView() throws {
        let (scene, main, m) = try Self.scene(Size(w: 390, h: 844))
        var sheet = SheetConfiguration(detents: [.medium, .large], grabber: true)
        sheet.selected = "medium"
        _ = try scene.present(m, from: main, style: .pageSheet, sheet: sheet)
        _ = scene.advance(by: 600_000_000)
        let grabber = try #require(scene.view("m.presentation.grabber"))
        #expect(grabber.superview === m.view && m.view.subviews.last === grabber)
        #expect(grabber.model.frame == Rect(x: 177, y: 5, w: 36, h: 5))
        #expect(grabber.model.cornerRadius == 2.5)
        #expect(grabber.model.color == SheetMetrics.grabberColor && grabber.model.color.a == 0.3)
        #expect(!grabber.hidden)
        // It rides with the sheet: a detent change moves the sheet, the grabber stays at its top.
        try scene.setDetent(m, "large", animated: false)
        #expect(grabber.model.frame.y == 5 && m.view.model.frame.y == 10)
        // A subview added later does not cover it once the chrome is applied again.
        let cover = try scene.makeView(frame: Rect(x: 0, y: 0, w: 390, h: 50))
        scene.addSubview(cover, to: m.view)
        try scene.setDetent(m, "medium", animated: false)
        #expect(m.view.subviews.last === grabber)
        _ = try scene.dismiss(m)
        _ = scene.advance(by: 600_000_000)
        #expect(!grabber.isAlive && scene.view("m.presentation.grabber") == nil, "the grabber goes with the presentation")
    }

    @Test("no grabber unless asked for; a popover's grabber hides while it shows as a popover")
    func grabberOnlyWhenAsked() throws {
        let (scene, main, m) = try Self.scene(Size(w: 390, h: 844))
        _ = try scene.present(m, from: main, style: .pageSheet, sheet: SheetConfiguration(detents: [.large]))
        _ = scene.advance(by: 600_000_000)
        #expect(scene.view("m.presentation.grabber") == nil && m.view.subviews.isEmpty)

        let (wide, main2, m2) = try Self.scene(Size(w: 1024, h: 768))
        let source = try wide.makeView(id: "button", frame: Rect(x: 100, y: 100, w: 50, h: 50))
        wide.addSubview(source, to: main2.view)
        _ = try wide.present(m2, from: main2, style: .popover, sheet: SheetConfiguration(grabber: true),
                             popover: PopoverConfiguration(sourceView: source))
        _ = wide.advance(by: 600_000_000)
        let grabber = try #require(wide.view("m.presentation.grabber"))
        #expect(grabber.hidden, "a popover has no grabber")
        try wide.resize(to: Size(w: 390, h: 844))
        #expect(!grabber.hidden, "adapted to a sheet, it shows")
        #expect(grabber.model.frame.x == (390 - 36) / 2)
    }

    @Test("a context that defines the presentation context and provides its transition style gives its style to currentContext presents over it")
    func contextProvidesTransitionStyle() throws {
        let (scene, _, m) = try Self.scene(Size(w: 1024, h: 768))
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let tabs = try scene.createContainer(id: "tabs", kind: .tab, items: [a, b])
        try scene.setRoot(tabs)
        var settings = ViewControllerSettings()
        settings.definesPresentationContext = true
        settings.providesPresentationContextTransitionStyle = true
        settings.modalTransitionStyle = .crossDissolve
        scene.apply(settings, to: a)
        let t = try scene.present(m, from: a, style: .currentContext, transitionStyle: .flipHorizontal).transition
        #expect(t?.animatorName == "cross-dissolve", "the context's style replaces the presented one's")
        _ = scene.advance(by: 600_000_000)
        let d = try scene.dismiss(m).transition
        #expect(d?.animatorName == "cross-dissolve", "the dismiss keeps it")
        _ = scene.advance(by: 600_000_000)

        /// The animator a present of m from a runs with; the present and its dismiss run to their ends.
        func animator(_ style: PresentationStyle, _ requested: ModalTransitionStyle) throws -> String? {
            let name = try scene.present(m, from: a, style: style, transitionStyle: requested).transition?.animatorName
            _ = scene.advance(by: 600_000_000)
            _ = try scene.dismiss(m)
            _ = scene.advance(by: 600_000_000)
            return name
        }
        // A context without a style of its own gives UIKit's default, coverVertical.
        a.modalTransitionStyle = nil
        #expect(try animator(.overCurrentContext, .crossDissolve) == "cover-vertical")
        // Not providing: the request's style; other presentation styles never look for a context.
        a.providesPresentationContextTransitionStyle = false
        #expect(try animator(.currentContext, .crossDissolve) == "cross-dissolve")
        a.providesPresentationContextTransitionStyle = true
        a.modalTransitionStyle = .crossDissolve
        #expect(try animator(.overFullScreen, .flipHorizontal) == "flip-horizontal")
    }

    @Test("the presented view controller's own transition style applies when the request names none; a provided partialCurl on a context style is -32602")
    func ownStyleAndProvidedCurl() throws {
        let (scene, main, m) = try Self.scene(Size(w: 390, h: 844))
        m.modalTransitionStyle = .crossDissolve
        let t = try scene.present(m, from: main, style: .fullScreen).transition
        #expect(t?.animatorName == "cross-dissolve")
        _ = scene.advance(by: 600_000_000)
        _ = try scene.dismiss(m)
        _ = scene.advance(by: 600_000_000)
        main.definesPresentationContext = true
        main.providesPresentationContextTransitionStyle = true
        main.modalTransitionStyle = .partialCurl
        do {
            _ = try scene.present(m, from: main, style: .currentContext)
            Issue.record("a provided partialCurl on currentContext was accepted")
        } catch {
            #expect(error.code == .invalidParams && error.param == "transition_style")
        }
        #expect(m.presentation == nil && main.presentedViewController == nil)
    }
}
