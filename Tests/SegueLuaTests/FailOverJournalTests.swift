import Testing

@testable import SegueKit
import SegueLua

@Suite("fail-over of a Lua animator")
struct FailOverJournalTests {
    /// Everything a failed call could have changed, by view, in a form two scenes can be compared by.
    func state(of scene: Scene) -> [String] {
        var lines = scene.tree.viewsBySerial.values.sorted { $0.serial < $1.serial }.map { view in
            """
            \(view.id) model \(view.model.channels) presentation \(view.presentation.channels) \
            in \(view.superview?.id ?? "-") subviews \(view.subviews.map(\.id)) hidden \(view.hidden) z \(view.z) \
            animating \(view.animations.map { $0 != nil })
            """
        }
        lines.append("running \(scene.clock.running.count) pending \(scene.clock.pendingCompletions.count) timers \(scene.clock.timers.count)")
        return lines
    }

    @Test("a Lua error after changing views, making views and animating leaves the scene as an error that changed nothing")
    func luaErrorUndoneExactly() throws {
        let vandal = """
            return segue.animator { name = "vandal", duration = function() return 0.5 end, animate = function(ctx)
              local from, to = ctx:view("from"), ctx:view("to")
              ctx.container:add(to)
              from.alpha = 0.25
              from.transform = segue.transform.translate(10, 0)
              local made = segue.view { frame = { x = 1, y = 2, w = 3, h = 4 }, color = "#00ff00" }
              ctx.container:add(made)
              segue.animate({ duration = 0.5 }, function() from.alpha = 0; made.alpha = 0; to.hidden = true end)
              segue.after(0.1, function() from.alpha = 0.5 end)
              error("boom")
            end }
            """
        let clean = """
            return segue.animator { name = "vandal", duration = function() return 0.5 end, animate = function(ctx)
              error("boom")
            end }
            """
        let (s1, c1, _, _, r1) = try sceneWithPlugins(["vandal.lua": vandal])
        let (s2, c2, _, _, r2) = try sceneWithPlugins(["vandal.lua": clean])
        let t1 = try #require(try s1.select(c1, index: 1, animator: "vandal").transition)
        let t2 = try #require(try s2.select(c2, index: 1, animator: "vandal").transition)
        #expect(t1.failedOver && t2.failedOver)
        #expect(state(of: s1) == state(of: s2))
        for _ in 0..<130 {
            s1.step(frames: 1)
            s2.step(frames: 1)
        }
        #expect(state(of: s1) == state(of: s2))
        #expect(t1.state == .completed && t2.state == .completed)
        let frames1 = r1.events.filter { $0.type == "frame" }.map { "\($0)" }
        let frames2 = r2.events.filter { $0.type == "frame" }.map { "\($0)" }
        #expect(frames1 == frames2)
    }
}
