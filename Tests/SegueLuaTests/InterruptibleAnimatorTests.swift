import SegueKit
import Testing

@testable import SegueLua

/// `interruptible_animator(ctx)` (issue 27 item 2), custom interaction plugins and the coordinator context
/// (item 7), on a manual clock.
@Suite("Interruptible animators, custom interactions, the coordinator context")
struct InterruptibleAnimatorTests {
    static let slide = #"""
    return segue.animator {
      name = "slide",
      duration = function(ctx) return 1 end,
      interruptible_animator = function(ctx)
        segue.log("asked")
        local to = ctx:view("to")
        ctx.container:add(to)
        to.frame = ctx:initial_frame("to")
        local pa = segue.property_animator { duration = 1, curve = "linear" }
        pa:add_animations(function() to.frame = ctx:final_frame("to") end)
        pa:add_completion(function(position)
          segue.log("completion", position)
          ctx:complete(position == "end")
        end)
        return pa
      end,
    }
    """#

    static let ms: Int64 = 1_000_000

    @Test("without animate, the interruptible animator is asked once and started; it completes the transition")
    func runsWithoutAnimate() throws {
        let (scene, c, _, b, recorder) = try sceneWithPlugins(["slide.lua": Self.slide])
        let t = try #require(try scene.select(c, index: 1, animator: "slide").transition)
        #expect(t.interruptibleAnimator != nil)
        scene.advance(to: 500 * Self.ms)
        #expect(abs(b.view.presentation.frame.x - 160) < 1e-6)
        #expect(abs(scene.percent(of: t) - 0.5) < 1e-9)
        scene.advance(to: 1100 * Self.ms)
        #expect(t.state == .completed)
        #expect(recorder.messages("log").filter { $0 == "asked" }.count == 1)
        #expect(recorder.messages("log").contains("completion end"))
    }

    @Test("a transition grabbed mid-flight, scrubbed, reversed and released ends cancelled at the start")
    func grabbedReversedReleased() throws {
        let (scene, c, _, b, recorder) = try sceneWithPlugins(["slide.lua": Self.slide])
        let t = try #require(try scene.select(c, index: 1, animator: "slide").transition)
        scene.advance(to: 400 * Self.ms)
        try scene.pauseTransition(t)
        #expect(t.state == .interactive)
        #expect(t.context?.isInteractive == true)
        // The watchdog waits while the animator is paused.
        scene.advance(to: 60_000 * Self.ms)
        #expect(t.state == .interactive)
        #expect(recorder.types("transition.watchdog").isEmpty)
        try scene.updateTransition(t, percent: 0.3)
        #expect(abs(b.view.presentation.frame.x - 320 * 0.7) < 1e-6)
        try scene.endInteraction(t, cancel: true, speed: 1, curve: .linear)
        #expect(t.state == .cancelling)
        #expect(t.interruptibleAnimator?.isReversed == true)
        scene.advance(to: 60_200 * Self.ms)
        #expect(abs(b.view.presentation.frame.x - 320 * 0.9) < 1e-6)
        scene.advance(to: 60_400 * Self.ms)
        #expect(t.state == .cancelled)
        #expect(c.selectedIndex == 0)
        #expect(recorder.messages("log").contains("completion start"))
    }

    @Test("a spring transition grabbed mid-flight, reversed and released with no curve goes back on its own spring")
    func releasedOnSpring() throws {
        let springy = Self.slide.replacingOccurrences(of: #"curve = "linear""#, with: "spring = { damping = 0.4 }")
            .replacingOccurrences(of: #"name = "slide""#, with: #"name = "springy""#)
        let (scene, c, _, b, _) = try sceneWithPlugins(["springy.lua": springy])
        let t = try #require(try scene.select(c, index: 1, animator: "springy").transition)
        scene.advance(to: 40 * Self.ms)
        try scene.pauseTransition(t)
        let grabbed = b.view.presentation.frame.x
        #expect(grabbed > 0 && grabbed < 320)
        // transition.cancel with no curve: continueAnimation with nil timing keeps the animator's spring.
        try scene.endInteraction(t, cancel: true)
        var highest = grabbed
        var now: Int64 = 40
        while t.state == .cancelling, now < 5000 {
            now += 10
            scene.advance(to: now * Self.ms)
            highest = max(highest, b.view.presentation.frame.x)
        }
        // ease_in_out would be back at 320 in 40 ms (what is left, 0.04, × 1 s) and never pass it; the spring
        // overshoots the start as it overshoots an end (a reversed spring is still a spring).
        #expect(highest > 321, "an underdamped spring overshoots the start (320): \(highest)")
        #expect(now > 400, "the spring's own settling time, not 40 ms of a curve")
        #expect(t.state == .cancelled)
        #expect(c.selectedIndex == 0)
    }

    @Test("started interactive: asked once, paused at 0, finished by continue with the completion speed")
    func interactiveStart() throws {
        let (scene, c, _, _, recorder) = try sceneWithPlugins(["slide.lua": Self.slide])
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "slide").transition)
        #expect(t.state == .interactive)
        #expect(t.interruptibleAnimator?.isRunning == false)
        try scene.updateTransition(t, percent: 0.5)
        try scene.endInteraction(t, cancel: false, speed: 2, curve: .linear)
        scene.advance(to: 200 * Self.ms)
        #expect(t.state == .finishing)
        scene.advance(to: 300 * Self.ms)
        #expect(t.state == .completed)
        #expect(recorder.messages("log").filter { $0 == "asked" }.count == 1)
    }

    @Test("an interruptible_animator returning no property animator fails over with a warning")
    func failsOver() throws {
        let (scene, c, _, _, recorder) = try sceneWithPlugins([
            "bad.lua": """
                return segue.animator {
                  name = "bad",
                  duration = 0.5,
                  interruptible_animator = function(ctx) return { start = function() end } end,
                }
                """,
        ])
        let t = try #require(try scene.select(c, index: 1, animator: "bad").transition)
        scene.advance(to: 2000 * Self.ms)
        #expect(t.state == .completed)
        let warnings = recorder.events.compactMap { event -> String? in
            if case .failedOver(_, _, let reason) = event.payload { return reason }
            return nil
        }.joined(separator: "|")
        #expect(warnings.contains("must return a property animator"), "\(warnings)")
    }

    @Test("a custom interaction plugin drives the transition from start(ctx) with ctx:update and ctx:finish")
    func customInteraction() throws {
        let (scene, c, _, b, _) = try sceneWithPlugins([
            "slide.lua": Self.slide,
            "auto.lua": """
                return segue.interaction {
                  name = "auto",
                  start = function(ctx)
                    ctx:update(0.25)
                    segue.after(0.1, function() ctx:update(0.75); ctx:finish() end)
                  end,
                }
                """,
        ])
        let t = try #require(try scene.select(c, index: 1, interactive: .plugin("auto"), animator: "slide").transition)
        #expect(t.state == .interactive)
        #expect(abs(b.view.presentation.frame.x - 320 * 0.75) < 1e-6)
        scene.advance(to: 100 * Self.ms)
        #expect(t.state == .finishing)
        scene.advance(to: 2000 * Self.ms)
        #expect(t.state == .completed)
    }

    @Test("wants_interactive_start = false: an interactive start runs until the interaction pauses it")
    func noInteractiveStart() throws {
        let (scene, c, _, _, _) = try sceneWithPlugins([
            "slide.lua": Self.slide,
            "late.lua": """
                return segue.interaction {
                  name = "late",
                  wants_interactive_start = false,
                  changed = function(tr, g) end,
                  ended = function(tr, g) end,
                }
                """,
        ])
        let t = try #require(try scene.select(c, index: 1, interactive: .plugin("late"), animator: "slide").transition)
        #expect(t.state == .animating)
        scene.advance(to: 500 * Self.ms)
        #expect(abs(scene.percent(of: t) - 0.5) < 1e-9)
        try scene.pauseTransition(t)
        #expect(t.state == .interactive)
    }

    @Test("the coordinator context during an interactive transition: live fields, locked table, alongside_in")
    func coordinatorContext() throws {
        let (scene, c, _, _, recorder) = try sceneWithPlugins([
            "co.lua": """
                return segue.animator {
                  name = "co",
                  duration = 1,
                  animate = function(ctx)
                    local to = ctx:view("to")
                    ctx.container:add(to)
                    assert(ctx.target_transform.a == 1 and ctx.target_transform.tx == 0)
                    assert(not pcall(function() ctx.target_transform.a = 2 end))
                    ctx.coordinator:alongside(function(cc)
                      segue.log("during", cc.percent_complete, tostring(cc.interactive), tostring(cc.initially_interactive),
                        tostring(cc.interruptible), tostring(cc.cancelled), cc.completion_curve,
                        cc.target_transform.d, getmetatable(cc), tostring(pcall(function() cc.cancelled = true end)))
                      to.alpha = 0.5
                    end, function(cc)
                      segue.log("after", tostring(cc.cancelled), cc.completion_velocity, cc.completion_curve)
                    end)
                    ctx.coordinator:alongside_in(to, function(cc) segue.log("in", cc.percent_complete) end)
                    local ok, e = pcall(function() ctx.coordinator:alongside_in(5, function() end) end)
                    segue.log("in bad", tostring(e))
                    segue.animate({ duration = 1, curve = "linear" }, function() to.alpha = 1 end,
                      function() ctx:complete(not ctx.cancelled) end)
                  end,
                }
                """,
        ])
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "co").transition)
        try scene.updateTransition(t, percent: 0.4)
        try scene.endInteraction(t, cancel: true, speed: 2, curve: .linear)
        scene.advance(to: 3000 * Self.ms)
        #expect(t.state == .cancelled)
        let logs = recorder.messages("log")
        #expect(logs.contains("during 0.0 true true false false ease_in_out 1.0 locked false"), "\(logs)")
        #expect(logs.contains("after true 2.0 linear"), "\(logs)")
        #expect(logs.contains("in 0.0"), "\(logs)")
        #expect(logs.contains { $0.hasPrefix("in bad") && $0.contains("view must be a live view") }, "\(logs)")
    }
}
