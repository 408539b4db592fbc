import SegueJSON
import Testing

@testable import SegueKit

@Suite("Custom container select")
struct SelectTransitionTests {
    @Test("select A→B emits docs/DESIGN.md §3's lifecycle order")
    func lifecycleOrder() throws {
        let recorder = EventRecorder()
        let (scene, container, _, _) = try makeScene(recorder: recorder)
        let start = try scene.select(container, index: 1)
        #expect(start.transition != nil)
        #expect(recorder.lifecycle == [
            "will_move_to_parent a(nil)", "will_move_to_parent b(c)", "view_will_disappear a", "view_will_appear b",
        ])
        scene.advance(by: 1_100_000_000)
        #expect(recorder.lifecycle == [
            "will_move_to_parent a(nil)", "will_move_to_parent b(c)", "view_will_disappear a", "view_will_appear b",
            "view_did_disappear a", "view_did_appear b", "did_move_to_parent a(nil)", "did_move_to_parent b(c)",
        ])
        #expect(recorder.types(.transition) == ["transition.began", "transition.completed"])
    }

    @Test("the default animator is a 1 s spring that ends with the to-view in place and the from-view gone")
    func defaultAnimatorEndState() throws {
        let recorder = EventRecorder()
        let (scene, container, a, b) = try makeScene(recorder: recorder)
        let transition = try #require(try scene.select(container, index: 1).transition)
        #expect(transition.animatorName == "default-slide")
        #expect(transition.duration == 1)
        // Half-way through, the spring has moved the to-view most of the way in and it is fading in.
        scene.advance(by: 300_000_000)
        #expect(b.view.presentation.alpha > 0.3 && b.view.presentation.alpha < 1.2)
        #expect(b.view.presentation.transform.affine.tx < 336)
        #expect(!transition.isEnded)
        scene.advance(by: 800_000_000)
        #expect(transition.state == .completed)
        #expect(transition.endedAt == 1_000_000_000)
        #expect(container.view.subviews.map(\.id) == ["b.view"])
        #expect(a.view.superview == nil)
        #expect(b.view.model.frame == Rect(x: 0, y: 0, w: 320, h: 480))
        #expect(b.view.presentation.alpha == 1)
        #expect(b.view.presentation.transform.isIdentity)
        #expect(a.view.model.transform.isIdentity)
        #expect(container.children.map(\.id) == ["b"])
        #expect(a.parent == nil && b.parent === container)
        #expect(a.appearance == .disappeared && b.appearance == .appeared)
        #expect(container.selectedIndex == 1)
    }

    @Test("the custom container's frames are seed 000's going-right/left frames")
    func contextFrames() throws {
        let recorder = EventRecorder()
        let (scene, container, a, b) = try makeScene(recorder: recorder)
        let transition = try #require(try scene.select(container, index: 1).transition)
        let ctx = try #require(transition.context)
        #expect(ctx.initialFrame(for: a) == Rect(x: 0, y: 0, w: 320, h: 480))
        #expect(ctx.finalFrame(for: a) == Rect(x: -320, y: 0, w: 320, h: 480))
        #expect(ctx.initialFrame(for: b) == Rect(x: 320, y: 0, w: 320, h: 480))
        #expect(ctx.finalFrame(for: b) == Rect(x: 0, y: 0, w: 320, h: 480))
        #expect(ctx.direction == .forward)
        scene.advance(by: 2_000_000_000)
        let back = try #require(try scene.select(container, index: 0).transition)
        let ctx2 = try #require(back.context)
        #expect(ctx2.finalFrame(for: b) == Rect(x: 320, y: 0, w: 320, h: 480))
        #expect(ctx2.direction == .backward)
    }

    @Test("selecting the selected child starts nothing; a second select while busy is rejected")
    func alreadySelectedAndBusy() throws {
        let recorder = EventRecorder()
        let (scene, container, _, _) = try makeScene(recorder: recorder)
        #expect(try scene.select(container, index: 0).transition == nil)
        _ = try scene.select(container, index: 1)
        #expect(throws: EngineError.self) { try scene.select(container, index: 0) }
        #expect(throws: EngineError.self) { try scene.select(container, index: 7) }
    }

    @Test("the watchdog completes an animator that never calls complete, on the scene clock")
    func watchdog() throws {
        let recorder = EventRecorder()
        let (scene, container, _, b) = try makeScene(recorder: recorder)
        let provider = scene.use(["never": { NeverCompletes() }])
        defer { withExtendedLifetime(provider) {} }
        let transition = try #require(try scene.select(container, index: 1, animator: "never").transition)
        // duration 0.5 × factor 2 + grace 1 s = 2 s.
        scene.advance(by: 1_990_000_000)
        #expect(!transition.isEnded)
        scene.advance(by: 20_000_000)
        #expect(transition.state == .completed)
        #expect(transition.forced)
        #expect(recorder.types(.transition).contains("transition.watchdog"))
        #expect(container.view.subviews.map(\.id) == ["b.view"])
        #expect(b.appearance == .appeared)
        #expect(transition.problems.map(\.code).contains(.neverCompleted))
    }

    @Test("an animator that raises is undone and the default animator finishes the transition")
    func failOver() throws {
        let recorder = EventRecorder()
        let (scene, container, a, _) = try makeScene(recorder: recorder)
        let provider = scene.use(["raises": { Raises() }])
        defer { withExtendedLifetime(provider) {} }
        let transition = try #require(try scene.select(container, index: 1, animator: "raises").transition)
        #expect(transition.failedOver)
        // What the failed call did is undone: the from-view's alpha is back at 1 before the default runs.
        #expect(recorder.types(.transition) == ["transition.began", "transition.failed_over"])
        scene.advance(by: 1_100_000_000)
        #expect(transition.state == .completed)
        #expect(a.view.model.alpha == 1)
        #expect(container.view.subviews.map(\.id) == ["b.view"])
        #expect(recorder.types(.transition).last == "transition.completed")
    }

    @Test("a second complete is ignored with a plugin.warning")
    func completeTwice() throws {
        let recorder = EventRecorder()
        let (scene, container, _, _) = try makeScene(recorder: recorder)
        let provider = scene.use(["twice": { CompletesTwice() }])
        defer { withExtendedLifetime(provider) {} }
        let transition = try #require(try scene.select(container, index: 1, animator: "twice").transition)
        #expect(transition.state == .completed)
        #expect(recorder.events.filter { $0.type == "transition.completed" }.count == 1)
        #expect(recorder.types(.plugin) == ["plugin.warning"])
        #expect(transition.problems.map(\.code) == [.completedTwice])
    }

    @Test("an unknown animator name is not_found and changes nothing")
    func unknownAnimator() throws {
        let recorder = EventRecorder()
        let (scene, container, _, _) = try makeScene(recorder: recorder)
        let error = #expect(throws: EngineError.self) { try scene.select(container, index: 1, animator: "nope") }
        #expect(error?.code == .notFound)
        #expect(error?.param == "animator")
        #expect(recorder.events.isEmpty)
        #expect(container.selectedIndex == 0)
    }
}

@Suite("Clock and animations")
struct ClockTests {
    @Test("frame times never overflow: frame 10¹⁰ at 1 000 fps is 10¹⁶ ns (k × 10⁹ alone would pass Int64), and the far end clamps")
    func frameTimeFullWidth() {
        let fast = Scene(id: "f", size: Size(w: 1, h: 1), clock: .realtime, fps: 1000)
        #expect(fast.frameTime(10_000_000_000) == 10_000_000_000_000_000)
        #expect(fast.frameTime(.max) == .max)
        let usual = Scene(id: "u", size: Size(w: 1, h: 1), clock: .manual, fps: 60)
        #expect(usual.frameTime(60) == 1_000_000_000)
        #expect(usual.frameTime(61) == 1_016_666_666)
        #expect(usual.frameTime(20_000_000_000) == 333_333_333_333_333_333)
    }

    @Test("a manual clock moves in frame steps plus a final partial step, in integer nanoseconds")
    func frameSteps() throws {
        let recorder = EventRecorder()
        let scene = Scene(id: "s", size: Size(w: 100, h: 100), clock: .manual)
        scene.sink = recorder
        let view = try scene.makeView(frame: Rect(x: 0, y: 0, w: 10, h: 10))
        scene.addSubview(view, to: scene.window)
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) { scene.set(view, alpha: 0) }
        scene.advance(by: 1_000_000_000)
        #expect(scene.now == 1_000_000_000)
        let frames = recorder.events.filter { $0.type == "frame" }
        #expect(frames.count == 60)
        scene.advance(by: 10_000_000)  // between frames 60 and 61
        #expect(scene.now == 1_010_000_000)
        scene.step(frames: 1)
        #expect(scene.now == 1_016_666_666)
    }

    @Test("frames nobody listens to are not built, and sequence numbers are the same either way")
    func unheardFrames() throws {
        func run(_ sink: any EventSink) throws -> Scene {
            let scene = Scene(id: "s", size: Size(w: 100, h: 100), clock: .manual)
            scene.sink = sink
            let view = try scene.makeView(frame: Rect(x: 0, y: 0, w: 10, h: 10))
            scene.animate(AnimationOptions(duration: 0.5)) { scene.set(view, alpha: 0) } completion: { _ in
                scene.emit(.log(level: "info", plugin: nil, message: "done"))
            }
            scene.advance(by: 1_000_000_000)
            return scene
        }
        let hearing = EventRecorder(), deaf = FrameDeafRecorder()
        let a = try run(hearing), b = try run(deaf)
        #expect(hearing.events.filter { $0.type == "frame" }.count == 30)
        #expect(deaf.events.filter { $0.type == "frame" }.isEmpty)
        #expect(a.framesEvaluated == 30 && b.framesEvaluated == 30)
        #expect(a.eventSeq == b.eventSeq)
        #expect(hearing.events.first { $0.type == "log" }?.seq == deaf.events.first { $0.type == "log" }?.seq)
    }

    @Test("linear alpha animation: presentation values follow the curve, the model jumps at once")
    func presentationAndModel() throws {
        let scene = Scene(id: "s", size: Size(w: 100, h: 100), clock: .manual)
        let view = try scene.makeView(frame: Rect(x: 0, y: 0, w: 10, h: 10))
        var finished: Bool?
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(view, alpha: 0)
        } completion: { finished = $0 }
        #expect(view.model.alpha == 0)
        #expect(view.presentation.alpha == 1)
        scene.advance(by: 250_000_000)
        #expect(abs(view.presentation.alpha - 0.75) < 1e-9)
        scene.advance(by: 750_000_000)
        #expect(view.presentation.alpha == 0)
        #expect(finished == true)
    }
}
