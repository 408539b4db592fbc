import SegueKit
import Testing

@testable import SegueLua

/// Host tables a plugin is handed are locked as `ctx` and views are (issue 23): `ctx.coordinator` (and
/// `pc.coordinator`, `tr`, `pc`) cannot be put behind another metatable or written with rawset; a model write of a
/// negative width or height raises, naming the property and the value, and does not happen.
@Suite("Host tables are locked; negative sizes raise")
struct HostTableLockTests {
    static let probe = #"""
    local function try(f)
      local ok, e = pcall(f)
      if ok then return "ok" end
      return "err " .. tostring(e)
    end
    return segue.animator {
      duration = 0.2,
      animate = function(ctx)
        local to = ctx:view("to")
        ctx.container:add(to)
        local co = ctx.coordinator
        segue.log("coordinator setmetatable", try(function() setmetatable(co, {}) end))
        segue.log("coordinator getmetatable", tostring(getmetatable(co)))
        segue.log("coordinator rawset", try(function() rawset(co, "alongside", 1) end))
        segue.log("coordinator rawset new", try(function() rawset(co, "x", 1) end))
        segue.log("coordinator write", try(function() co.alongside = function() end end))
        segue.log("coordinator write new", try(function() co.extra = 1 end))
        segue.log("coordinator methods", type(co.alongside), type(co.on_interaction_change))
        local keys = {}
        for k in pairs(co) do keys[#keys + 1] = k end
        table.sort(keys)
        segue.log("coordinator pairs", table.concat(keys, ","))
        segue.log("ctx setmetatable", try(function() setmetatable(ctx, {}) end))
        segue.log("view rawset", try(function() rawset(to, "alpha", 1) end))
        segue.log("own table rawset", try(function() local t = {} rawset(t, "a", 1) return t.a end))
        local before = to.frame
        segue.log("w -5", try(function() to.frame = { x = 0, y = 0, w = -5, h = 10 } end))
        segue.log("h -0.5", try(function() to.frame = { x = 0, y = 0, w = 5, h = -0.5 } end))
        segue.log("bounds w -1", try(function() to.bounds = { x = 0, y = 0, w = -1, h = 1 } end))
        segue.log("frame kept", to.frame.w == before.w and to.frame.h == before.h)
        segue.log("w 0", try(function() to.frame = { x = 0, y = 0, w = 0, h = 0 } end))
        segue.log("new view w -5", try(function() segue.view { frame = { x = 0, y = 0, w = -5, h = 1 } } end))
        segue.log("animated w -5", try(function()
          segue.animate({ duration = 0.1 }, function() to.frame = { x = 0, y = 0, w = -5, h = 1 } end)
        end))
        segue.animate({ duration = 0.2 }, function() to.alpha = 1 end, function() ctx:complete(true) end)
      end,
    }
    """#

    @Test("ctx.coordinator refuses setmetatable, rawset and writes; a negative w or h is an error naming it")
    func locked() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["probe.lua": HostTableLockTests.probe])
        _ = try scene.select(container, index: 1, animator: "probe")
        let logs = recorder.messages("log")
        func line(_ tag: String) -> String {
            logs.first { $0.hasPrefix(tag + " ") }.map { String($0.dropFirst(tag.count + 1)) } ?? "(none)"
        }
        #expect(line("coordinator setmetatable").contains("protected metatable"))
        #expect(line("coordinator getmetatable") == "locked")
        #expect(line("coordinator rawset").contains("locked"))
        #expect(line("coordinator rawset new").contains("locked"))
        #expect(line("coordinator write").contains("read-only"))
        #expect(line("coordinator write new").contains("read-only"))
        #expect(line("coordinator methods") == "function function")
        #expect(line("coordinator pairs") == "alongside,alongside_in,on_interaction_change")
        #expect(line("ctx setmetatable").hasPrefix("err "))
        #expect(line("view rawset").hasPrefix("err "))
        #expect(line("own table rawset") == "ok")
        #expect(line("w -5").contains("view.frame.w must be ≥ 0, got -5"))
        #expect(line("h -0.5").contains("view.frame.h must be ≥ 0, got -0.5"))
        #expect(line("bounds w -1").contains("view.bounds.w must be ≥ 0, got -1"))
        #expect(line("frame kept") == "true")
        #expect(line("w 0") == "ok")
        #expect(line("new view w -5").contains("view.frame.w must be ≥ 0, got -5"))
        #expect(line("animated w -5").contains("view.frame.w must be ≥ 0"))
    }

    @Test("pc and tr (and pc.coordinator) are locked too: no setmetatable, no rawset; unknown fields still kept")
    func presentationAndInteraction() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "pc.lua": #"""
                local function try(f)
                  local ok, e = pcall(f)
                  return ok and "ok" or ("err " .. tostring(e))
                end
                return segue.presentation {
                  frame_of_presented_view = function(pc) return { x = 0, y = 100, w = 320, h = 380 } end,
                  will_begin = function(pc)
                    segue.log("pc setmetatable", try(function() setmetatable(pc, {}) end))
                    segue.log("pc rawset", try(function() rawset(pc, "x", 1) end))
                    segue.log("pc state rawset", try(function() rawset(pc.state, "x", 1) end))
                    if pc.coordinator then
                      segue.log("pc coordinator", try(function() setmetatable(pc.coordinator, {}) end))
                    end
                  end,
                }
                """#,
        ])
        let modal = try scene.createViewController(id: "m", title: "M", color: nil)
        _ = try scene.present(modal, from: container, style: .custom, presentation: "pc", animated: true)
        let logs = recorder.messages("log")
        #expect(logs.contains { $0.hasPrefix("pc setmetatable err") && $0.contains("protected") }, "\(logs)")
        #expect(logs.contains { $0.hasPrefix("pc rawset err") && $0.contains("locked") }, "\(logs)")
        #expect(logs.contains("pc state rawset ok"), "\(logs)")
        #expect(!logs.contains { $0.hasPrefix("pc coordinator ok") }, "\(logs)")
    }
}
