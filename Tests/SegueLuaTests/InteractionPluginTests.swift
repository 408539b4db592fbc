import Foundation
import SegueJSON
import SegueKit
import Testing

@testable import SegueLua

let fadeAnimator = """
    return segue.animator {
      name = "fade",
      duration = function(ctx) return 1 end,
      animate = function(ctx)
        local to = ctx:view("to")
        ctx.container:add(to)
        to.alpha = 0
        ctx.coordinator:on_interaction_change(function(info)
          segue.log("interaction ended", info.cancelled, info.completion_velocity)
        end)
        segue.animate({ duration = 1, curve = "linear" }, function() to.alpha = 1 end,
          function() ctx:complete(not ctx.cancelled) end)
      end,
    }
    """

@Suite("Interaction and presentation plugins in Lua")
struct InteractionPluginTests {
    @Test("an interaction plugin scrubs with tr.update, keeps tr.state, and finishes with its completion speed")
    func drivesTransition() throws {
        let (scene, c, _, b, recorder) = try sceneWithPlugins([
            "fade.lua": fadeAnimator,
            "drag.lua": """
                return segue.interaction {
                  name = "drag",
                  began = function(tr, g) tr.state.count = 0 end,
                  changed = function(tr, g) tr.state.count = tr.state.count + 1; tr.update(g.translation.x / 100) end,
                  ended = function(tr, g)
                    segue.log("changes", tr.state.count, tr.kind, tr.container.bounds.w)
                    if tr.percent > 0.5 then tr.finish() else tr.cancel() end
                  end,
                  completion_speed = function(tr) return 4 end,
                  completion_curve = function(tr) return "linear" end,
                }
                """,
        ])
        let t = try #require(try scene.select(c, index: 1, interactive: .plugin("drag"), animator: "fade").transition)
        #expect(t.interactionName == "drag")
        try scene.pan(t, PanGesture(phase: .began, translation: .zero, velocity: .zero))
        try scene.pan(t, PanGesture(phase: .changed, translation: Point(x: 30, y: 0), velocity: .zero))
        #expect(abs(b.view.presentation.alpha - 0.3) < 1e-9)
        try scene.pan(t, PanGesture(phase: .changed, translation: Point(x: 60, y: 0), velocity: .zero))
        try scene.pan(t, PanGesture(phase: .ended, translation: Point(x: 60, y: 0), velocity: .zero))
        #expect(t.state == .finishing)
        #expect(t.completionSpeed == 4)
        let logs = recorder.events.filter { $0.type == "log" }.compactMap { $0.payload.message }
        #expect(logs.contains("changes 2 select 320.0"))
        #expect(logs.contains("interaction ended false 4.0"))
        scene.advance(by: 100_000_000)  // 0.4 of the duration at speed 4
        #expect(t.state == .completed)
        #expect(c.selectedIndex == 1)
    }

    @Test("an interaction plugin that raises is reported and the transition cancelled; the tree is as before")
    func raising() throws {
        let (scene, c, _, _, recorder) = try sceneWithPlugins([
            "fade.lua": fadeAnimator,
            "bad.lua": """
                return segue.interaction {
                  name = "bad",
                  changed = function(tr, g) error("finger slipped") end,
                  ended = function(tr, g) end,
                  completion_speed = function(tr) return -1 end,
                }
                """,
        ])
        let before = scene.tree(presentation: true)
        let t = try #require(try scene.select(c, index: 1, interactive: .plugin("bad"), animator: "fade").transition)
        try scene.pan(t, PanGesture(phase: .changed, translation: Point(x: 30, y: 0), velocity: .zero))
        #expect(t.state == .cancelled)  // at percent 0 the backward ramp has no length: it ends at once
        let warnings = recorder.events.filter { $0.type == "plugin.warning" }.compactMap { $0.payload.message }
        #expect(warnings.contains { $0.contains("finger slipped") })
        #expect(warnings.contains { $0.contains("completion_speed returned -1") })
        scene.advance(by: 1_000_000_000)
        #expect(t.state == .cancelled)
        #expect(scene.tree(presentation: true) == before)

        // ended that neither finishes nor cancels: cancelled under half-way, with a warning.
        let t2 = try #require(try scene.select(c, index: 1, interactive: .plugin("bad"), animator: "fade").transition)
        try scene.pan(t2, PanGesture(phase: .ended, translation: .zero, velocity: .zero))
        #expect(t2.state == .cancelled)
        #expect(recorder.events.contains { $0.type == "plugin.warning" && ($0.payload.message ?? "").contains("left transition") })
    }

    @Test("a presentation plugin whose callbacks raise is reported; the presentation still ends consistent")
    func raisingPresentation() throws {
        let (scene, c, _, _, recorder) = try sceneWithPlugins([
            "fade.lua": fadeAnimator,
            "broken.lua": """
                return segue.presentation {
                  name = "broken",
                  frame_of_presented_view = function(pc) return { x = 10, y = 10, w = 100, h = 100 } end,
                  will_begin = function(pc) error("no chrome today") end,
                  did_end = function(pc, completed) error("still broken") end,
                  layout = function(pc) error("cannot layout") end,
                }
                """,
        ])
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        let t = try #require(try scene.present(m, from: c, style: nil, presentation: "broken", animator: "fade").transition)
        #expect(t.context?.finalFrame(for: m) == Rect(x: 10, y: 10, w: 100, h: 100))
        // A resize waits for the transition (-32002 while it runs: a size transition does not overlap one).
        #expect(throws: EngineError.self) { try scene.resize(to: Size(w: 400, h: 400)) }
        scene.advance(by: 1_100_000_000)
        try scene.resize(to: Size(w: 400, h: 400))
        #expect(t.state == .completed)
        #expect(m.presentation?.style == .custom)
        #expect(m.view.superview?.id == "m.presentation")
        let warnings = recorder.events.filter { $0.type == "plugin.warning" }.compactMap { $0.payload.message }
        #expect(warnings.contains { $0.contains("no chrome today") })
        #expect(warnings.contains { $0.contains("still broken") })
        #expect(warnings.contains { $0.contains("cannot layout") })
        // The presenter stayed (custom) and got no appearance calls.
        #expect(c.appearance == .appeared)
        #expect(c.view.superview === scene.window)
    }

    @Test("an interactive presentation cancelled at 0.3 leaves no trace; finished at 0.7 it is presented")
    func interactivePresent() throws {
        let (scene, c, _, _, recorder) = try sceneWithPlugins(["fade.lua": fadeAnimator])
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        let before = scene.tree(presentation: true)
        let t = try #require(try scene.present(m, from: c, style: .fullScreen, interactive: .percent, animator: "fade").transition)
        try scene.updateTransition(t, percent: 0.3)
        try scene.endInteraction(t, cancel: true)
        scene.advance(by: 1_000_000_000)
        #expect(t.state == .cancelled)
        #expect(scene.tree(presentation: true) == before)
        #expect(m.presentation == nil && c.presentedViewController == nil)
        let lifecycle = recorder.events.filter { $0.type.hasPrefix("vc.") }.map { "\($0.type.dropFirst(3)) \($0.payload.vc ?? "")" }
        #expect(lifecycle == [
            "view_will_disappear c", "view_will_disappear a", "view_will_appear m",
            "view_will_disappear m", "view_did_disappear m", "view_will_appear c", "view_will_appear a",
            "view_did_appear c", "view_did_appear a",
        ])
        let t2 = try #require(try scene.present(m, from: c, style: .fullScreen, interactive: .percent, animator: "fade").transition)
        try scene.updateTransition(t2, percent: 0.7)
        try scene.endInteraction(t2, cancel: false)
        scene.advance(by: 1_000_000_000)
        #expect(t2.state == .completed)
        #expect(m.presentation != nil && c.view.superview == nil)
        #expect(m.appearance == .appeared && c.appearance == .disappeared)
    }
}
