import SegueKit
import Testing

@testable import SegueLua

/// The layer's look in Lua (issue 26, item 1): reads give CALayer's defaults, writes set and animate, bad values
/// raise naming the property and the value and write nothing.
@Suite("Layer look in Lua")
struct LayerLookLuaTests {
    @Test("defaults read back, writes set, and a block animates them")
    func readWrite() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "look.lua": """
                return segue.animator { duration = function() return 1 end, animate = function(ctx)
                  local v = ctx:view('to')
                  segue.log(string.format('%g %s %s %g %g %g %g %s', v.border_width, v.border_color, v.shadow_color,
                    v.shadow_opacity, v.shadow_radius, v.shadow_offset.w, v.shadow_offset.h, tostring(v.clips_to_bounds)))
                  v.clips_to_bounds = true
                  segue.animate({duration = 1, curve = 'linear'}, function()
                    v.border_width = 2
                    v.border_color = '#ff0000'
                    v.shadow_opacity = 0.8
                    v.shadow_radius = 10
                    v.shadow_offset = {w = 2, h = 6}
                    v.shadow_color = '#00ff00'
                  end, function() ctx:complete(true) end)
                end }
                """,
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "look").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        #expect(recorder.messages("log").contains { $0.contains("0 #000000 #000000 0 3 0 -3 false") }, "\(recorder.messages("log"))")
        scene.advance(by: 500_000_000)
        let p = b.view.presentation
        #expect(abs(p.borderWidth - 1) < 0.05)
        #expect(abs(p.shadowOpacity - 0.4) < 0.02)
        #expect(p.clipsToBounds)
        scene.advance(by: 600_000_000)
        #expect(b.view.model.shadowOffset == Size(w: 2, h: 6))
        #expect(b.view.model.borderColor == Color(r: 1, g: 0, b: 0, a: 1))
    }

    @Test("a bad value raises naming the property and the value; nothing is written")
    func badValues() throws {
        for (name, value, expected) in [
            ("shadow_radius", "-2", "view.shadow_radius expects a number ≥ 0, got -2"),
            ("border_width", "-1", "view.border_width expects a number ≥ 0, got -1"),
            ("shadow_opacity", "1.5", "view.shadow_opacity expects a number in 0…1, got 1.5"),
            ("shadow_opacity", "0/0", "view.shadow_opacity expects a number in 0…1, got "),
            ("shadow_offset", "{x = 1, y = 2}", "view.shadow_offset expects a size {w=, h=}, got table"),
            ("shadow_offset", "{w = 0/0, h = 2}", "view.shadow_offset expects a size {w=, h=}, got table"),
            ("border_color", "'blue'", "view.border_color expects \"#rrggbb\" or \"#rrggbbaa\", got string"),
            ("clips_to_bounds", "1", "view.clips_to_bounds expects a boolean, got 1"),
        ] {
            let (scene, container, _, b, _) = try sceneWithPlugins([
                "w.lua": """
                    return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                      local ok, err = pcall(function() ctx:view('to').\(name) = \(value) end)
                      assert(not ok)
                      error(err, 0)
                    end }
                    """,
            ])
            let before = b.view.model
            let t = try #require(try scene.select(container, index: 1, animator: "w").transition)
            #expect(t.problems.first?.message.contains(expected) == true, "\(t.problems.first?.message ?? "none")")
            #expect(b.view.model.get(ViewProperty.named(name) ?? .alpha).elementsEqual(before.get(ViewProperty.named(name) ?? .alpha)))
        }
    }

    @Test("a region snapshot is sized to the rect and placed over it; a whole one covers the view")
    func regionSnapshot() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "snap.lua": """
                return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                  local v = ctx:view('to')
                  v.border_width = 3
                  local whole = v:snapshot()
                  local part = v:snapshot({x = 10, y = 20, w = 30, h = 40}, {after_updates = true,
                    cap_insets = {top = 1, left = 1, bottom = 1, right = 1}})
                  local f, g = whole.frame, part.frame
                  segue.log(string.format('whole %g %g %g %g part %g %g %g %g bw %g', f.x, f.y, f.w, f.h,
                    g.x, g.y, g.w, g.h, part.border_width))
                  local n = 0
                  for i = 1, 150 do if v:snapshot({x = 0, y = 0, w = 1, h = 1}) then n = n + 1 end end
                  segue.log('many ' .. n)
                  ctx:complete(true)
                end }
                """,
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "snap").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        let f = b.view.presentation.frame
        let logs = recorder.messages("log")
        let fx = ModelRange.text(f.x), fy = ModelRange.text(f.y)
        #expect(logs.contains("whole \(fx) \(fy) \(ModelRange.text(f.w)) \(ModelRange.text(f.h)) part "
            + "\(ModelRange.text(f.x + 10)) \(ModelRange.text(f.y + 20)) 30 40 bw 3"), "\(logs)")
        #expect(logs.contains("many 150"), "\(logs)")
    }

    @Test("a bad region raises naming the rect: non-finite, negative size, outside the view, bad options")
    func badRegion() throws {
        for (args, expected) in [
            ("{x = 0/0, y = 0, w = 1, h = 1}", "view:snapshot(rect, options): rect must be {x=, y=, w=, h=} of finite numbers"),
            ("{x = 0, y = 0, w = -1, h = 1}", "rect has a negative size: {x=0, y=0, w=-1, h=1}"),
            ("{x = 0, y = 0, w = 5000, h = 1}", "rect {x=0, y=0, w=5000, h=1} is outside the view's bounds"),
            ("{x = 0, y = 0, w = 10, h = 10}, {after_updates = 1}", "options.after_updates must be a boolean"),
            ("{x = 0, y = 0, w = 10, h = 10}, {cap_insets = {top = -1, left = 0, bottom = 0, right = 0}}",
             "options.cap_insets.top must be a finite number ≥ 0"),
            ("'x'", "rect must be {x=, y=, w=, h=} of finite numbers, got string"),
        ] {
            let (scene, container, _, _, _) = try sceneWithPlugins([
                "w.lua": "return segue.animator { duration = function() return 0.1 end, animate = function(ctx) ctx:view('to'):snapshot(\(args)) end }",
            ])
            let t = try #require(try scene.select(container, index: 1, animator: "w").transition)
            #expect(t.problems.first?.message.contains(expected) == true, "\(t.problems.first?.message ?? "none")")
        }
    }
}
