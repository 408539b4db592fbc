import SegueKit
import Testing

@testable import SegueLua

@Suite("Plugin API v1, member by member")
struct APICoverageTests {
    static let source = #"""
    return segue.animator {
      duration = function(ctx) return 0.25 end,
      animate = function(ctx)
        local from, to = ctx:view("from"), ctx:view("to")
        -- the context
        assert(ctx.kind == "select", "kind")
        assert(ctx.from_index == 0 and ctx.to_index == 1, "indices")
        assert(ctx.direction == "forward", "direction")
        assert(ctx.duration == 0.25, "duration")
        assert(ctx.animated == true and ctx.interactive == false and ctx.cancelled == false, "flags")
        assert(ctx.presentation_style == nil, "presentation_style")
        local vf, vt = ctx:vc("from"), ctx:vc("to")
        assert(vf.id == "a" and vt.id == "b" and vf.title == "A" and vf.index == 0 and vt.index == 1, "vc")
        assert(vf.view == from and vt.view == to, "vc.view")
        local c = ctx.container
        assert(c.id == "c.view", "container")
        assert(ctx:initial_frame("from").x == 0 and ctx:final_frame("to").w == 320, "frames")
        assert(ctx:initial_frame("to").x == 320 and ctx:final_frame(vf).x == -320, "seed 000 frames")
        assert(not pcall(function() ctx.kind = "push" end), "ctx is read-only")
        -- views
        c:add(to)
        to.frame = ctx:final_frame("to")
        assert(to.superview == c, "superview")
        local subs = c.subviews
        assert(#subs == 2 and subs[1] == from and subs[2] == to, "subviews")
        from:bring_to_front()
        assert(c.subviews[2] == from, "bring_to_front")
        to:bring_to_front()
        to.bounds = segue.rect(0, 0, 320, 480)
        to.center = { x = 160, y = 240 }
        assert(to.center.x == 160 and to.frame.x == 0, "center")
        to.alpha = 2
        assert(to.alpha == 1, "alpha is clamped")
        to.hidden = true
        assert(to.hidden == true, "hidden")
        to.hidden = false
        to.color = "#ff000080"
        assert(to.color == "#ff000080", "color")
        to.corner_radius = 4
        assert(to.corner_radius == 4, "corner_radius")
        to.corner_radius = 0
        to.z = 2
        assert(to.z == 2, "z")
        to.z = 0
        to.transform = segue.transform.translate(10, 20)
        assert(to.transform.tx == 10 and to.transform.ty == 20, "transform")
        to.transform = segue.transform.identity
        assert(tostring(to) == "view(b.view)", "tostring")
        local v = segue.view { frame = segue.rect(1, 2, 3, 4), color = "#00ff00" }
        assert(v.superview == nil and v.frame.x == 1 and v.color == "#00ff00", "segue.view")
        c:insert(v, 1)
        assert(c.subviews[1] == v, "insert")
        v:remove()
        assert(v.superview == nil and #c.subviews == 2, "remove")
        local shot = to:snapshot()
        assert(shot ~= to and shot.frame.w == 320 and shot.color == "#ff000080" and shot.superview == nil, "snapshot")
        -- geometry
        local r = segue.inset(segue.offset(segue.rect(0, 0, 100, 100), 10, 5), 1, 2, 3, 4)
        assert(r.x == 12 and r.y == 6 and r.w == 94 and r.h == 96, "rect/offset/inset")
        assert(segue.transform.invert(segue.transform.scale(2)).a == 0.5, "invert")
        local cc = segue.transform.concat(segue.transform.scale(2), segue.transform.translate(5, 0))
        assert(cc.a == 2 and cc.tx == 5, "concat")
        assert(math.abs(segue.transform.rotate(math.pi / 2).b - 1) < 1e-12, "rotate")
        assert(segue.transform.perspective(500).m[12] == -1 / 500, "perspective")
        assert(#segue.transform.rotate3d(math.pi, 0, 1, 0).m == 16, "rotate3d")
        local both = segue.transform.concat(segue.transform.perspective(500), segue.transform.rotate3d(0.5, 0, 1, 0))
        to.transform = both
        assert(#to.transform.m == 16, "3-D transform round trip")
        to.transform = segue.transform.identity
        -- the clock, logs, animations
        assert(segue.now() == 0, "now")
        segue.after(0.1, function() segue.log("after at", segue.now()) end)
        to.color = "#007aff"
        to.alpha = 0
        segue.animate({ duration = ctx.duration, curve = { 0.25, 0.1, 0.25, 1 } }, function() to.alpha = 1 end,
          function(finished) segue.log("finished", finished) ctx:complete(not ctx.cancelled) end)
        segue.log("api", "ok", 1, true, nil)
      end,
      ended = function(completed) segue.log("ended", completed) end,
    }
    """#

    @Test("an animator using every ctx, view, geometry, clock and log member runs without a fault")
    func everyMember() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins(["api.lua": APICoverageTests.source])
        let t = try #require(try scene.select(container, index: 1, animator: "api").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        scene.advance(by: 300_000_000)
        #expect(t.state == .completed && !t.forced)
        let logs = recorder.events.filter { $0.type == "log" }.compactMap { $0.payload.message }
        #expect(logs == ["api ok 1 true nil", "after at 0.1", "finished true", "ended true"])
        #expect(container.view.subviews.map(\.id) == [b.view.id])
    }
}
