import SegueKit
import Testing

@testable import SegueLua

/// `segue.property_animator` (UIViewPropertyAnimator, issue 27 item 1) on a manual clock: the UIViewAnimating
/// state machine, scrubbing, reversal, springs, superseding and every bad input.
@Suite("Property animators")
struct PropertyAnimatorTests {
    /// A manual scene and a plugin state bound to it; the Lua global `v` is a view with alpha 0.
    static func setUp() throws -> (Scene, PluginInstance) {
        let scene = Scene(id: "pa", size: Size(w: 320, h: 480), clock: .manual)
        let instance = try PluginInstance(
            source: "return segue.animator { animate = function(ctx) end }", file: "pa.lua", chunkName: "=pa",
            scene: scene, memoryLimit: 8 << 20, instructionBudget: 1_000_000)
        _ = run(instance, "v = segue.view { frame = segue.rect(0, 0, 100, 100) }; v.alpha = 0; log = {}; return v.id")
        return (scene, instance)
    }

    static func alpha(_ scene: Scene, _ instance: PluginInstance) -> Double {
        guard let id = run(instance, "return v.id").value, let view = scene.view(id) else { return .nan }
        return view.presentation.get(.alpha).first ?? .nan
    }

    static func modelAlpha(_ instance: PluginInstance) -> String { run(instance, "return v.alpha").value ?? "?" }

    static func close(_ a: Double, _ b: Double, _ eps: Double = 1e-6) -> Bool { abs(a - b) < eps }

    static let ms: Int64 = 1_000_000

    @Test("start runs the animations on the animator's curve; it ends inactive and calls completions with \"end\"")
    func runsToTheEnd() throws {
        let (scene, lua) = try Self.setUp()
        let setup = run(lua, """
            pa = segue.property_animator { duration = 1, curve = "linear" }
            pa:add_animations(function() v.alpha = 1 end)
            pa:add_completion(function(position) log[#log + 1] = position .. " " .. pa.state end)
            assert(pa.state == "inactive" and pa.running == false and pa.fraction_complete == 0)
            pa:start()
            return pa.state .. " " .. tostring(pa.running)
            """)
        #expect(setup.errorMessage == nil)
        #expect(setup.value == "active true")
        scene.advance(to: 500 * Self.ms)
        #expect(Self.close(Self.alpha(scene, lua), 0.5))
        #expect(run(lua, "return pa.fraction_complete").value == "0.5")
        scene.advance(to: 1100 * Self.ms)
        #expect(Self.alpha(scene, lua) == 1)
        #expect(run(lua, "return table.concat(log, ',') .. ' ' .. pa.state .. ' ' .. tostring(pa.running)").value
            == "end inactive inactive false")
        #expect(Self.modelAlpha(lua) == "1")
    }

    @Test("scrubbing is linear by default; with scrubs_linearly false the animator's curve applies")
    func scrubbing() throws {
        let (scene, lua) = try Self.setUp()
        #expect(run(lua, """
            pa = segue.property_animator { duration = 1, curve = "ease_in" }
            pa:add_animations(function() v.alpha = 1 end)
            assert(pa.scrubs_linearly == true)
            pa:pause()
            pa.fraction_complete = 0.5
            return pa.state .. " " .. tostring(pa.running)
            """).value == "active false")
        #expect(Self.close(Self.alpha(scene, lua), 0.5))
        _ = run(lua, "pa.scrubs_linearly = false; pa.fraction_complete = 0.5")
        #expect(Self.close(Self.alpha(scene, lua), CubicBezier.easeIn.value(at: 0.5)))
        // Paused: the clock does not move it.
        scene.advance(to: 2000 * Self.ms)
        #expect(Self.close(Self.alpha(scene, lua), CubicBezier.easeIn.value(at: 0.5)))
        // Continued: the rest runs over what is left of the duration (0.5 s).
        _ = run(lua, "pa:add_completion(function(p) log[#log + 1] = p end); pa:continue()")
        scene.advance(to: 2400 * Self.ms)
        #expect(run(lua, "return #log").value == "0")
        scene.advance(to: 2600 * Self.ms)
        #expect(run(lua, "return log[1]").value == "end")
        #expect(Self.alpha(scene, lua) == 1)
    }

    @Test("paused, reversed and continued, the animator runs back and ends at \"start\" with the start values")
    func reverses() throws {
        let (scene, lua) = try Self.setUp()
        _ = run(lua, """
            pa = segue.property_animator { duration = 1, curve = "linear" }
            pa:add_animations(function() v.alpha = 1 end)
            pa:add_completion(function(p) log[#log + 1] = p end)
            pa:start()
            """)
        scene.advance(to: 400 * Self.ms)
        #expect(run(lua, "pa:pause(); pa.reversed = true; pa:continue(); return tostring(pa.reversed)").value == "true")
        scene.advance(to: 600 * Self.ms)
        #expect(Self.close(Self.alpha(scene, lua), 0.2))
        scene.advance(to: 900 * Self.ms)
        #expect(run(lua, "return log[1]").value == "start")
        #expect(Self.alpha(scene, lua) == 0)
        #expect(Self.modelAlpha(lua) == "0")
    }

    @Test("a running animator reversed turns round where it is")
    func reversesWhileRunning() throws {
        let (scene, lua) = try Self.setUp()
        _ = run(lua, """
            pa = segue.property_animator { duration = 1, curve = "linear" }
            pa:add_animations(function() v.alpha = 1 end)
            pa:add_completion(function(p) log[#log + 1] = p end)
            pa:start()
            """)
        scene.advance(to: 300 * Self.ms)
        _ = run(lua, "pa.reversed = true")
        scene.advance(to: 400 * Self.ms)
        #expect(Self.close(Self.alpha(scene, lua), 0.2))
        scene.advance(to: 700 * Self.ms)
        #expect(run(lua, "return log[1]").value == "start")
    }

    @Test("a spring paused, reversed and continued settles back at the start")
    func springReversal() throws {
        let (scene, lua) = try Self.setUp()
        _ = run(lua, """
            pa = segue.property_animator { duration = 0.5, spring = { damping = 0.6 } }
            pa:add_animations(function() v.alpha = 1 end)
            pa:add_completion(function(p) log[#log + 1] = p end)
            pa:start()
            """)
        scene.advance(to: 100 * Self.ms)
        let mid = Self.alpha(scene, lua)
        #expect(mid > 0 && mid < 1)
        _ = run(lua, "pa:pause()")
        scene.advance(to: 300 * Self.ms)
        #expect(Self.alpha(scene, lua) == mid)
        _ = run(lua, "pa.reversed = true; pa:continue({ spring = { damping = 1 } }, 2)")
        scene.advance(to: 350 * Self.ms)
        #expect(Self.alpha(scene, lua) < mid)
        scene.advance(to: 1400 * Self.ms)
        #expect(run(lua, "return log[1]").value == "start")
        #expect(Self.alpha(scene, lua) == 0)
    }

    @Test("spring = \"system\" is accepted")
    func systemSpring() throws {
        let (scene, lua) = try Self.setUp()
        #expect(run(lua, """
            pa = segue.property_animator { duration = 0.5, spring = "system" }
            pa:add_animations(function() v.alpha = 1 end)
            pa:add_completion(function(p) log[#log + 1] = p end)
            pa:start()
            return pa.state
            """).value == "active")
        scene.advance(to: 3000 * Self.ms)
        #expect(run(lua, "return log[1]").value == "end")
    }

    @Test("delay_factor starts an animation after that share of the duration")
    func delayFactor() throws {
        let (scene, lua) = try Self.setUp()
        _ = run(lua, """
            pa = segue.property_animator { duration = 1, curve = "linear" }
            pa:add_animations(function() v.alpha = 1 end, 0.5)
            pa:start()
            """)
        scene.advance(to: 250 * Self.ms)
        #expect(Self.alpha(scene, lua) == 0)
        scene.advance(to: 750 * Self.ms)
        #expect(Self.close(Self.alpha(scene, lua), 0.5))
    }

    @Test("pauses_on_completion: at the end it stays active and paused, no completion runs")
    func pausesOnCompletion() throws {
        let (scene, lua) = try Self.setUp()
        _ = run(lua, """
            pa = segue.property_animator { duration = 0.2, curve = "linear" }
            pa.pauses_on_completion = true
            pa:add_animations(function() v.alpha = 1 end)
            pa:add_completion(function(p) log[#log + 1] = p end)
            pa:start()
            """)
        scene.advance(to: 500 * Self.ms)
        #expect(run(lua, "return pa.state .. ' ' .. tostring(pa.running) .. ' ' .. #log .. ' ' .. pa.fraction_complete").value
            == "active false 0 1.0")
        // Reversed and continued from the end, it runs back.
        _ = run(lua, "pa.pauses_on_completion = false; pa.reversed = true; pa:continue()")
        scene.advance(to: 800 * Self.ms)
        #expect(run(lua, "return log[1]").value == "start")
    }

    @Test("stop(false) then finish(\"current\") keeps what is shown; stop(true) ends it with no completion")
    func stopAndFinish() throws {
        let (scene, lua) = try Self.setUp()
        _ = run(lua, """
            pa = segue.property_animator { duration = 1, curve = "linear" }
            pa:add_animations(function() v.alpha = 1 end)
            pa:add_completion(function(p) log[#log + 1] = p end)
            pa:start()
            """)
        scene.advance(to: 250 * Self.ms)
        #expect(run(lua, "pa:stop(false); return pa.state .. ' ' .. tostring(pa.running)").value == "stopped false")
        #expect(Self.modelAlpha(lua) == "0.25")
        scene.advance(to: 600 * Self.ms)
        #expect(Self.close(Self.alpha(scene, lua), 0.25))
        #expect(run(lua, "pa:finish('current'); return pa.state .. ' ' .. log[1]").value == "inactive current")
        #expect(Self.close(Self.alpha(scene, lua), 0.25))

        _ = run(lua, """
            pb = segue.property_animator { duration = 1, curve = "linear" }
            pb:add_animations(function() v.alpha = 1 end)
            pb:add_completion(function(p) log[#log + 1] = "pb " .. p end)
            pb:start()
            """)
        scene.advance(to: 1100 * Self.ms)
        #expect(run(lua, "pb:stop(true); return pb.state .. ' ' .. #log").value == "inactive 1")
        scene.advance(to: 3000 * Self.ms)
        #expect(run(lua, "return #log").value == "1")
        #expect(Self.close(Self.alpha(scene, lua), 0.25 + 0.75 * 0.5))
    }

    @Test("finish at \"end\" and \"start\" from stopped puts the end or the start values")
    func finishPositions() throws {
        let (scene, lua) = try Self.setUp()
        _ = run(lua, """
            pa = segue.property_animator { duration = 1, curve = "linear" }
            pa:add_animations(function() v.alpha = 1 end)
            pa:start()
            """)
        scene.advance(to: 300 * Self.ms)
        _ = run(lua, "pa:stop(false); pa:finish('end')")
        #expect(Self.alpha(scene, lua) == 1)
        _ = run(lua, """
            pa = segue.property_animator { duration = 1, curve = "linear" }
            pa:add_animations(function() v.alpha = 0.5 end)
            pa:start()
            """)
        scene.advance(to: 600 * Self.ms)
        _ = run(lua, "pa:stop(false); pa:finish('start')")
        #expect(Self.alpha(scene, lua) == 1)
        #expect(Self.modelAlpha(lua) == "1")
    }

    /// Each call in each state: "ok" or the error's text.
    static let matrix = #"""
    local function try(f) local ok, e = pcall(f) return ok and "ok" or tostring(e) end
    local function make(state)
      local pa = segue.property_animator { duration = 1, curve = "linear" }
      pa:add_animations(function() v.alpha = 1 end)
      if state == "running" then pa:start()
      elseif state == "paused" then pa:pause()
      elseif state == "stopped" then pa:start(); pa:stop(false) end
      return pa
    end
    local calls = {
      start = function(pa) pa:start() end,
      pause = function(pa) pa:pause() end,
      continue = function(pa) pa:continue() end,
      stop_false = function(pa) pa:stop(false) end,
      stop_true = function(pa) pa:stop(true) end,
      finish = function(pa) pa:finish("end") end,
      reversed = function(pa) pa.reversed = true end,
      fraction = function(pa) pa.fraction_complete = 0.5 end,
      interruptible = function(pa) pa.interruptible = false end,
      add_animations = function(pa) pa:add_animations(function() end) end,
      add_completion = function(pa) pa:add_completion(function() end) end,
    }
    local names = {}
    for k in pairs(calls) do names[#names + 1] = k end
    table.sort(names)
    local out = {}
    for _, state in ipairs({ "inactive", "running", "paused", "stopped" }) do
      for _, name in ipairs(names) do
        local pa = make(state)
        local r = try(function() calls[name](pa) end)
        out[#out + 1] = state .. "." .. name .. "=" .. r .. "->" .. pa.state
      end
    end
    return table.concat(out, "\n")
    """#

    @Test("every call in every state: legal ones move the state machine, illegal ones raise naming the state")
    func stateMachine() throws {
        let (scene, lua) = try Self.setUp()
        defer { withExtendedLifetime(scene) {} }
        let lines = (run(lua, Self.matrix).value ?? "").split(separator: "\n").map(String.init)
        var table: [String: String] = [:]
        for line in lines {
            let parts = line.split(separator: "=", maxSplits: 1).map(String.init)
            table[parts[0]] = parts[1]
        }
        func ok(_ key: String, _ state: String) {
            #expect(table[key] == "ok->\(state)", "\(key): \(table[key] ?? "missing")")
        }
        func fails(_ key: String, _ text: String, _ state: String) {
            let r = table[key] ?? ""
            #expect(r.contains(text) && r.hasSuffix("->\(state)"), "\(key): \(r)")
        }
        ok("inactive.start", "active")
        ok("inactive.pause", "active")
        ok("inactive.continue", "active")
        ok("inactive.stop_false", "inactive")
        ok("inactive.stop_true", "inactive")
        fails("inactive.finish", "is inactive, not stopped", "inactive")
        ok("inactive.reversed", "inactive")
        ok("inactive.fraction", "active")
        ok("inactive.interruptible", "inactive")
        ok("inactive.add_animations", "inactive")
        ok("inactive.add_completion", "inactive")
        ok("running.start", "active")
        ok("running.pause", "active")
        ok("running.continue", "active")
        ok("running.stop_false", "stopped")
        ok("running.stop_true", "inactive")
        fails("running.finish", "is active, not stopped", "active")
        // Reversed at fraction 0, it has nothing to run back: it ends at the start at once.
        ok("running.reversed", "inactive")
        fails("running.fraction", "running (pause it first)", "active")
        fails("running.interruptible", "only while inactive, the animator is active", "active")
        ok("running.add_animations", "active")
        ok("paused.start", "active")
        ok("paused.fraction", "active")
        ok("paused.stop_false", "stopped")
        fails("paused.finish", "is active, not stopped", "active")
        fails("stopped.start", "stopped", "stopped")
        fails("stopped.pause", "stopped", "stopped")
        fails("stopped.continue", "stopped", "stopped")
        fails("stopped.stop_false", "already stopped", "stopped")
        fails("stopped.stop_true", "already stopped", "stopped")
        ok("stopped.finish", "inactive")
        fails("stopped.reversed", "stopped", "stopped")
        fails("stopped.fraction", "stopped", "stopped")
        fails("stopped.add_animations", "stopped", "stopped")
        ok("stopped.add_completion", "stopped")
        #expect(lines.count == 44)
    }

    @Test("bad input: clear errors, nothing started")
    func badInput() throws {
        let (scene, lua) = try Self.setUp()
        func error(_ code: String) -> String {
            run(lua, "pa = segue.property_animator { duration = 1 }; pa:add_animations(function() v.alpha = 1 end)\n"
                + code).errorMessage ?? "(no error)"
        }
        #expect(error("pa:pause(); pa:continue(nil, 0)").contains("duration_factor must be a finite number > 0, got 0"))
        #expect(error("pa:pause(); pa:continue(nil, -1)").contains("duration_factor must be a finite number > 0"))
        #expect(error("pa:pause(); pa:continue(nil, 0/0)").contains("duration_factor must be a finite number > 0"))
        #expect(error("pa:pause(); pa:continue(nil, math.huge)").contains("duration_factor must be a finite number > 0"))
        #expect(error("pa:pause(); pa:continue(nil, 'x')").contains("duration_factor"))
        #expect(error("pa:pause(); pa:continue(5)").contains("timing must be"))
        #expect(error("pa:pause(); pa.fraction_complete = 1.5").contains("fraction_complete must be a number in 0…1, got 1.5"))
        #expect(error("pa:pause(); pa.fraction_complete = -0.1").contains("0…1"))
        #expect(error("pa:start(); pa:stop(false); pa:finish('middle')").contains("at must be \"end\", \"start\" or \"current\", got 'middle'"))
        #expect(error("pa:start(); pa:stop(false); pa:finish()").contains("at must be"))
        #expect(error("pa:start(-1)").contains("after must be a number ≥ 0"))
        #expect(error("pa:add_animations(function() end, 2)").contains("delay_factor must be a number in 0…1"))
        #expect(error("pa:add_animations(5)").contains("fn must be a function"))
        #expect(error("pa:add_completion('x')").contains("fn must be a function"))
        #expect(error("pa:stop()").contains("without_finishing must be a boolean"))
        #expect(error("pa.start()").contains("call it with a colon"))
        #expect(error("pa.state = 'active'").contains("pa.state is read-only"))
        #expect(error("pa.bogus = 1").contains("no field 'bogus'"))
        #expect(error("pa.interruptible = false; pa:start(); pa:pause()").contains("not interruptible"))
        #expect(run(lua, "segue.property_animator(5)").errorMessage?.contains("expects a table") == true)
        #expect(run(lua, "segue.property_animator { }").errorMessage?.contains("duration must be a number ≥ 0") == true)
        #expect(run(lua, "segue.property_animator { duration = 1, curve = { 2, 0, 0, 1 } }").errorMessage?
            .contains("curve x1 and x2 must lie in 0…1") == true)
        #expect(run(lua, "segue.property_animator { duration = 1, spring = 'bouncy' }").errorMessage?
            .contains("spring must be a table or \"system\"") == true)
        // Nothing of the refused calls started.
        scene.advance(to: 2000 * Self.ms)
        #expect(Self.alpha(scene, lua) == 0 || Self.alpha(scene, lua) == 1)
    }

    @Test("an add_animations block that raises reports the error to the caller")
    func blockRaises() throws {
        let (scene, lua) = try Self.setUp()
        defer { withExtendedLifetime(scene) {} }
        let message = run(lua, """
            pa = segue.property_animator { duration = 1 }
            pa:add_animations(function() error("boom") end)
            pa:start()
            """).errorMessage ?? ""
        #expect(message.contains("boom"))
    }

    @Test("calls UIKit forbids from inside the animator's own completion raise; a fresh start of another is fine")
    func insideCompletion() throws {
        let (scene, lua) = try Self.setUp()
        _ = run(lua, """
            pa = segue.property_animator { duration = 0.1, curve = "linear" }
            pa:add_animations(function() v.alpha = 1 end)
            pa:add_completion(function(p)
              local ok, e = pcall(function() pa:start() end)
              log[#log + 1] = tostring(e)
              ok, e = pcall(function() pa:finish("end") end)
              log[#log + 1] = tostring(e)
            end)
            pa:start()
            """)
        scene.advance(to: 300 * Self.ms)
        let out = run(lua, "return table.concat(log, '|')").value ?? ""
        #expect(out.contains("start: not allowed inside the animator's own completion"))
        #expect(out.contains("finish: not allowed inside the animator's own completion"))
    }

    @Test("a property animator's animation supersedes a running segue.animate of the property, and the reverse")
    func supersedes() throws {
        let (scene, lua) = try Self.setUp()
        _ = run(lua, """
            segue.animate({ duration = 1, curve = "linear" }, function() v.alpha = 1 end,
              function(finished) log[#log + 1] = "animate " .. tostring(finished) end)
            """)
        scene.advance(to: 500 * Self.ms)
        _ = run(lua, """
            pa = segue.property_animator { duration = 1, curve = "linear" }
            pa:add_animations(function() v.alpha = 0 end)
            pa:add_completion(function(p) log[#log + 1] = "pa " .. p end)
            pa:start()
            """)
        scene.advance(to: 1000 * Self.ms)
        #expect(Self.close(Self.alpha(scene, lua), 0.25))
        #expect(run(lua, "return log[1]").value == "animate false")
        _ = run(lua, "segue.animate({ duration = 0.2, curve = 'linear' }, function() v.alpha = 1 end)")
        scene.advance(to: 1300 * Self.ms)
        #expect(Self.alpha(scene, lua) == 1)
        scene.advance(to: 2000 * Self.ms)
        #expect(run(lua, "return log[2]").value == "pa end")
        #expect(Self.alpha(scene, lua) == 1)
    }

    @Test("a property animator whose scene is gone refuses every call")
    func sceneGone() throws {
        var scene: Scene? = Scene(id: "gone", size: Size(w: 320, h: 480), clock: .manual)
        let lua = try PluginInstance(
            source: "return segue.animator { animate = function(ctx) end }", file: "pa.lua", chunkName: "=pa",
            scene: scene, memoryLimit: 8 << 20, instructionBudget: 1_000_000)
        _ = run(lua, "pa = segue.property_animator { duration = 1 }")
        _ = scene
        scene = nil
        #expect(run(lua, "pa:start()").errorMessage?.contains("the property animator's scene is gone") == true)
        #expect(run(lua, "pa:add_animations(function() end)").errorMessage?.contains("scene is gone") == true)
        #expect(run(lua, "segue.property_animator { duration = 1 }").errorMessage?.contains("no scene") == true)
    }

    @Test("the animator table is locked as ctx is")
    func locked() throws {
        let (scene, lua) = try Self.setUp()
        defer { withExtendedLifetime(scene) {} }
        #expect(run(lua, "pa = segue.property_animator { duration = 1 }; return getmetatable(pa)").value == "locked")
        #expect(run(lua, "rawset(pa, 'x', 1)").errorMessage?.contains("locked") == true)
        #expect(run(lua, "setmetatable(pa, {})").errorMessage != nil)
    }
}
