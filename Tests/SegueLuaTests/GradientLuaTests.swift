import SegueKit
import Testing

@testable import SegueLua

/// `segue.gradient_view` in Lua (issue 26 item 4): the constructor, reads, writes animated by `segue.animate`,
/// keyframes, property animators and `add_animation` (key paths `colors`, `locations`, `startPoint`, `endPoint`),
/// and bad values raising naming the property and the value with nothing written.
@Suite("Gradient views in Lua")
struct GradientLuaTests {
    @Test("segue.gradient_view makes a gradient view; its fields read back; segue.animate animates colours and locations")
    func constructAndAnimate() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "grad.lua": """
                return segue.animator { duration = function() return 1 end, animate = function(ctx)
                  local g = segue.gradient_view { frame = segue.rect(0, 0, 100, 200), colors = {'#ff0000', '#0000ff'},
                    start_point = {x = 0, y = 0}, end_point = {x = 1, y = 0} }
                  ctx.container:add(g)
                  segue.log(string.format('%s %d %s %s %g %g %s %s', g.type, #g.colors, g.colors[1], g.colors[2],
                    g.start_point.x, g.end_point.x, tostring(g.locations), g.color))
                  local plain = segue.view { frame = segue.rect(0, 0, 1, 1) }
                  segue.log('plain ' .. tostring(plain.colors) .. ' ' .. tostring(plain.type))
                  segue.animate({duration = 1, curve = 'linear'}, function()
                    g.colors = {'#00ff00', '#ffffff'}
                    g.locations = {0.2, 0.8}
                    g.end_point = {x = 1, y = 1}
                  end, function() ctx:complete(true) end)
                  _G.g = g
                end }
                """,
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "grad").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        let logs = recorder.messages("log")
        #expect(logs.contains("axial 2 #ff0000 #0000ff 0 1 nil #00000000"), "\(logs)")
        #expect(logs.contains("plain nil nil"), "\(logs)")
        _ = b
        scene.advance(by: 500_000_000)
        let view = try #require(scene.tree(presentation: true).views.flatten().first { $0.model.gradient != nil })
        let g = try #require(view.presentation?.gradient)
        #expect(abs(g.colors[0] - 0.5) < 0.02 && abs(g.colors[1] - 0.5) < 0.02, "\(g.colors)")
        #expect(abs(g.locations[0] - 0.1) < 0.02 && abs(g.endPoint.y - 0.5) < 0.02, "\(g.locations)")
    }

    @Test("a bad value raises naming the property and the value; nothing is written")
    func badValues() throws {
        for (name, value, expected) in [
            ("colors", "{}", "view.colors expects at least one colour, got an empty list"),
            ("colors", "{'#ff0000', 'blue'}", "view.colors[2] expects \"#rrggbb\" or \"#rrggbbaa\", got \"blue\""),
            ("colors", "'#ff0000'", "view.colors expects a list of colours"),
            ("colors", "{'#ff0000'}", "more locations than colours"),
            ("locations", "{0, 1.5}", "view.locations[2] must be in 0…1, got 1.5"),
            ("locations", "{0.6, 0.2}", "view.locations[2] = 0.2 is less than locations[1] = 0.6"),
            ("locations", "{0, 0/0}", "view.locations[2] must be in 0…1, got nan"),
            ("locations", "{0, 0.5, 0.7, 1}", "view.locations has 4 entries but view.colors has 2"),
            ("locations", "{0, 'x'}", "view.locations[2] must be a number in 0…1, got string"),
            ("start_point", "{x = 0/0, y = 0}", "view.start_point expects a point {x=, y=} of finite numbers"),
            ("end_point", "{x = 1, y = 1/0}", "view.end_point expects a point"),
            ("type", "'spiral'", "view.type expects \"axial\", \"radial\" or \"conic\", got \"spiral\""),
        ] {
            let (scene, container, _, _, recorder) = try sceneWithPlugins([
                "w.lua": """
                    return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                      local g = segue.gradient_view { frame = segue.rect(0, 0, 10, 10), colors = {'#000000', '#ffffff'},
                        locations = \(name == "colors" && value == "{'#ff0000'}" ? "{0, 1}" : "nil") }
                      local before = table.concat(g.colors, ',') .. tostring(g.locations and #g.locations) .. g.type
                      local ok, err = pcall(function() g.\(name) = \(value) end)
                      assert(not ok)
                      local after = table.concat(g.colors, ',') .. tostring(g.locations and #g.locations) .. g.type
                      segue.log(before == after and 'unchanged' or 'changed')
                      error(err, 0)
                    end }
                    """,
            ])
            let t = try #require(try scene.select(container, index: 1, animator: "w").transition)
            #expect(t.problems.first?.message.contains(expected) == true, "\(name) = \(value): \(t.problems.first?.message ?? "none")")
            #expect(recorder.messages("log").contains("unchanged"), "\(name) = \(value)")
        }
    }

    @Test("the constructor refuses a missing or bad colour list, an unknown type and a write on a plain view")
    func constructorErrors() throws {
        for (code, expected) in [
            ("local _ = segue.gradient_view { frame = segue.rect(0, 0, 1, 1) }", "segue.gradient_view: colors is required"),
            ("local _ = segue.gradient_view { colors = {'#ff0000'}, type = 'cone' }", "segue.gradient_view: view.type expects"),
            ("local _ = segue.gradient_view { colors = {'#ff0000'}, locations = {0, 1} }", "more locations than colours"),
            ("segue.view { frame = segue.rect(0, 0, 1, 1) }.colors = {'#ff0000'}", "is not a gradient view"),
        ] {
            let (scene, container, _, _, _) = try sceneWithPlugins([
                "ctor.lua": """
                    return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                      \(code)
                    end }
                    """,
            ])
            let t = try #require(try scene.select(container, index: 1, animator: "ctor").transition)
            #expect(t.problems.first?.message.contains(expected) == true, "\(code): \(t.problems.first?.message ?? "none")")
        }
    }

    @Test("keyframes, a property animator and add_animation with CA's key paths animate a gradient")
    func otherDrivers() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "k.lua": """
                return segue.animator { duration = function() return 1 end, animate = function(ctx)
                  local g = segue.gradient_view { frame = segue.rect(0, 0, 100, 100), colors = {'#000000', '#000000'} }
                  ctx.container:add(g)
                  segue.keyframes({duration = 1, curve = 'linear'}, function(add)
                    add(0, 0.5, function() g.colors = {'#ffffff', '#ffffff'} end)
                    add(0.5, 0.5, function() g.colors = {'#000000', '#000000'} end)
                  end)
                  local h = segue.gradient_view { frame = segue.rect(0, 0, 100, 100), colors = {'#000000', '#ffffff'} }
                  ctx.container:add(h)
                  h:add_animation('loc', {key_path = 'locations', from = {0, 0.5}, to = {0.5, 1}, duration = 1})
                  h:add_animation('end', {key_path = 'endPoint', to = {x = 1, y = 1}, duration = 1})
                  local bad = pcall(function() h:add_animation('x', {key_path = 'colors', to = {'#ff0000', 'nope'}, duration = 1}) end)
                  segue.log('bad colours refused ' .. tostring(not bad))
                  local p = segue.property_animator { duration = 1, curve = 'linear' }
                  local k = segue.gradient_view { frame = segue.rect(0, 0, 100, 100), colors = {'#000000'} }
                  ctx.container:add(k)
                  p:add_animations(function() k.colors = {'#ffffff'} end)
                  p:start()
                  segue.after(1, function() ctx:complete(true) end)
                end }
                """,
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "k").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        #expect(recorder.messages("log").contains("bad colours refused true"), "\(recorder.messages("log"))")
        scene.advance(by: 250_000_000)
        let views = scene.tree(presentation: true).views.flatten().compactMap { $0.presentation?.gradient }
        #expect(views.count == 3)
        #expect(abs(views[0].colors[0] - 0.5) < 0.03, "keyframes: \(views[0].colors)")
        #expect(abs(views[1].locations[0] - 0.125) < 0.02, "add_animation: \(views[1].locations)")
        #expect(abs(views[1].endPoint.x - 0.625) < 0.02)
        #expect(abs(views[2].colors[0] - 0.25) < 0.03, "property animator: \(views[2].colors)")
    }
}

extension ViewNode {
    /// This node and every node under it, depth first.
    func flatten() -> [ViewNode] { [self] + subviews.flatMap { $0.flatten() } }
}
