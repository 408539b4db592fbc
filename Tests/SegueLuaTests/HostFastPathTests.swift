import CLuaShim
import SegueKit
import Testing

@testable import SegueLua

/// The host's fast paths (docs/DESIGN.md, the Lua host): `__index` answering methods and a context's constant
/// fields in C, and names decoded by `segue_name_at` instead of Swift strings. Each must answer what the slow path
/// answered, errors included.
@Suite("The Lua host's fast paths answer as the slow ones")
struct HostFastPathTests {
    static let probe = #"""
    local names = { "id", "kind", "animated", "from_index", "to_index", "direction", "container", "duration",
                    "interactive", "cancelled", "presentation_style", "coordinator_x" }
    local function dump(ctx)
      local parts = {}
      for i, k in ipairs(names) do parts[i] = k .. "=" .. tostring(ctx[k]) end
      return table.concat(parts, " ")
    end
    local function try(f)
      local ok, e = pcall(f)
      if ok then return "ok " .. tostring(e) end
      return e
    end
    return segue.animator {
      name = "probe",
      duration = function(ctx) return 0.25 end,
      animate = function(ctx)
        local from, to = ctx:view("from"), ctx:view("to")
        if KEPT then
          -- The previous transition's context (forgotten once it ended) and a view its cancel destroyed.
          segue.log("dead ctx", try(function() return KEPT.id end), try(function() return KEPT.direction end),
            try(function() return KEPT.duration end), type(KEPT.view), try(function() return KEPT:view("from") end))
          segue.log("dead view", try(function() return MADE.frame end), try(function() MADE.alpha = 1 end),
            try(function() MADE:add(to) end), type(MADE.add))
        end
        segue.log("read 1", dump(ctx))
        segue.log("read 2", dump(ctx))
        segue.log("methods", type(ctx.view), type(ctx.complete), type(to.add), type(to.snapshot),
          type(ctx.coordinator), type(ctx.coordinator.alongside))
        segue.log("keys", tostring(ctx[1]), tostring(ctx[string.rep("d", 50)]), tostring(ctx["dir" .. "ection"]),
          tostring(to[1]), tostring(to[true]), to["fr" .. "ame"].w, ctx.container == ctx.container)
        segue.log("sets", try(function() to[1] = 0 end), try(function() to.add = 1 end),
          try(function() to.id = "x" end), try(function() to.frame = 1 end), try(function() to.framee = 1 end),
          try(function() return ctx:view("middle") end))
        KEPT = ctx
        MADE = segue.view { frame = segue.rect(0, 0, 10, 10) }
        ctx.container:add(MADE)
        ctx.container:add(to)
        segue.animate({ duration = ctx.duration }, function() to.alpha = 1 end, function(finished)
          segue.log("at the end", dump(ctx))
          ctx:complete(not ctx.cancelled)
        end)
      end,
    }
    """#

    @Test("every ctx field reads the same through the cache, before and after a cancel; dead proxies raise as before")
    func contextCacheAndErrors() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["probe.lua": HostFastPathTests.probe])
        let t = try #require(try scene.select(container, index: 1, interactive: .percent, animator: "probe").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        try scene.updateTransition(t, percent: 0.3)
        try scene.endInteraction(t, cancel: true)
        scene.advance(by: 1_000_000_000)
        #expect(t.state == .cancelled)
        let t2 = try #require(try scene.select(container, index: 1, animator: "probe").transition)
        #expect(!t2.failedOver, "\(t2.problems.map(\.message))")
        scene.advance(by: 1_000_000_000)
        #expect(t2.state == .completed)

        func fields(_ id: String, interactive: Bool, cancelled: Bool) -> String {
            "id=\(id) kind=select animated=true from_index=0 to_index=1 direction=forward container=view(c.view) "
                + "duration=0.25 interactive=\(interactive) cancelled=\(cancelled) presentation_style=nil coordinator_x=nil"
        }
        let dead = "the transition context is no longer valid (its transition has ended)"
        let keys = "nil nil forward nil nil 320.0 true"
        let sets = "view properties are named by strings views have no property 'add' view.id is read-only "
            + "view.frame expects a rect {x=, y=, w=, h=}, got number ok nil ctx:view(key): key must be \"from\" or \"to\""
        #expect(recorder.messages("log") == [
            "read 1 " + fields(t.id, interactive: true, cancelled: false),
            "read 2 " + fields(t.id, interactive: true, cancelled: false),
            "methods function function function function table function",
            "keys " + keys,
            "sets " + sets,
            "at the end " + fields(t.id, interactive: true, cancelled: true),
            "dead ctx \(dead) \(dead) \(dead) function \(dead)",
            "dead view the view no longer exists the view no longer exists view:add(): the view no longer exists function",
            "read 1 " + fields(t2.id, interactive: false, cancelled: false),
            "read 2 " + fields(t2.id, interactive: false, cancelled: false),
            "methods function function function function table function",
            "keys " + keys,
            "sets " + sets,
            "at the end " + fields(t2.id, interactive: false, cancelled: false),
        ])
        // The unknown property is a warning (once per state), as before.
        #expect(recorder.messages("plugin.warning").filter { $0.contains("framee") }.count == 1)
    }

    @Test("segue_name_at decodes every name, however its string was made, and nothing else")
    func nameDecoding() throws {
        let instance = try makeSandbox()
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        for code in 1..<segue_name_count() {
            let text = PluginInstance.name(code)
            #expect(!text.isEmpty)
            state.push(text)  // a new string from Swift: Lua interns it to the same object
            #expect(state.name(at: -1) == code, "\(text)")
            state.pop()
            // Built by Lua at run time (a concatenation).
            #expect(state.load("return '\(text.prefix(1))' .. '\(text.dropFirst())'", chunkName: "=name") == nil)
            #expect(state.call(args: 0, results: 1, topLevel: true) == nil)
            #expect(state.name(at: -1) == code, "\(text)")
            state.pop()
        }
        for other in ["", "Frame", "frame ", "fram", String(repeating: "frame", count: 10), "view"] {
            state.push(other)
            #expect(state.name(at: -1) == Int32(SEGUE_NAME_NONE.rawValue), "\(other)")
            state.pop()
        }
        state.push(1.0)
        #expect(state.name(at: -1) == -1)
        state.pushNil()
        #expect(state.name(at: -1) == -1)
        state.pop(2)
    }
}
