import Testing

@testable import SegueKit

/// Issue 28: presentation styles' frames in a compact and a regular scene, their appearance calls, contexts,
/// sheets (detents, drags, refused dismissals), popovers and adaptivity, size transitions.
@Suite("Presentation styles, sheets, popovers, size transitions")
struct PresentationStyleTests {
    static let compact = Size(w: 390, h: 844)
    static let regular = Size(w: 1024, h: 1366)

    /// A scene of `size` with a root `main` and a presented-to-be `m`, the frame recorder as the animator.
    static func scene(_ size: Size, config: EngineConfig = EngineConfig()) throws
        -> (Scene, ViewController, ViewController, EventRecorder, ModalProvider)
    {
        let scene = Scene(id: "styles", size: size, clock: .manual, config: config)
        let recorder = EventRecorder()
        scene.sink = recorder
        let provider = ModalProvider([FrameRecorder(), NeverCompletes()], panel: FixedFramePresentation(
            frame: Rect(x: 1, y: 2, w: 3, h: 4), removesPresenterView: false))
        scene.animatorProvider = provider
        let main = try scene.createViewController(id: "main", title: nil, color: nil)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        try scene.setRoot(main)
        recorder.events.removeAll()
        return (scene, main, m, recorder, provider)
    }

    static func presentedFrame(_ style: PresentationStyle, _ size: Size, popover: Bool = false) throws -> Rect {
        let (scene, main, m, _, provider) = try scene(size)
        var config: PopoverConfiguration?
        if popover {
            let source = try scene.makeView(id: "button", frame: Rect(x: 100, y: 100, w: 50, h: 50))
            scene.addSubview(source, to: main.view)
            config = PopoverConfiguration(sourceView: source)
        }
        _ = try scene.present(m, from: main, style: style, animator: "rec", popover: config)
        scene.advance(by: 600_000_000)
        withExtendedLifetime(provider) {}
        return m.view.model.frame
    }

    static let frames: [(PresentationStyle, String, Rect)] = [
        (.fullScreen, "compact", Rect(x: 0, y: 0, w: 390, h: 844)),
        (.fullScreen, "regular", Rect(x: 0, y: 0, w: 1024, h: 1366)),
        (.overFullScreen, "compact", Rect(x: 0, y: 0, w: 390, h: 844)),
        (.overFullScreen, "regular", Rect(x: 0, y: 0, w: 1024, h: 1366)),
        (.currentContext, "compact", Rect(x: 0, y: 0, w: 390, h: 844)),
        (.overCurrentContext, "regular", Rect(x: 0, y: 0, w: 1024, h: 1366)),
        (.pageSheet, "compact", Rect(x: 0, y: 10, w: 390, h: 834)),
        (.pageSheet, "regular", Rect(x: 160, y: 20, w: 704, h: 1326)),
        (.automatic, "compact", Rect(x: 0, y: 10, w: 390, h: 834)),
        (.automatic, "regular", Rect(x: 160, y: 20, w: 704, h: 1326)),
        (.formSheet, "compact", Rect(x: 0, y: 10, w: 390, h: 834)),
        (.formSheet, "regular", Rect(x: 242, y: 373, w: 540, h: 620)),
        (.popover, "compact", Rect(x: 0, y: 10, w: 390, h: 834)),
        // Below the source (100,100,50,50): y = 150 + 13; centred on x 125, kept 10 pt inside.
        (.popover, "regular", Rect(x: 10, y: 163, w: 320, h: 480)),
    ]

    @Test("each style's presented frame in a compact and a regular scene", arguments: frames)
    func frame(style: PresentationStyle, scene: String, expected: Rect) throws {
        let size = scene == "compact" ? Self.compact : Self.regular
        #expect(try Self.presentedFrame(style, size, popover: style == .popover) == expected)
    }

    @Test("a page or form sheet sends the presenter no appearance calls; fullScreen and currentContext do")
    func appearance() throws {
        for (style, presenterCalls) in [(PresentationStyle.pageSheet, false), (.formSheet, false), (.overFullScreen, false),
                                        (.fullScreen, true), (.currentContext, true)] {
            let (scene, main, m, recorder, provider) = try Self.scene(Self.regular)
            _ = try scene.present(m, from: main, style: style, animator: "rec")
            scene.advance(by: 600_000_000)
            _ = try scene.dismiss(m, animator: "rec")
            scene.advance(by: 600_000_000)
            let expected = presenterCalls
                ? ["view_will_disappear main", "view_will_appear m", "view_did_disappear main", "view_did_appear m",
                   "view_will_disappear m", "view_will_appear main", "view_did_disappear m", "view_did_appear main"]
                : ["view_will_appear m", "view_did_appear m", "view_will_disappear m", "view_did_disappear m"]
            #expect(recorder.lifecycle == expected, "\(style)")
            #expect(main.appearance == .appeared)
            withExtendedLifetime(provider) {}
        }
    }

    @Test("engine.modal_default_style automatic makes an unstyled present a page sheet; the default stays fullScreen")
    func defaultStyle() throws {
        var config = EngineConfig()
        config.modalDefaultStyle = .automatic
        let (scene, main, m, _, provider) = try Self.scene(Self.compact, config: config)
        _ = try scene.present(m, from: main, style: nil, animator: "rec")
        #expect(m.presentation?.style == .pageSheet)
        let (scene2, main2, m2, _, provider2) = try Self.scene(Self.compact)
        _ = try scene2.present(m2, from: main2, style: nil, animator: "rec")
        #expect(m2.presentation?.style == .fullScreen)
        withExtendedLifetime((provider, provider2)) {}
    }

    @Test("currentContext inside tabs covers the tab that defines the context, not the tab container")
    func currentContextInTabs() throws {
        let (scene, _, m, recorder, provider) = try Self.scene(Self.regular)
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let tabs = try scene.createContainer(id: "tabs", kind: .tab, items: [a, b])
        try scene.setRoot(tabs)
        var settings = ViewControllerSettings()
        settings.definesPresentationContext = true
        scene.apply(settings, to: a)
        recorder.events.removeAll()
        let aFrame = scene.windowRect(of: a.view)
        _ = try scene.present(m, from: a, style: .currentContext, animator: "rec")
        scene.advance(by: 600_000_000)
        #expect(a.presentedViewController === m)
        #expect(m.presentation?.context === a)
        #expect(tabs.presentedViewController == nil)
        #expect(m.view.model.frame == aFrame)
        #expect(recorder.lifecycle == ["view_will_disappear a", "view_will_appear m", "view_did_disappear a", "view_did_appear m"])
        #expect(tabs.appearance == .appeared)
        // Without a defining ancestor the context is the top of the chain.
        #expect(scene.ledger.definingContext(of: b, in: scene) === tabs)
        withExtendedLifetime(provider) {}
    }

    @Test("contradictions are -32602 and change nothing")
    func badInput() throws {
        let (scene, main, m, _, provider) = try Self.scene(Self.compact)
        func code(_ f: () throws -> Void) -> EngineError.Code? {
            do { try f() } catch { return (error as? EngineError)?.code }
            return nil
        }
        #expect(code { _ = try scene.present(m, from: main, style: .fullScreen, sheet: SheetConfiguration()) } == .invalidParams)
        #expect(code { _ = try scene.present(m, from: main, style: .popover) } == .invalidParams)
        #expect(code { _ = try scene.present(m, from: main, style: .pageSheet, popover: PopoverConfiguration(sourceView: main.view)) }
                == .invalidParams)
        #expect(code { _ = try scene.present(m, from: main, style: .pageSheet, sheet: SheetConfiguration(detents: [.custom(id: "x", height: -5)])) }
                == .invalidParams)
        #expect(code { _ = try scene.present(m, from: main, style: .pageSheet, sheet: SheetConfiguration(detents: [.medium], selected: "large")) }
                == .invalidParams)
        #expect(m.presentation == nil && main.presentedViewController == nil)
        #expect(scene.window.subviews.count == 1)
        // A sheet drag or set_detent on a full-screen presentation: -32002.
        _ = try scene.present(m, from: main, style: .fullScreen, animator: "rec")
        scene.advance(by: 600_000_000)
        #expect(code { _ = try scene.sheetPan(m, PanGesture(phase: .began, translation: .zero, velocity: .zero)) } == .invalidState)
        #expect(code { try scene.setDetent(m, "large") } == .invalidState)
        withExtendedLifetime(provider) {}
    }

    // MARK: Sheets

    /// A compact page sheet with detents medium (422) and large (834), at rest at `selected`.
    static func sheet(selected: String = "large", modal: Bool = false) throws
        -> (Scene, ViewController, ViewController, EventRecorder, ModalProvider)
    {
        let (scene, main, m, recorder, provider) = try scene(compact)
        var settings = ViewControllerSettings()
        settings.modalInPresentation = modal
        scene.apply(settings, to: m)
        _ = try scene.present(m, from: main, style: .pageSheet, animator: "rec",
                              sheet: SheetConfiguration(detents: [.medium, .large], selected: selected))
        scene.advance(by: 600_000_000)
        recorder.events.removeAll()
        return (scene, main, m, recorder, provider)
    }

    @Test("the release is projected with rate 0.998: distance = v / 1000 × rate / (1 − rate)")
    func projection() {
        #expect(abs(SheetMetrics.projection(velocity: 1000) - 499) < 1e-9)
        #expect(abs(SheetMetrics.projection(velocity: -300) + 149.7) < 1e-9)
    }

    @Test("a sheet's detents: medium is half the container, large the container less 10 pt; set_detent moves it")
    func setDetent() throws {
        let (scene, _, m, recorder, provider) = try Self.sheet()
        #expect(m.view.model.frame == Rect(x: 0, y: 10, w: 390, h: 834))
        try scene.setDetent(m, "medium", animated: false)
        #expect(m.view.model.frame == Rect(x: 0, y: 422, w: 390, h: 422))
        #expect(recorder.types(.presentation) == ["sheet.detent_changed"])
        #expect(throws: EngineError.self) { try scene.setDetent(m, "tall") }
        #expect(m.presentation?.selectedDetent == "medium")
        withExtendedLifetime(provider) {}
    }

    @Test("a drag snaps to the nearest detent of its projection")
    func dragSnaps() throws {
        let (scene, _, m, recorder, provider) = try Self.sheet()
        _ = try scene.sheetPan(m, PanGesture(phase: .began, translation: .zero, velocity: .zero))
        _ = try scene.sheetPan(m, PanGesture(phase: .changed, translation: Point(x: 0, y: 200), velocity: .zero))
        #expect(m.view.model.frame.h == 634)
        // 634 held still: nearer large (834) than medium (422).
        var outcome = try scene.sheetPan(m, PanGesture(phase: .ended, translation: Point(x: 0, y: 200), velocity: .zero))
        #expect(outcome.detent == "large")
        #expect(recorder.types(.presentation).isEmpty)
        scene.advance(by: 600_000_000)
        // 634 thrown down at 300 pt/s: 634 − 149.7 = 484.3, nearer medium.
        _ = try scene.sheetPan(m, PanGesture(phase: .began, translation: .zero, velocity: .zero))
        outcome = try scene.sheetPan(m, PanGesture(phase: .ended, translation: Point(x: 0, y: 200), velocity: Point(x: 0, y: 300)))
        #expect(outcome.detent == "medium")
        scene.advance(by: 600_000_000)
        #expect(m.view.model.frame == Rect(x: 0, y: 422, w: 390, h: 422))
        #expect(recorder.types(.presentation) == ["sheet.detent_changed"])
        withExtendedLifetime(provider) {}
    }

    @Test("a drag whose projection falls below half the smallest detent dismisses the sheet")
    func dragDismisses() throws {
        let (scene, main, m, _, provider) = try Self.sheet(selected: "medium")
        _ = try scene.sheetPan(m, PanGesture(phase: .began, translation: .zero, velocity: .zero))
        // 422 − 150 = 272, − 0.2 × 499 = 172.2 < 211.
        let outcome = try scene.sheetPan(m, PanGesture(phase: .ended, translation: Point(x: 0, y: 150), velocity: Point(x: 0, y: 200)))
        #expect(outcome.dismissing != nil)
        scene.advance(by: 2_000_000_000)
        #expect(m.presentation == nil && main.presentedViewController == nil)
        withExtendedLifetime(provider) {}
    }

    @Test("modal_in_presentation refuses the dismissal: the sheet snaps back and sheet.dismiss_attempted fires")
    func refusedDismiss() throws {
        let (scene, _, m, recorder, provider) = try Self.sheet(selected: "medium", modal: true)
        _ = try scene.sheetPan(m, PanGesture(phase: .began, translation: .zero, velocity: .zero))
        let outcome = try scene.sheetPan(m, PanGesture(phase: .ended, translation: Point(x: 0, y: 400), velocity: Point(x: 0, y: 1000)))
        #expect(outcome.refused && outcome.dismissing == nil)
        scene.advance(by: 600_000_000)
        #expect(m.presentation != nil)
        #expect(m.view.model.frame == Rect(x: 0, y: 422, w: 390, h: 422))
        #expect(recorder.types(.presentation) == ["sheet.dismiss_attempted"])
        withExtendedLifetime(provider) {}
    }

    @Test("the presenter behind a large compact page sheet is scaled and rounded; dimming follows largest_undimmed")
    func presenterBehindSheet() throws {
        let (scene, main, m, _, provider) = try Self.sheet()
        #expect(main.view.model.transform == Transform3D(a: 358.0 / 390, b: 0, c: 0, d: 358.0 / 390, tx: 0, ty: 0))
        #expect(main.view.model.cornerRadius == 10)
        let dimming = try #require(m.presentation?.dimmingView)
        #expect(dimming.model.alpha == 0.4)
        try scene.setDetent(m, "medium", animated: false)
        #expect(main.view.model.transform == .identity)
        #expect(dimming.model.alpha == 0.4)
        _ = try scene.dismiss(m, animator: "rec")
        scene.advance(by: 600_000_000)
        #expect(main.view.model.transform == .identity && main.view.model.cornerRadius == 0)
        // largest_undimmed medium: no dimming at medium.
        let (scene2, main2, m2, _, provider2) = try Self.scene(Self.compact)
        _ = try scene2.present(m2, from: main2, style: .pageSheet, animator: "rec",
                               sheet: SheetConfiguration(detents: [.medium, .large], selected: "medium", largestUndimmed: "medium"))
        scene2.advance(by: 600_000_000)
        #expect(m2.presentation?.dimmingView?.model.alpha == 0)
        withExtendedLifetime((provider, provider2)) {}
    }

    // MARK: Popovers and adaptivity

    @Test("a popover goes below its source, else above, else beside; a resize to compact adapts it to a sheet")
    func popoverPlacementAndAdaptation() throws {
        let (scene, main, m, _, provider) = try Self.scene(Size(w: 1024, h: 768))
        let low = try scene.makeView(id: "low", frame: Rect(x: 600, y: 600, w: 40, h: 40))
        scene.addSubview(low, to: main.view)
        _ = try scene.present(m, from: main, style: .popover, animator: "rec",
                              popover: PopoverConfiguration(sourceView: low, preferredSize: Size(w: 200, h: 300)))
        scene.advance(by: 600_000_000)
        // Below: 640 + 13 + 300 > 758, so above: y = 600 − 13 − 300.
        #expect(m.view.model.frame == Rect(x: 520, y: 287, w: 200, h: 300))
        #expect(m.presentation?.arrowDirection == .down)
        try scene.resize(to: Size(w: 390, h: 844))
        #expect(m.presentation?.adaptiveStyle == .pageSheet)
        #expect(m.view.model.frame == Rect(x: 0, y: 10, w: 390, h: 834))
        try scene.resize(to: Size(w: 1024, h: 768))
        #expect(m.presentation?.adaptiveStyle == .popover)
        // Only left and right permitted: beside (arrow left: the popover to the source's right).
        let (scene2, main2, m2, _, provider2) = try Self.scene(Size(w: 1024, h: 768))
        let mid = try scene2.makeView(id: "mid", frame: Rect(x: 100, y: 300, w: 40, h: 40))
        scene2.addSubview(mid, to: main2.view)
        _ = try scene2.present(m2, from: main2, style: .popover, animator: "rec",
                               popover: PopoverConfiguration(sourceView: mid, permittedArrowDirections: [.left, .right],
                                                             preferredSize: Size(w: 200, h: 300)))
        scene2.advance(by: 600_000_000)
        #expect(m2.view.model.frame == Rect(x: 153, y: 170, w: 200, h: 300))
        #expect(m2.presentation?.arrowDirection == .left)
        withExtendedLifetime((provider, provider2)) {}
    }

    // MARK: Size transitions

    @Test("scene.resize is a size transition: view_will_transition_to_size parents first; -32002 while a transition runs")
    func sizeTransition() throws {
        let (scene, main, m, recorder, provider) = try Self.scene(Self.compact)
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let tabs = try scene.createContainer(id: "tabs", kind: .tab, items: [a, b])
        try scene.setRoot(tabs)
        _ = main
        let t = try #require(try scene.present(m, from: a, style: .pageSheet, animator: "never").transition)
        #expect(throws: EngineError.self) { try scene.resize(to: Self.regular) }
        scene.advance(by: 3_000_000_000)  // the watchdog completes it
        #expect(t.isEnded)
        recorder.events.removeAll()
        try scene.resize(to: Size(w: 400, h: 844), duration: 0.3)
        let sized = recorder.events.compactMap { event -> String? in
            guard case .viewWillTransitionToSize(let vc, let size, let duration) = event.payload else { return nil }
            return "\(vc) \(Int(size.w))x\(Int(size.h)) \(duration)"
        }
        #expect(sized == ["tabs 400x844 0.3", "a 400x844 0.3", "m 400x834 0.3"])
        // A second resize during the size transition waits.
        #expect(throws: EngineError.self) { try scene.resize(to: Self.compact) }
        scene.advance(by: 400_000_000)
        try scene.resize(to: Self.compact)
        withExtendedLifetime(provider) {}
    }
}
