import SegueJSON
import SegueKit
import Testing

@testable import SegueLua

/// Unknown names a plugin writes are warnings with the nearest valid name, once per name, never errors.
@Suite("Did-you-mean warnings for unknown names")
struct NearestNameWarningTests {
    /// Runs one select with an animator whose `animate` body is `body` (it completes the transition itself).
    func warnings(_ body: String) throws -> (messages: [String], failedOver: Bool, completed: Bool) {
        let plugin = animatorSource(duration: "function(ctx) return 0.2 end", animate: """
            ctx.container:add(to)
            to.frame = ctx:final_frame("to")
            \(body)
            ctx:complete(true)
            """)
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["typo.lua": plugin])
        _ = try scene.select(container, index: 1, animator: "typo")
        scene.advance(by: 1_000_000_000)
        let messages = recorder.messages("plugin.warning")
        let completed = recorder.events.contains { $0.type == "transition.completed" && $0.payload.completion?.completed == true }
        return (messages, !recorder.types("transition.failed_over").isEmpty, completed)
    }

    @Test("an unknown view property warns with the nearest name, is ignored, and the transition goes on")
    func viewProperty() throws {
        let r = try warnings("to.alpah = 0.5")
        #expect(r.messages == ["unknown view property 'alpah' — did you mean 'alpha'?; ignored"])
        #expect(!r.failedOver && r.completed)
    }

    @Test("an unknown curve warns with the nearest name and the block runs with the default curve")
    func curve() throws {
        let r = try warnings("segue.animate({ duration = 0.1, curve = 'easeOut' }, function() to.alpha = 0.5 end)")
        #expect(r.messages == ["unknown curve 'easeOut' — did you mean 'ease_out'?; the default curve is used"])
        #expect(!r.failedOver && r.completed)
    }

    @Test("an unknown animation option and an unknown ctx field warn; a known ctx field is still read-only")
    func optionsAndContext() throws {
        let r = try warnings("""
            segue.animate({ durration = 0.1, delay = 0 }, function() end)
            ctx.duratoin = 3
            local ok = pcall(function() ctx.duration = 3 end)
            if ok then error("ctx.duration was writable") end
            """)
        #expect(r.messages == [
            "unknown animation option 'durration' — did you mean 'duration'?; ignored",
            "unknown ctx field 'duratoin' — did you mean 'duration'?; ignored",
        ])
        #expect(!r.failedOver && r.completed)
    }

    @Test("segue.animate's unknown option keys warn sorted, any key type, before the block's own warnings")
    func optionKeysSorted() throws {
        // The host checks the keys itself; an unknown one (or one that is no string) hands over to check_keys.
        let r = try warnings("""
            segue.animate({ zeta = 1, [2] = true, alpah = 0, duration = 0.1, curve = 'linaer' }, function() end)
            segue.animate({ duration = 0.1, delay = 0, curve = 'linear' }, function() end)
            """)
        #expect(r.messages.count == 4, "\(r.messages)")
        let prefixes = ["unknown animation option '2'", "unknown animation option 'alpah'",
                        "unknown animation option 'zeta'"]
        for (message, prefix) in zip(r.messages, prefixes) { #expect(message.hasPrefix(prefix), "\(message)") }
        #expect(r.messages.last?.hasPrefix("unknown curve 'linaer'") == true)
        #expect(!r.failedOver && r.completed)
    }

    @Test("a name far from every valid one lists the valid names")
    func noNearest() throws {
        let r = try warnings("to.wobble = 1")
        #expect(r.messages.count == 1)
        #expect(r.messages.first?.hasPrefix("unknown view property 'wobble' (frame, bounds, center, alpha") == true)
    }

    @Test("a loop writing the same unknown name warns once per name per plugin state")
    func oncePerName() throws {
        let r = try warnings("""
            for i = 1, 1000 do to.alpah = 1; to.colour = '#ffffff' end
            for i = 1, 100 do segue.animate({ duration = 0.1, curve = 'linaer' }, function() end) end
            """)
        #expect(r.messages.count == 3)
        #expect(r.messages[1] == "unknown view property 'colour' — did you mean 'color'?; ignored")
        #expect(r.messages[2].hasPrefix("unknown curve 'linaer' — did you mean 'linear'?"))
    }

    @Test("a field tr or pc does not have is kept (API-1 plugins may read it back) with a warning pointing at state")
    func trAndPCFields() throws {
        let (scene, c, _, _, recorder) = try sceneWithPlugins([
            "fade.lua": animatorSource(duration: "0.2", animate: """
                if to then ctx.container:add(to); to.frame = ctx:final_frame("to") end
                segue.animate({ duration = 0.2 }, function() if to then to.alpha = 1 end end,
                  function() ctx:complete(not ctx.cancelled) end)
                """),
            "drag.lua": """
                return segue.interaction {
                  changed = function(tr, g)
                    tr.precent = 1
                    tr.update(g.translation.x / 100)
                    segue.log("kept " .. tostring(tr.precent))
                  end,
                  ended = function(tr, g) tr.finish() end,
                }
                """,
            "panel.lua": """
                return segue.presentation {
                  frame_of_presented_view = function(pc) return pc.container.frame end,
                  will_begin = function(pc) pc.dimming = segue.view {}; pc.presnted = 1 end,
                  did_end = function(pc, completed) if pc.dimming then segue.log("dimming kept") end end,
                }
                """,
        ])
        let t = try #require(try scene.select(c, index: 1, interactive: .plugin("drag"), animator: "fade").transition)
        try scene.pan(t, PanGesture(phase: .changed, translation: Point(x: 30, y: 0), velocity: .zero))
        try scene.pan(t, PanGesture(phase: .changed, translation: Point(x: 40, y: 0), velocity: .zero))
        try scene.pan(t, PanGesture(phase: .ended, translation: Point(x: 40, y: 0), velocity: .zero))
        scene.advance(by: 1_000_000_000)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        _ = try scene.present(m, from: c, style: .custom, presentation: "panel", animator: "fade")
        scene.advance(by: 1_000_000_000)
        let warnings = recorder.messages("plugin.warning")
        #expect(warnings == [
            "unknown tr field 'precent' — did you mean 'percent'?; kept (a plugin's own values belong in tr.state)",
            "unknown pc field 'dimming' (container, presented, presenting, presented_view, coordinator, state); kept "
                + "(a plugin's own values belong in pc.state)",
            "unknown pc field 'presnted' — did you mean 'presented'?; kept (a plugin's own values belong in pc.state)",
        ])
        let logs = recorder.messages("log")
        #expect(logs.contains("kept 1") && logs.contains("dimming kept"), "\(logs)")
    }

    @Test("a description field its kind does not have is a load-time warning with the nearest field; the plugin loads")
    func descriptionFields() throws {
        let folder = try makePluginFolder(["typo.lua": """
            return segue.animator {
              durration = 0.3,
              duration = 0.3,
              animate = function(ctx) ctx:complete(true) end,
              colour = "#ff0000",
            }
            """])
        let host = PluginHost(directory: folder, settings: LuaSettings())
        let events = host.loadAll()
        #expect(events.map(\.type) == ["plugin.loaded", "plugin.warning", "plugin.warning"])
        #expect(events.dropFirst().map { $0.message ?? "" } == [
            "unknown animator field 'colour' (name, version, api, kinds, duration, animate, ended, interruptible_animator); ignored",
            "unknown animator field 'durration' — did you mean 'duration'?; ignored",
        ])
        #expect(events.last?.name == "typo")
        #expect(host.records.first?.status == "loaded")
    }

    @Test("an interaction's optional kinds is a field it has: no warning")
    func interactionKinds() throws {
        let folder = try makePluginFolder(["pan.lua": """
            return segue.interaction {
              kinds = { "push", "pop" },
              changed = function(tr, g) tr.update(0.5) end,
              ended = function(tr, g) tr.finish() end,
            }
            """])
        let host = PluginHost(directory: folder, settings: LuaSettings())
        #expect(host.loadAll().map(\.type) == ["plugin.loaded"])
    }

    @Test("the bundled plugins load without a warning")
    func bundledPluginsClean() {
        let host = PluginHost(directory: repositoryRoot + "/plugins", settings: LuaSettings())
        let events = host.loadAll()
        #expect(!events.isEmpty)
        #expect(events.allSatisfy { $0.type == "plugin.loaded" }, "\(events.map { "\($0.type) \($0.message ?? "")" })")
    }

    @Test("nearest names: transpositions, case and underscores are near; unrelated names are not")
    func nearestName() {
        #expect(NearestName.nearest(to: "alpah", in: ["frame", "alpha", "z"]) == "alpha")
        #expect(NearestName.nearest(to: "easeOut", in: PluginInstance.curveNames) == "ease_out")
        #expect(NearestName.nearest(to: "daemon.pnig", in: ["daemon.ping", "daemon.info"]) == "daemon.ping")
        #expect(NearestName.nearest(to: "ping", in: ["daemon.ping", "daemon.info"]) == "daemon.ping")
        #expect(NearestName.nearest(to: "x", in: ["frame", "alpha"]) == nil)
        #expect(NearestName.nearest(to: "transmogrify", in: ["frame", "alpha"]) == nil)
        // Length differences up to the limit still count; a last part must follow a dot.
        #expect(NearestName.nearest(to: "alpha", in: ["alphaaa"]) == "alphaaa")
        #expect(NearestName.nearest(to: "ping", in: ["xxxxxping"]) == nil)
        #expect(NearestName.nearest(to: "info", in: ["vc.get", "daemon.info"]) == "daemon.info")
        #expect(NearestName.nearest(to: "a.ping", in: ["daemon.a.ping.x"]) == nil)
    }
}
