import SegueJSON
import Testing

@testable import SegueKit

/// An animator like seed 000's: to-view fades in and slides, from-view fades out; completes with
/// `!transitionWasCancelled` (a cancel-correct port). Linear, so percents map straight to values.
final class FadeSlide: Animator {
    let name = "fade-slide"
    var alongsideCalls = 0
    var interactionInfo: [(Bool, Double)] = []
    func transitionDuration(using context: TransitionContext) -> Double { 1 }
    func animateTransition(using context: TransitionContext) {
        let scene = context.scene
        let from = context.fromViewController.view, to = context.toViewController.view
        scene.addSubview(to, to: context.containerView)
        scene.set(to, frame: context.containerView.model.bounds)
        scene.set(to, alpha: 0)
        scene.set(to, transform: .translation(100, 0))
        scene.onInteractionChange(context.transition) { [weak self] cancelled, velocity in
            self?.interactionInfo.append((cancelled, velocity))
        }
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(to, alpha: 1)
            scene.set(to, transform: .identity)
            scene.set(from, alpha: 0)
        } completion: { _ in
            scene.set(from, alpha: 1)
            context.completeTransition(!context.transitionWasCancelled)
        }
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}

func alpha(_ view: View) -> Double { view.presentation.alpha }

extension Scene {
    /// Scrubs an interactive transition to `p` and lets go: finished or cancelled at speed 1, linear.
    func release(_ t: Transition, at p: Double, cancel: Bool) throws {
        try updateTransition(t, percent: p)
        try endInteraction(t, cancel: cancel, speed: 1, curve: .linear)
    }
}

@Suite("Interactive transitions: scrub, finish, cancel, pause (docs/DESIGN.md §3)")
struct InteractiveTests {
    func setUp(_ kind: ContainerKind = .custom) throws -> (Scene, EventRecorder, ContainerViewController, ViewController, ViewController, StaticProvider) {
        let recorder = EventRecorder()
        let (scene, vc) = try makeVCs(["a", "b"], recorder: recorder)
        let a = try #require(vc["a"]), b = try #require(vc["b"])
        let provider = scene.use(["fade-slide": { FadeSlide() }])
        let c: ContainerViewController
        if kind == .navigation {
            c = try scene.createContainer(id: "c", kind: .navigation, items: [a])
        } else {
            c = try scene.createContainer(id: "c", kind: kind, items: [a, b])
        }
        try scene.setRoot(c)
        recorder.events.removeAll()
        return (scene, recorder, c, a, b, provider)
    }

    @Test("interactive: true starts paused at 0; update scrubs linearly; the clock does not move it")
    func scrub() throws {
        let (scene, recorder, c, a, b, provider) = try setUp()
        _ = provider
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        #expect(t.state == .interactive)
        #expect(t.context?.isInteractive == true)
        scene.advance(by: 2_000_000_000)
        #expect(t.state == .interactive)
        #expect(alpha(b.view) == 0)
        try scene.updateTransition(t, percent: 0.25)
        #expect(abs(alpha(b.view) - 0.25) < 1e-9)
        #expect(abs(alpha(a.view) - 0.75) < 1e-9)
        #expect(abs(b.view.presentation.transform.values[12] - 75) < 1e-9)
        try scene.updateTransition(t, percent: 0.1)
        #expect(abs(alpha(b.view) - 0.1) < 1e-9)
        #expect(abs(scene.percent(of: t) - 0.1) < 1e-9)
        #expect(recorder.types(.transition).contains("transition.updated"))
        #expect(recorder.lifecycle == ["will_move_to_parent a(nil)", "will_move_to_parent b(c)", "view_will_disappear a", "view_will_appear b"])
    }

    @Test("finish at p = 0.7 runs the rest forward over 0.3·duration/speed, then completes in docs/DESIGN.md §3's order")
    func finishAt07() throws {
        let (scene, recorder, c, a, b, provider) = try setUp()
        _ = provider
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try scene.release(t, at: 0.7, cancel: false)
        #expect(t.state == .finishing)
        scene.advance(by: 150_000_000)
        #expect(abs(alpha(b.view) - 0.85) < 1e-6)
        #expect(t.state == .finishing)
        scene.advance(by: 160_000_000)
        #expect(t.state == .completed)
        #expect(c.selectedIndex == 1)
        #expect(c.view.subviews.map(\.id) == ["b.view"])
        #expect(alpha(b.view) == 1 && alpha(a.view) == 1)
        #expect(recorder.lifecycle == [
            "will_move_to_parent a(nil)", "will_move_to_parent b(c)", "view_will_disappear a", "view_will_appear b",
            "view_did_disappear a", "view_did_appear b", "did_move_to_parent a(nil)", "did_move_to_parent b(c)",
        ])
        let ended = try #require(recorder.events.first { $0.type == "transition.interaction_ended" })
        guard case .interactionEnded(_, let cancelled, _) = ended.payload else { Issue.record("not interaction_ended"); return }
        #expect(cancelled == false)
    }

    @Test("speed 2 halves the finish")
    func finishSpeed() throws {
        let (scene, _, c, _, _, provider) = try setUp()
        _ = provider
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try scene.updateTransition(t, percent: 0.5)
        try scene.endInteraction(t, cancel: false, speed: 2, curve: .linear)
        scene.advance(by: 240_000_000)
        #expect(t.state == .finishing)
        scene.advance(by: 20_000_000)
        #expect(t.state == .completed)
        #expect(t.completionSpeed == 2)
    }

    @Test("cancel at p = 0.3 runs backward, then the tree is exactly as before and appearance is reversed")
    func cancelAt03() throws {
        let (scene, recorder, c, a, b, provider) = try setUp()
        _ = provider
        let before = scene.tree(presentation: true)
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try scene.release(t, at: 0.3, cancel: true)
        #expect(t.state == .cancelling)
        #expect(t.context?.transitionWasCancelled == true)
        scene.advance(by: 150_000_000)
        #expect(abs(alpha(b.view) - 0.15) < 1e-6)
        scene.advance(by: 200_000_000)
        #expect(t.state == .cancelled)
        #expect(scene.tree(presentation: true) == before)
        #expect(c.selectedIndex == 0)
        #expect(c.children.map(\.id) == ["a"])
        #expect(b.parent == nil && a.parent === c)
        #expect(a.appearance == .appeared && b.appearance == .disappeared)
        #expect(recorder.lifecycle == [
            "will_move_to_parent a(nil)", "will_move_to_parent b(c)", "view_will_disappear a", "view_will_appear b",
            "view_will_disappear b", "view_did_disappear b", "view_will_appear a", "view_did_appear a",
            "did_move_to_parent b(nil)", "did_move_to_parent a(c)",
        ])
        // The interaction-change callbacks fire before the reversed appearance calls.
        let types = recorder.events.map(\.type)
        let endedAt = try #require(types.firstIndex(of: "transition.interaction_ended"))
        let reversedAt = try #require(recorder.events.firstIndex { $0.type == "vc.view_will_disappear" && $0.payload.vc == "b" })
        #expect(endedAt < reversedAt)
        #expect(scene.percent(of: t) == 0)
    }

    @Test("push and pop: finish at 0.7 and cancel at 0.3, the stack and tree as docs/DESIGN.md §3 says")
    func navigation() throws {
        let (scene, recorder, nav, _, b, provider) = try setUp(.navigation)
        _ = provider
        let before = scene.tree(presentation: true)
        let push = try #require(try scene.push(nav, b, interactive: .percent, animator: "fade-slide").transition)
        try scene.release(push, at: 0.3, cancel: true)
        scene.advance(by: 400_000_000)
        #expect(push.state == .cancelled)
        #expect(nav.items.map(\.id) == ["a"])
        #expect(nav.children.map(\.id) == ["a"])
        #expect(scene.tree(presentation: true) == before)
        #expect(recorder.lifecycle.suffix(5) == [
            "view_will_disappear b", "view_did_disappear b", "view_will_appear a", "view_did_appear a",
            "did_move_to_parent b(nil)",
        ])

        _ = try scene.push(nav, b, animated: false)
        let stacked = scene.tree(presentation: true)
        recorder.events.removeAll()
        let pop = try #require(try scene.pop(nav, interactive: .percent, animator: "fade-slide").transition)
        try scene.release(pop, at: 0.3, cancel: true)
        scene.advance(by: 400_000_000)
        #expect(pop.state == .cancelled)
        #expect(nav.items.map(\.id) == ["a", "b"])  // the popped view controller stays on the stack
        #expect(scene.tree(presentation: true) == stacked)
        #expect(recorder.lifecycle == [
            "will_move_to_parent b(nil)", "view_will_disappear b", "view_will_appear a",
            "view_will_disappear a", "view_did_disappear a", "view_will_appear b", "view_did_appear b",
            "did_move_to_parent b(c)",
        ])

        recorder.events.removeAll()
        let pop2 = try #require(try scene.pop(nav, interactive: .percent, animator: "fade-slide").transition)
        try scene.release(pop2, at: 0.7, cancel: false)
        scene.advance(by: 400_000_000)
        #expect(pop2.state == .completed)
        #expect(nav.items.map(\.id) == ["a"])
        #expect(recorder.lifecycle == [
            "will_move_to_parent b(nil)", "view_will_disappear b", "view_will_appear a",
            "view_did_disappear b", "view_did_appear a", "did_move_to_parent b(nil)",
        ])
    }

    @Test("nav.set: cancelled at 0.3 the old stack and tree are back, every will_move balanced; finished at 0.7 the new one")
    func setStack() throws {
        let (scene, recorder, nav, a, b, provider) = try setUp(.navigation)
        _ = provider
        let x = try scene.createViewController(id: "x", title: "X", color: nil)
        _ = try scene.push(nav, b, animated: false)
        let before = scene.tree(presentation: true)
        recorder.events.removeAll()
        let t = try #require(try scene.setStack(nav, [a, x], interactive: .percent, animator: "fade-slide").transition)
        try scene.release(t, at: 0.3, cancel: true)
        scene.advance(by: 400_000_000)
        #expect(t.state == .cancelled)
        #expect(nav.items.map(\.id) == ["a", "b"] && nav.children.map(\.id) == ["a", "b"])
        #expect(x.parent == nil)
        #expect(scene.tree(presentation: true) == before)
        let moves = recorder.lifecycle.filter { $0.contains("move_to_parent") }
        #expect(moves == [
            "will_move_to_parent b(nil)", "will_move_to_parent x(c)", "did_move_to_parent x(nil)", "did_move_to_parent b(c)",
        ])
        let t2 = try #require(try scene.setStack(nav, [a, x], interactive: .percent, animator: "fade-slide").transition)
        try scene.release(t2, at: 0.7, cancel: false)
        scene.advance(by: 400_000_000)
        #expect(t2.state == .completed)
        #expect(nav.items.map(\.id) == ["a", "x"])
    }

    @Test("push finished at 0.7 and tab select finished at 0.7: docs/DESIGN.md §3's full order and end states")
    func finishPushAndTab() throws {
        let (scene, recorder, nav, a, b, provider) = try setUp(.navigation)
        _ = provider
        let push = try #require(try scene.push(nav, b, interactive: .percent, animator: "fade-slide").transition)
        try scene.release(push, at: 0.7, cancel: false)
        scene.advance(by: 400_000_000)
        #expect(push.state == .completed)
        #expect(nav.items.map(\.id) == ["a", "b"] && nav.view.subviews.map(\.id) == ["b.view"])
        #expect(a.appearance == .disappeared && b.appearance == .appeared && b.parent === nav)
        #expect(recorder.lifecycle == [
            "will_move_to_parent b(c)", "view_will_disappear a", "view_will_appear b",
            "view_did_disappear a", "view_did_appear b", "did_move_to_parent b(c)",
        ])

        let (tabScene, tabRecorder, tab, ta, tb, tabProvider) = try setUp(.tab)
        _ = tabProvider
        let select = try #require(try tabScene.select(tab, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try tabScene.release(select, at: 0.7, cancel: false)
        tabScene.advance(by: 400_000_000)
        #expect(select.state == .completed)
        #expect(tab.selectedIndex == 1 && tab.children.map(\.id) == ["a", "b"] && tab.view.subviews.map(\.id) == ["b.view"])
        #expect(ta.appearance == .disappeared && tb.appearance == .appeared)
        #expect(tabRecorder.lifecycle == [
            "view_will_disappear a", "view_will_appear b", "view_did_disappear a", "view_did_appear b",
        ])
    }

    @Test("tab: a cancelled select leaves both children where they were")
    func tabCancel() throws {
        let (scene, recorder, tab, a, b, provider) = try setUp(.tab)
        _ = provider
        let before = scene.tree(presentation: true)
        let t = try #require(try scene.select(tab, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try scene.updateTransition(t, percent: 0.3)
        try scene.endInteraction(t, cancel: true)
        scene.advance(by: 1_000_000_000)
        #expect(t.state == .cancelled)
        #expect(scene.tree(presentation: true) == before)
        #expect(tab.children.map(\.id) == ["a", "b"] && a.parent === tab && b.parent === tab)
        #expect(recorder.lifecycle == [
            "view_will_disappear a", "view_will_appear b",
            "view_will_disappear b", "view_did_disappear b", "view_will_appear a", "view_did_appear a",
        ])
    }

    @Test("pause turns a running transition interactive at its percent; then update and finish, or cancel")
    func pause() throws {
        let (scene, _, c, a, b, provider) = try setUp()
        _ = provider
        let before = scene.tree(presentation: true)
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        scene.advance(by: 400_000_000)
        try scene.pauseTransition(t)
        #expect(t.state == .interactive)
        #expect(abs(scene.percent(of: t) - 0.4) < 1e-9)
        scene.advance(by: 500_000_000)
        #expect(abs(alpha(b.view) - 0.4) < 1e-6)
        try scene.updateTransition(t, percent: 0.2)
        #expect(abs(alpha(b.view) - 0.2) < 1e-6)
        try scene.endInteraction(t, cancel: true, speed: 1, curve: .linear)
        scene.advance(by: 300_000_000)
        #expect(t.state == .cancelled)
        #expect(scene.tree(presentation: true) == before)
        #expect(alpha(a.view) == 1)

        let t2 = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        scene.advance(by: 300_000_000)
        try scene.pauseTransition(t2)
        try scene.release(t2, at: 0.9, cancel: false)
        scene.advance(by: 150_000_000)
        #expect(t2.state == .completed)
        #expect(c.selectedIndex == 1)
    }

    @Test("pause catches a finishing transition mid-ramp: scrub, finish, scrub phases; then it can be cancelled")
    func pauseWhileFinishing() throws {
        let (scene, _, c, _, b, provider) = try setUp()
        _ = provider
        let before = scene.tree(presentation: true)
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try scene.release(t, at: 0.4, cancel: false)
        scene.advance(by: 200_000_000)  // 0.4 → 0.6
        try scene.pauseTransition(t)
        #expect(t.state == .interactive)
        #expect(abs(scene.percent(of: t) - 0.6) < 1e-6)
        scene.advance(by: 500_000_000)
        #expect(abs(alpha(b.view) - 0.6) < 1e-6)  // held again
        #expect(t.phases.map(\.kind) == [.scrub, .finish, .scrub])
        #expect(t.phases.map(\.end) == [0, 200_000_000, nil])
        try scene.endInteraction(t, cancel: true, speed: 1, curve: .linear)
        scene.advance(by: 700_000_000)
        #expect(t.state == .cancelled)
        #expect(scene.tree(presentation: true) == before)
    }

    @Test("the watchdog is suspended while interactive")
    func watchdogSuspended() throws {
        let (scene, recorder, c, _, _, provider) = try setUp()
        _ = provider
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        scene.advance(by: 60_000_000_000)
        #expect(t.state == .interactive)
        #expect(!recorder.types(.transition).contains("transition.watchdog"))
    }

    @Test("alongside animations run with the transition and are scrubbed and reversed with it")
    func alongside() throws {
        let (scene, _, c, _, _, provider) = try setUp()
        _ = provider
        let dimming = try scene.makeView(frame: Rect(x: 0, y: 0, w: 10, h: 10))
        scene.addSubview(dimming, to: scene.window)
        scene.set(dimming, alpha: 0)
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        var finished: Bool?
        scene.animateAlongside(t, { scene.set(dimming, alpha: 1) }, completion: { finished = $0 })
        try scene.updateTransition(t, percent: 0.5)
        #expect(abs(alpha(dimming) - 0.5) < 1e-9)  // ease_in_out is symmetric about the middle
        try scene.updateTransition(t, percent: 0.25)
        #expect(alpha(dimming) < 0.25)  // ease_in_out is slow at the start
        try scene.endInteraction(t, cancel: true, speed: 1, curve: .linear)
        scene.advance(by: 300_000_000)
        #expect(t.state == .cancelled)
        #expect(alpha(dimming) == 0)
        #expect(finished == true)
    }

    @Test("on_interaction_change gets cancelled and the completion velocity (the speed)")
    func interactionChange() throws {
        let recorder = EventRecorder()
        let (scene, vc) = try makeVCs(["a", "b"], recorder: recorder)
        let animator = FadeSlide()
        let provider = scene.use(["fade-slide": { animator }])
        _ = provider
        let c = try scene.createContainer(id: "c", kind: .custom, items: [try #require(vc["a"]), try #require(vc["b"])])
        try scene.setRoot(c)
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try scene.endInteraction(t, cancel: true, speed: 3)
        #expect(animator.interactionInfo.count == 1)
        #expect(animator.interactionInfo.first?.0 == true && animator.interactionInfo.first?.1 == 3)
    }

    @Test("update, finish and cancel refuse a transition that is not interactive")
    func notInteractive() throws {
        let (scene, _, c, _, _, provider) = try setUp()
        _ = provider
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        #expect(throws: EngineError.self) { try scene.updateTransition(t, percent: 0.5) }
        #expect(throws: EngineError.self) { try scene.endInteraction(t, cancel: true) }
        scene.advance(by: 1_100_000_000)
        #expect(throws: EngineError.self) { try scene.pauseTransition(t) }
    }

    @Test("interrupting an interactive transition finishes it; scene.destroy-style finishAll ends a cancelling one cancelled")
    func interrupt() throws {
        let (scene, _, c, _, _, provider) = try setUp()
        _ = provider
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try scene.updateTransition(t, percent: 0.2)
        let next = try scene.select(c, index: 0, animator: "fade-slide", whenBusy: .interrupt)
        #expect(t.state == .completed)
        #expect(next.transition != nil)
        scene.advance(by: 1_100_000_000)

        let t2 = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try scene.updateTransition(t2, percent: 0.6)
        try scene.endInteraction(t2, cancel: true, speed: 0.01)
        scene.finishAllTransitions()
        #expect(t2.state == .cancelled)
        #expect(c.selectedIndex == 0)
    }
}
