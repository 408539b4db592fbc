import SegueKit
import Testing

@testable import SegueLua

@Suite("Lua plugins through the engine")
struct PluginTests {
    @Test("the bundled plugins load")
    func bundledPluginsLoad() throws {
        let host = PluginHost(directory: repositoryRoot + "/plugins")
        let events = host.loadAll()
        #expect(events.allSatisfy { $0.type == "plugin.loaded" })
        let names = host.records.map(\.name)
        #expect(names.contains("dt-slide"))
        #expect(names.contains("cross-dissolve"))
        for name in ["objcio-animator", "flip", "dt-slide-delegate"] { #expect(names.contains(name)) }
        #expect(host.records.allSatisfy { $0.status == "loaded" })
        #expect(host.records.first { $0.name == "dt-slide-delegate" }?.kind == .delegate)
    }

    @Test("dt-slide slides both views over 0.28 s with ease-in-out and ends with transforms reset")
    func dtSlide() throws {
        let host = PluginHost(directory: repositoryRoot + "/plugins")
        host.loadAll()
        let recorder = Recorder()
        let (scene, container, a, b) = try makeScene(host: host, recorder: recorder)
        let transition = try #require(try scene.select(container, index: 1, animator: "dt-slide").transition)
        #expect(transition.duration == 0.28)
        // At the start the to-view waits one width to the right.
        #expect(b.view.presentation.transform.affine.tx == 320)
        scene.advance(by: 140_000_000)  // half-way: ease-in-out is at 0.5
        #expect(abs(b.view.presentation.transform.affine.tx - 160) < 3)
        #expect(abs(a.view.presentation.transform.affine.tx + 160) < 3)
        scene.advance(by: 160_000_000)
        #expect(transition.state == .completed)
        #expect(!transition.failedOver && !transition.forced)
        #expect(b.view.presentation.transform.isIdentity && a.view.model.transform.isIdentity)
        #expect(container.view.subviews.map(\.id) == ["b.view"])
        #expect(b.view.model.frame == Rect(x: 0, y: 0, w: 320, h: 480))
        // Backward: the new page comes in from the left.
        _ = try scene.select(container, index: 0, animator: "dt-slide")
        #expect(a.view.presentation.transform.affine.tx == -320)
        scene.advance(by: 300_000_000)
        #expect(container.selectedIndex == 0)
    }

    @Test("cross-dissolve fades the to-view in over 0.5 s and restores the from-view's alpha")
    func crossDissolve() throws {
        let host = PluginHost(directory: repositoryRoot + "/plugins")
        host.loadAll()
        let recorder = Recorder()
        let (scene, container, a, b) = try makeScene(host: host, recorder: recorder)
        let transition = try #require(try scene.select(container, index: 1, animator: "cross-dissolve").transition)
        scene.advance(by: 250_000_000)
        #expect(abs(b.view.presentation.alpha - 0.5) < 1e-6)
        #expect(abs(a.view.presentation.alpha - 0.5) < 1e-6)
        scene.advance(by: 300_000_000)
        #expect(transition.state == .completed)
        #expect(b.view.presentation.alpha == 1)
        #expect(a.view.model.alpha == 1)
        #expect(a.view.superview == nil)
    }

    @Test("an animator stuck in while true is stopped, the default finishes the transition")
    func infiniteLoopAnimator() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "spin.lua": "return segue.animator { duration = function() return 0.3 end, animate = function(ctx) while true do end end }",
        ])
        let transition = try #require(try scene.select(container, index: 1, animator: "spin").transition)
        #expect(transition.failedOver)
        #expect(transition.problems.first?.message.contains("instruction budget") == true)
        scene.advance(by: 1_100_000_000)
        #expect(transition.state == .completed)
        #expect(b.view.superview === container.view)
        #expect(recorder.types("transition.") == ["transition.began", "transition.failed_over", "transition.completed"])
    }

    @Test("an animator that never completes is completed by the watchdog")
    func neverCompletes() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "lazy.lua": "return segue.animator { duration = function() return 0.2 end, animate = function(ctx) ctx.container:add(ctx:view('to')) end }",
        ])
        let transition = try #require(try scene.select(container, index: 1, animator: "lazy").transition)
        scene.advance(by: 1_500_000_000)  // 0.2 × 2 + 1 = 1.4 s
        #expect(transition.state == .completed && transition.forced)
        #expect(recorder.types("transition.").contains("transition.watchdog"))
    }

    @Test("broken files are reported by name and leave the others loaded")
    func brokenFiles() throws {
        let dir = try makePluginFolder([
            "good.lua": "return segue.animator { duration = function() return 0.1 end, animate = function(ctx) ctx:complete(true) end }",
            "syntax.lua": "return segue.animator {",
            "future.lua": "return segue.animator { api = 2, animate = function() end }",
            "notaplugin.lua": "return 42",
            "loops.lua": "while true do end",
            "escape.lua": "return io.open('/etc/passwd')",
            "hugeapi.lua": "return segue.animator { api = 1e300, animate = function() end }",
        ])
        var settings = LuaSettings()
        settings.callTimeoutMs = 20_000  // the budget, not a loaded machine's wall clock, must stop loops.lua
        let host = PluginHost(directory: dir, settings: settings)
        let events = host.loadAll()
        let failed = Dictionary(uniqueKeysWithValues: events.filter { $0.type == "plugin.failed" }.map { ($0.name, $0.message ?? "") })
        #expect(failed.keys.sorted() == ["escape", "future", "hugeapi", "loops", "notaplugin", "syntax"])
        #expect(failed["future"]?.contains("API 2;") == true)
        #expect(failed["loops"]?.contains("instruction budget") == true)
        #expect(failed["escape"]?.contains("io") == true)
        #expect(host.record(named: "good")?.status == "loaded")
        #expect(host.record(named: "syntax")?.status == "failed")
    }

    @Test("wrong argument types raise clear errors and fail over")
    func wrongTypes() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "bad.lua": "return segue.animator { duration = function() return 0.1 end, animate = function(ctx) ctx:view('to').frame = 'wide' end }",
        ])
        let transition = try #require(try scene.select(container, index: 1, animator: "bad").transition)
        #expect(transition.failedOver)
        #expect(transition.problems.first?.message.contains("view.frame expects a rect") == true)
        scene.advance(by: 1_100_000_000)
        #expect(transition.state == .completed)
    }

    @Test("rects and transforms are read field by field as numbers: a numeric string or a missing field is refused")
    func numberFields() throws {
        let animate = "ctx.container:add(ctx:view('to')); ctx:complete(true) end }"
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "good.lua": """
                return segue.animator { duration = 0, animate = function(ctx) local to = ctx:view('to')
                to.frame = {x = 1, y = 2, w = 30, h = 40}; to.transform = {a = 2, b = 0, c = 0, d = 3, tx = 5, ty = 6}
                local f, t = to.frame, to.transform
                if f.x ~= 1 or f.h ~= 40 or t.a ~= 2 or t.d ~= 3 or t.ty ~= 6 then error('read back wrong') end
                \(animate)
                """,
            "text.lua": "return segue.animator { duration = 0, animate = function(ctx) ctx:view('to').transform = "
                + "{a = 1, b = 0, c = 0, d = 1, tx = '5', ty = 0} \(animate)",
            "short.lua": "return segue.animator { duration = 0, animate = function(ctx) ctx:view('to').frame = "
                + "{x = 0, y = 0, w = 10} \(animate)",
        ])
        let good = try #require(try scene.select(container, index: 1, animator: "good").transition)
        #expect(!good.failedOver && good.problems.isEmpty)
        #expect(b.view.model.transform == Transform3D(a: 2, b: 0, c: 0, d: 3, tx: 5, ty: 6))
        let text = try #require(try scene.select(container, index: 0, animator: "text").transition)
        #expect(text.problems.first?.message.contains("view.transform expects a transform") == true)
        scene.advance(by: 1_100_000_000)
        let short = try #require(try scene.select(container, index: 1, animator: "short").transition)
        #expect(short.problems.first?.message.contains("view.frame expects a rect") == true)
        withExtendedLifetime(recorder) {}
    }

    @Test("each scene gets its own plugin state")
    func statePerScene() throws {
        let dir = try makePluginFolder([
            "counter.lua": """
                count = 0
                return segue.animator {
                  duration = function() return 0 end,
                  animate = function(ctx) count = count + 1; segue.log('count', count); ctx.container:add(ctx:view('to')); ctx:complete(true) end,
                }
                """,
        ])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let r1 = Recorder(), r2 = Recorder()
        let (s1, c1, _, _) = try makeScene(host: host, recorder: r1)
        let (s2, c2, _, _) = try makeScene(host: host, recorder: r2)
        _ = try s1.select(c1, index: 1, animator: "counter")
        _ = try s1.select(c1, index: 0, animator: "counter")
        _ = try s2.select(c2, index: 1, animator: "counter")
        let logs1 = r1.events.filter { $0.type == "log" }.compactMap { $0.payload.message }
        let logs2 = r2.events.filter { $0.type == "log" }.compactMap { $0.payload.message }
        #expect(logs1 == ["count 1", "count 2"])
        #expect(logs2 == ["count 1"])
    }

    @Test("extreme numbers from a plugin are clamped, never trapped on")
    func extremeNumbers() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "extreme.lua": """
                return segue.animator {
                  duration = function() return 1e300 end,
                  animate = function(ctx)
                    segue.after(1e300, function() end)
                    local to = ctx:view('to')
                    ctx.container:add(to)
                    to.alpha = 1e308
                    segue.animate({ duration = 1e300, delay = 1e300 }, function() to.alpha = 0.5 end)
                    ctx:complete(true)
                  end,
                }
                """,
        ])
        let transition = try #require(try scene.select(container, index: 1, animator: "extreme").transition)
        #expect(transition.problems.map(\.message) == [])
        #expect(transition.duration == 60)  // clamped to engine.max_duration_s, with a warning
        #expect(recorder.types("plugin.warning").count == 1)
        #expect(transition.state == .completed)
        #expect(b.view.model.alpha == 0.5)
        scene.advance(by: 1_000_000_000)
    }

    @Test("an empty file, a view inside itself and a 1000-deep view chain are refused cleanly")
    func degenerateInputs() throws {
        let dir = try makePluginFolder([
            "empty.lua": "",
            "deep.lua": """
                return segue.animator {
                  duration = function() return 0.1 end,
                  animate = function(ctx)
                    local parent = ctx.container
                    for i = 1, 1000 do local v = segue.view {} parent:add(v) parent = v end
                  end,
                }
                """,
            "self.lua": "return segue.animator { duration = function() return 0.1 end, animate = function(ctx) ctx.container:add(ctx.container) end }",
        ])
        let host = PluginHost(directory: dir)
        let events = host.loadAll()
        #expect(events.first { $0.name == "empty" }?.type == "plugin.failed")
        let recorder = Recorder()
        let (scene, container, _, _) = try makeScene(host: host, recorder: recorder)
        let deep = try #require(try scene.select(container, index: 1, animator: "deep").transition)
        #expect(deep.failedOver)
        #expect(deep.problems.first?.message.contains("deeper than 128") == true)
        scene.advance(by: 1_100_000_000)
        let own = try #require(try scene.select(container, index: 0, animator: "self").transition)
        #expect(own.problems.first?.message.contains("inside itself") == true)
        scene.advance(by: 1_100_000_000)
        #expect(container.selectedIndex == 0)
        _ = scene.tree(presentation: true)
    }

    @Test("segue.keyframes: segments run in their windows, the completion runs once at the end")
    func keyframes() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins(["kf.lua": """
            return segue.animator {
              duration = function(ctx) return 1 end,
              animate = function(ctx)
                local to = ctx:view("to")
                ctx.container:add(to)
                to.frame = ctx:final_frame("to")
                to.alpha = 0
                segue.keyframes({ duration = 1 }, function(add)
                  add(0, 0.5, function() to.alpha = 0.5 end)
                  add(0.5, 0.5, function() to.alpha = 1 end)
                end, function(finished)
                  segue.log("done", finished)
                  ctx:complete(not ctx.cancelled)
                end)
              end,
            }
            """])
        let transition = try #require(try scene.select(container, index: 1, animator: "kf").transition)
        // UIKit's default for a keyframe block: ease-in-ease-out over the whole block, so 0.25 s is 12.9 % of it
        // (ease_in_out(0.25) = 0.12916) and 0.75 s is 87.1 %.
        scene.advance(by: 250_000_000)
        #expect(abs(b.view.presentation.alpha - 0.1291619310473198) < 1e-6)
        scene.advance(by: 500_000_000)
        #expect(abs(b.view.presentation.alpha - (1 - 0.1291619310473198)) < 1e-6)
        scene.advance(by: 300_000_000)
        #expect(transition.state == .completed && b.view.presentation.alpha == 1)
        #expect(recorder.events.filter { $0.type == "log" }.map { $0.payload.message } == ["done true"])
    }

    @Test("a delegate plugin picks the animator; one that raises is reported and the rules decide")
    func delegatePlugin() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "d.lua": """
                return {
                  segue.delegate { name = "picky", animator_for = function(op)
                    if op.direction == "forward" then return "dt-slide" end
                    error("no idea for " .. op.kind .. " " .. tostring(op.from_index) .. "->" .. tostring(op.to_index))
                  end },
                  segue.animator { name = "dt-slide", duration = function() return 0.25 end,
                    animate = function(ctx) ctx.container:add(ctx:view("to")); ctx:complete(true) end },
                }
                """,
        ])
        scene.setDelegate(of: container, plugin: "picky", rules: [])
        let forward = try #require(try scene.select(container, index: 1).transition)
        #expect(forward.animatorName == "dt-slide" && forward.state == .completed)
        let backward = try #require(try scene.select(container, index: 0).transition)
        #expect(backward.animatorName == "default-slide")
        let warning = try #require(recorder.events.first { $0.type == "plugin.warning" })
        #expect(warning.payload.pluginName == "picky")
        #expect(warning.payload.message?.contains("no idea for select 1->0") == true)
    }

    @Test("segue.transition with an unknown option raises, and the transition fails over to the default")
    func badViewTransition() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["bad.lua": """
            return segue.animator {
              duration = function(ctx) return 0.5 end,
              animate = function(ctx)
                segue.transition(ctx:view("from"), ctx:view("to"), { duration = 0.5, options = "spin" })
              end,
            }
            """])
        let transition = try #require(try scene.select(container, index: 1, animator: "bad").transition)
        #expect(transition.failedOver)
        #expect(transition.problems.first?.message.contains("options must be one of flip_from_left") == true)
        scene.advance(by: 1_100_000_000)
        #expect(transition.state == .completed)
        #expect(container.view.subviews.map(\.id) == ["b.view"])
        #expect(recorder.types("transition.failed_over").count == 1)
    }
}
