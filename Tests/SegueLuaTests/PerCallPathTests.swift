import CLuaShim
import SegueKit
import Testing

@testable import SegueLua

/// The per-call path's shortcuts (docs/DESIGN.md, "The per-call path"): the views a plugin used last found without
/// the scene's table, a whole transform read straight into the written values, a callback's described call kept by
/// name and line. Each must answer what the long way answers, dead views and bad values included.
@Suite("The per-call path's shortcuts answer as the long way")
struct PerCallPathTests {
    static let plugin = #"""
    local function try(f)
      local ok, e = pcall(f)
      if ok then return "ok" end
      return e
    end
    local round = 0
    return segue.animator {
      name = "recent",
      duration = function(ctx) return 0.25 end,
      animate = function(ctx)
        round = round + 1
        local from, to = ctx:view("from"), ctx:view("to")
        if MADE then
          -- The view the last completion wrote just before its cancel destroyed it: the last view found.
          segue.log("dead", try(function() MADE.alpha = 1 end), try(function() return MADE.frame end),
            try(function() MADE:add(to) end), try(function() to:add(MADE) end))
        end
        ctx.container:add(to)
        to.transform = { a = 2, b = 0, c = 0, d = 2, tx = 5, ty = -3 }
        local m = {}
        for i = 1, 16 do m[i] = (i == 1 or i == 6 or i == 11 or i == 16) and 1 or 0 end
        m[4] = -0.002
        from.transform = { m = m }
        segue.log("written", to.transform.a, to.transform.d, to.transform.tx, to.transform.ty,
          from.transform.m and from.transform.m[4])
        segue.log("refused", try(function() to.transform = { a = 1, b = 0, c = 0, d = 1, tx = 0 / 0, ty = 0 } end),
          try(function() to.transform = { m = { 1, 2, 3 } } end), try(function() to.transform = "identit" end),
          try(function() to.transform = 7 end))
        to.transform = "identity"
        segue.log("identity", to.transform.a, to.transform.b, to.transform.tx, to.transform.m == nil)
        MADE = segue.view { frame = segue.rect(0, 0, 10, 10) }
        ctx.container:add(MADE)
        segue.animate({ duration = ctx.duration }, function() to.alpha = 0.5 end, function(finished)
          MADE.alpha = 0.25
          segue.log("made", MADE.alpha)
          ctx:complete(round > 1)  -- the first transition cancels: the view it made is destroyed
        end)
      end,
    }
    """#

    @Test("a destroyed view found last is dead; transforms read whole are the values written; refusals unchanged")
    func recentViewsAndTransforms() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["recent.lua": PerCallPathTests.plugin])
        let t = try #require(try scene.select(container, index: 1, animator: "recent").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        scene.advance(by: 1_000_000_000)
        #expect(t.state == .cancelled)
        let t2 = try #require(try scene.select(container, index: 1, animator: "recent").transition)
        #expect(!t2.failedOver, "\(t2.problems.map(\.message))")
        scene.advance(by: 1_000_000_000)
        #expect(t2.state == .completed)
        let dead = "the view no longer exists"
        let refused = "view.transform expects a transform from segue.transform.* ({a,b,c,d,tx,ty} or {m={16 numbers}}), got "
        let missing = (4...16).map { "m[\($0)]=nil" }.joined(separator: ", ")
        let round = [
            "written 2.0 2.0 5.0 -3.0 -0.002",
            "refused " + refused + "{tx=nan} " + refused + "{\(missing)} " + refused + "string " + refused + "7",
            "identity 1.0 0.0 0.0 true",
            "made 0.25",
        ]
        let logs = recorder.messages("log")
        #expect(logs == round + ["dead \(dead) \(dead) view:add(): \(dead) view:add(view): the argument is not a live view"] + round,
                "\(logs)")
    }

    @Test("a callback's described call is kept by name and line: the number interning gives, the list bounded")
    func callbackActivities() throws {
        let instance = try makeSandbox()
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        func number(_ source: String, _ name: String?) -> Int {
            #expect(state.load(source, chunkName: "=cb") == nil)
            #expect(state.call(args: 0, results: 1, topLevel: true) == nil)
            defer { state.pop() }
            return instance.activityNumber(name, at: -1)
        }
        // Two closures from the same line: one description; another name or line is another.
        let first = number("return function() end", "animation completion")
        #expect(number("return function() end", "animation completion") == first)
        #expect(number("return function() end", "segue.after callback") != first)
        #expect(number("\nreturn function() end", "animation completion") != first)
        #expect(first == LuaActivity.shared.intern(LuaActivity.Call(file: instance.file, function: "animation completion", line: 1)))
        for line in 0..<(ActivityCache.capacity * 2) {
            _ = number(String(repeating: "\n", count: line) + "return function() end", "timer")
        }
        #expect(instance.callbackActivities.count == ActivityCache.capacity)
        #expect(number("return function() end", "animation completion") == first)  // described again: the same number
    }

    @Test("a curve named in the options scan is the curve CubicBezier.named gives; near names are not one")
    func namedCurves() throws {
        func code(_ text: String) -> Int32 {
            var bytes = Array(text.utf8CString)  // the text's bytes and a NUL after them (not counted)
            return bytes.withUnsafeMutableBufferPointer { b in
                guard let base = b.baseAddress else { return -1 }
                return segue_curve_code(base, b.count - 1)
            }
        }
        #expect(PluginInstance.curveNames.count == 5)
        for name in PluginInstance.curveNames {
            #expect(code(name) != 0, "\(name)")
            #expect(PluginInstance.namedCurve(code: Double(code(name))) == CubicBezier.named(name), "\(name)")
            #expect(CubicBezier.named(name) != nil, "\(name)")
        }
        #expect(Set(PluginInstance.curveNames.map(code)).count == 5)
        // Not byte-equal: no code (the long way decides, as it did for every string).
        for other in ["", "ease", "ease_in_ou", "ease_in_outs", "EASE_IN", "linear\u{0}", "default ", "\u{212A}"] {
            #expect(code(other) == 0, "\(other.debugDescription)")
        }
        #expect(PluginInstance.namedCurve(code: 0) == nil)
        // Through segue.animate: a named curve animates with it, another string warns and keeps the default.
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["curves.lua": #"""
            return segue.animator {
              name = "curves",
              duration = function(ctx) return 0.5 end,
              animate = function(ctx)
                local to = ctx:view("to")
                ctx.container:add(to)
                segue.animate({ duration = 0.5, curve = "ease_in" }, function() to.alpha = 0 end)
                segue.animate({ duration = 0.5, curve = "ease_inn" }, function() to.alpha = 1 end,
                  function() ctx:complete(true) end)
              end,
            }
            """#])
        let t = try #require(try scene.select(container, index: 1, animator: "curves").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        let warnings = recorder.messages("plugin.warning")
        #expect(warnings.count == 1 && warnings.allSatisfy { $0.contains("ease_inn") }, "\(warnings)")
        scene.advance(by: 1_000_000_000)
        #expect(t.state == .completed)
    }

    @Test("segue.animate's argument errors, checked by the host, have the prelude's messages and positions")
    func animateArgumentErrors() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["args.lua": #"""
            local function try(f, ...)
              local ok, e = pcall(f, ...)
              if ok then return "ok" end
              return e
            end
            return segue.animator {
              name = "args",
              duration = function(ctx) return 0.5 end,
              animate = function(ctx)
                local to = ctx:view("to")
                ctx.container:add(to)
                segue.log(try(function() segue.animate(1, function() end) end))
                segue.log(try(function() segue.animate({}, 2) end))
                segue.log(try(function() segue.animate({}, function() end, 3) end))
                segue.log(try(function() segue.animate() end))
                segue.log(try(function() return segue.animate(nil) end))
                segue.log(try(segue.animate, {}, nil))
                segue.log(try(function() segue.animate({ duration = 0.1 }, function() end, nil) end))
                segue.animate({ duration = 0.5 }, function() to.alpha = 0 end, function() ctx:complete(true) end)
              end,
            }
            """#])
        let t = try #require(try scene.select(container, index: 1, animator: "args").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        // A wrong argument raises at the plugin's line (level 2 of the prelude's wrapper); a tail call or pcall
        // calling segue.animate leaves no Lua caller to name, so no position, as when the prelude checked in Lua.
        #expect(recorder.messages("log") == [
            "args.lua:12: segue.animate: opts must be a table, got number",
            "args.lua:13: segue.animate: animations must be a function, got number",
            "args.lua:14: segue.animate: completion must be a function or nil, got number",
            "args.lua:15: segue.animate: opts must be a table, got nil",
            "segue.animate: opts must be a table, got nil",
            "segue.animate: animations must be a function, got nil",
            "ok",
        ], "\(recorder.messages("log"))")
        #expect(recorder.messages("plugin.warning").isEmpty, "\(recorder.messages("plugin.warning"))")
        scene.advance(by: 1_000_000_000)
        #expect(t.state == .completed)
    }

    @Test("the options' key check and scan in one pass read what the separate check and scan read")
    func optionsInOnePass() throws {
        let instance = try makeSandbox()
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        let tables = [
            "{}", "{ duration = 1 }", "{ duration = 0.25, curve = 'ease_in_out' }",
            "{ duration = '1', delay = true, repeat_count = {}, autoreverse = 1, spring = 'system', curve = 'ease_in' }",
            "{ delay = 0.5, repeat_count = 2, autoreverse = false, spring = { damping = 0.5 }, curve = { 0, 0, 1, 1 } }",
            "{ curve = 'bogus', calculation_mode = 'linear' }", "{ [1] = 2 }", "{ durration = 1 }",
            "{ duration = 1, [true] = 1 }", "{ [string.rep('d', 50)] = 1, duration = 2 }", "{ duration = 0 / 0 }",
        ]
        for text in tables {
            #expect(state.load("return \(text)", chunkName: "=options") == nil)
            #expect(state.call(args: 0, results: 1, topLevel: true) == nil)
            let t = state.top
            var separate = PluginInstance.OptionScan()
            withUnsafeMutableBytes(of: &separate.types) { ty in
                withUnsafeMutableBytes(of: &separate.values) { v in
                    segue_scananimation(state.L, t, ty.baseAddress?.assumingMemoryBound(to: Int32.self),
                                        v.baseAddress?.assumingMemoryBound(to: Double.self))
                }
            }
            let known = state.hasOnlyKeys(at: t, in: instance.animationOptionNames)
            var together = PluginInstance.OptionScan()
            let ok = withUnsafeMutableBytes(of: &together.types) { ty in
                withUnsafeMutableBytes(of: &together.values) { v in
                    segue_scananimation_checked(state.L, t, instance.animationOptionNames,
                                                ty.baseAddress?.assumingMemoryBound(to: Int32.self),
                                                v.baseAddress?.assumingMemoryBound(to: Double.self))
                }
            }
            #expect(state.top == t, "\(text)")
            #expect((ok != 0) == known, "\(text)")
            if ok != 0 {
                #expect([together.types.0, together.types.1, together.types.2, together.types.3, together.types.4,
                         together.types.5] == [separate.types.0, separate.types.1, separate.types.2,
                         separate.types.3, separate.types.4, separate.types.5], "\(text)")
                let a = [together.values.0, together.values.1, together.values.2, together.values.3,
                         together.values.4, together.values.5]
                let b = [separate.values.0, separate.values.1, separate.values.2, separate.values.3,
                         separate.values.4, separate.values.5]
                #expect(zip(a, b).allSatisfy { $0 == $1 || ($0.isNaN && $1.isNaN) }, "\(text): \(a) \(b)")
            }
            state.pop()
        }
    }
}
