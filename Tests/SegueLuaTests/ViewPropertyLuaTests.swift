import CLuaShim
import SegueKit
import Testing

@testable import SegueLua

/// The Lua edge of the view-property table: names from the table reach the shim, writes are read by kind and
/// admitted by the model range.
@Suite("View properties in Lua")
struct ViewPropertyLuaTests {
    @Test("the shim's property names are the table's Lua names, in raw-value order, after its fixed names")
    func shimNames() throws {
        _ = try makeSandbox()
        #expect(Int(segue_name_count()) == Int(SEGUE_NAME_FIXED_COUNT.rawValue) + ViewProperty.allCases.count)
        for property in ViewProperty.allCases {
            #expect(PluginInstance.name(PluginInstance.name(of: property)) == property.info.luaName)
            #expect(PluginInstance.property(PluginInstance.name(of: property)) == property)
        }
        #expect(PluginInstance.property(Int32(SEGUE_NAME_FRAME.rawValue)) == nil)
        #expect(PluginInstance.viewProperties == ["frame"] + ViewProperty.listed.map(\.name))
    }

    @Test("a write below a property's range raises, naming the range and the value; alpha clamps")
    func ranges() throws {
        let (scene, container, a, _, _) = try sceneWithPlugins([
            "negative.lua": """
                return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                  ctx:view('to').alpha = 2
                  ctx:view('to').corner_radius = -3
                end }
                """,
            "clamped.lua": """
                return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                  local v = ctx:view('to')
                  v.alpha = 2
                  v.corner_radius = 6
                  v.z = 2
                  v.hidden = false
                  segue.log(tostring(v.alpha) .. ' ' .. tostring(v.corner_radius) .. ' ' .. tostring(v.z))
                  ctx:complete(true)
                end }
                """,
        ])
        let failed = try #require(try scene.select(container, index: 1, animator: "negative").transition)
        #expect(failed.failedOver)
        #expect(failed.problems.first?.message.contains("view.corner_radius expects a number ≥ 0, got -3") == true,
                "\(failed.problems.map(\.message))")
        scene.advance(by: 1_100_000_000)
        let clamped = try #require(try scene.select(container, index: 0, animator: "clamped").transition)
        #expect(!clamped.failedOver, "\(clamped.problems.map(\.message))")
        let to = a.view
        #expect(to.model.alpha == 1)
        #expect(to.model.cornerRadius == 6)
        #expect(to.z == 2)
    }

    @Test("every kind of value is refused with what it expects when it is the wrong type")
    func wrongKinds() throws {
        for (name, value, expected) in [
            ("center", "1", "view.center expects a point {x=, y=}, got 1"),
            ("hidden", "1", "view.hidden expects a boolean, got 1"),
            ("color", "'red'", "view.color expects \"#rrggbb\" or \"#rrggbbaa\", got string"),
            ("z", "'x'", "view.z expects a number, got string"),
            ("bounds", "{x=0}", "view.bounds expects a rect {x=, y=, w=, h=}, got table"),
        ] {
            let (scene, container, _, _, _) = try sceneWithPlugins([
                "w.lua": "return segue.animator { duration = function() return 0.1 end, animate = function(ctx) ctx:view('to').\(name) = \(value) end }",
            ])
            let t = try #require(try scene.select(container, index: 1, animator: "w").transition)
            #expect(t.problems.first?.message.contains(expected) == true, "\(t.problems.first?.message ?? "none")")
        }
    }

    @Test("a plugin kind that is none of PluginKind's is refused with the kinds listed")
    func unknownKind() {
        #expect(PluginKind(rawValue: "animatr") == nil)
        #expect(PluginKind.unknown("animatr")
            == "unknown plugin kind 'animatr' (one of animator, interaction, delegate, presentation); the description is ignored")
        #expect(PluginKind.allCases.map(\.withArticle) == ["an animator", "an interaction", "a delegate", "a presentation"])
    }
}
