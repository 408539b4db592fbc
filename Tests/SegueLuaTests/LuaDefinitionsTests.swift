import Foundation
import SegueJSON
import SegueKit
import Testing

@testable import SegueLua

/// plugins/types/segue.lua (the LuaLS definitions editors read) names exactly what the live sandbox exposes:
/// every name in the file exists at run time, and every name the sandbox exposes is in the file.
@Suite("LuaLS definitions match the live plugin API")
struct LuaDefinitionsTests {
    /// What the definitions file declares.
    struct Definitions {
        var classes: [String: Set<String>] = [:]
        var segue: Set<String> = []
        var transform: Set<String> = []
        var aliases: [String: [String]] = [:]
    }

    static let path = repositoryRoot + "/plugins/types/segue.lua"

    static func parse() throws -> Definitions {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        var d = Definitions()
        var current: String?
        func name(after prefix: String, in line: Substring) -> String {
            String(line.dropFirst(prefix.count).prefix { $0 != " " && $0 != "(" && $0 != "=" && $0 != "?" })
        }
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if line.hasPrefix("---@class ") {
                let rest = line.dropFirst(10)
                let cls = String((rest.hasPrefix("(exact) ") ? rest.dropFirst(8) : rest).prefix { $0 != " " })
                current = cls
                d.classes[cls, default: []] = []
            } else if line.hasPrefix("---@field "), let cls = current {
                d.classes[cls, default: []].insert(name(after: "---@field ", in: line))
            } else if line.hasPrefix("---@alias ") {
                let parts = line.dropFirst(10).split(separator: " ", maxSplits: 1)
                if parts.count == 2 {
                    d.aliases[String(parts[0])] = parts[1].split(separator: "|").map {
                        $0.trimmingCharacters(in: CharacterSet(charactersIn: "\" "))
                    }
                }
            } else if !line.hasPrefix("---") {
                current = nil
                for (prefix, keyPath) in [("function segue.transform.", \Definitions.transform),
                                          ("segue.transform.", \Definitions.transform), ("function segue.", \Definitions.segue),
                                          ("segue.", \Definitions.segue)] where line.hasPrefix(prefix) {
                    d[keyPath: keyPath].insert(name(after: prefix, in: line))
                    break
                }
            }
        }
        d.segue.remove("transform")
        d.segue.insert("transform")  // `segue.transform = {}` is a member too
        return d
    }

    /// Runs one select (probe animator), one present (probe presentation) and one interactive select driven by a
    /// pan (probe interaction), each logging the keys of the objects it is handed; answers the log lines by tag.
    func live() throws -> (logs: [String: Set<String>], warnings: [String]) {
        let viewNames = PluginInstance.NameKind.viewProperty.names.map { "\"\($0)\"" }.joined(separator: ", ")
        let ctxNames = PluginInstance.NameKind.contextField.names.map { "\"\($0)\"" }.joined(separator: ", ")
        let keys = """
            local function keys(tag, t)
              local list = {}
              for k in pairs(t) do list[#list + 1] = tostring(k) end
              table.sort(list)
              segue.log(tag .. ":" .. table.concat(list, ","))
            end
            local function present_names(tag, object, names, allow_nil)
              local list = {}
              for _, k in ipairs(names) do
                if object[k] ~= nil or allow_nil[k] then list[#list + 1] = k end
              end
              segue.log(tag .. ":" .. table.concat(list, ","))
            end
            """
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "probe.lua": keys + "\n" + """
                return segue.animator {
                  duration = 0.2,
                  animate = function(ctx)
                    local to = ctx:view("to")
                    ctx.container:add(to)
                    keys("segue", segue)
                    keys("transform", segue.transform)
                    keys("coordinator", ctx.coordinator)
                    keys("vc", ctx:vc("to"))
                    present_names("view", to, { \(viewNames), "alpah" },
                      -- nil on a view that is no gradient view, as mask is when unset
                      { mask = true, colors = true, locations = true, start_point = true, end_point = true, type = true })
                    present_names("ctx", ctx, { \(ctxNames), "duratoin" }, { presentation_style = true, info = true })
                    segue.animate({ duration = 0.1, delay = 0, curve = "linear", repeat_count = 1, autoreverse = false },
                      function() to.alpha = 1 end)
                    segue.animate({ duration = 0.1, spring = { damping = 0.5, velocity = 0 } }, function() end)
                    segue.animate({ duration = 0.1, spring = { mass = 1, stiffness = 100, damping = 10, velocity = 0 } },
                      function() end)
                    for _, c in ipairs({ "linear", "ease_in", "ease_out", "ease_in_out", "default" }) do
                      segue.animate({ duration = 0.1, curve = c }, function() end)
                    end
                    if ctx.interactive then
                      segue.animate({ duration = 0.2 }, function() to.alpha = 0.5 end,
                        function() ctx:complete(not ctx.cancelled) end)
                    else
                      ctx:complete(true)
                    end
                  end,
                }
                """,
            "probe-pc.lua": keys + "\n" + """
                return segue.presentation {
                  frame_of_presented_view = function(pc) return pc.container.frame end,
                  will_begin = function(pc) keys("pc", pc) end,
                }
                """,
            "probe-tr.lua": keys + "\n" + """
                return segue.interaction {
                  changed = function(tr, g) keys("tr", tr); keys("g", g); tr.update(0.5) end,
                  ended = function(tr, g) tr.finish() end,
                }
                """,
        ])
        _ = try scene.select(container, index: 1, animator: "probe")
        scene.advance(by: 1_000_000_000)
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        _ = try scene.present(m, from: container, style: .custom, presentation: "probe-pc", animator: "probe")
        scene.advance(by: 1_000_000_000)
        let t = try #require(try scene.select(container, index: 0, interactive: .plugin("probe-tr"), animator: "probe").transition)
        try scene.pan(t, PanGesture(phase: .changed, kind: .pan, translation: Point(x: 10, y: 0), location: Point(x: 1, y: 2)))
        // A pinch and a rotation on transitions of their own: `g` has their fields too.
        try scene.pan(t, PanGesture(phase: .ended, kind: .pan))
        scene.advance(by: 1_000_000_000)
        let pinch = try #require(try scene.select(container, index: 1, interactive: .plugin("probe-tr"), animator: "probe").transition)
        try scene.pan(pinch, PanGesture(phase: .changed, kind: .pinch, scale: 0.5, rate: -1, location: Point(x: 1, y: 2)))
        try scene.pan(pinch, PanGesture(phase: .ended, kind: .pinch))
        scene.advance(by: 1_000_000_000)
        let rotate = try #require(try scene.select(container, index: 0, interactive: .plugin("probe-tr"), animator: "probe").transition)
        try scene.pan(rotate, PanGesture(phase: .changed, kind: .rotate, rotation: 0.5, rate: 1, location: Point(x: 1, y: 2)))
        var logs: [String: Set<String>] = [:]
        for event in recorder.events where event.type == "log" {
            guard let message = event.payload.message, let colon = message.firstIndex(of: ":") else { continue }
            let names = message[message.index(after: colon)...].split(separator: ",").map(String.init)
            logs[String(message[..<colon]), default: []].formUnion(names)
        }
        let warnings = recorder.messages("plugin.warning")
        return (logs, warnings)
    }

    @Test("the segue table and segue.transform: every defined function exists, every live one is defined")
    func segueTable() throws {
        let d = try LuaDefinitionsTests.parse()
        let (logs, _) = try live()
        #expect(d.segue == logs["segue"])
        #expect(d.transform == logs["transform"])
    }

    @Test("view, ctx, coordinator, vc, pc, tr and g members equal the live objects' members")
    func objects() throws {
        let d = try LuaDefinitionsTests.parse()
        let (logs, _) = try live()
        #expect(d.classes["segue.View"] == logs["view"])
        #expect(logs["view"]?.contains("alpah") == false)
        #expect(d.classes["segue.Context"] == logs["ctx"])
        #expect(logs["ctx"]?.contains("duratoin") == false)
        #expect(d.classes["segue.Coordinator"] == logs["coordinator"])
        #expect(d.classes["segue.ViewController"] == logs["vc"])
        #expect(d.classes["segue.PresentationController"] == logs["pc"])
        #expect(d.classes["segue.InteractiveTransition"] == logs["tr"])
        #expect(d.classes["segue.Gesture"] == logs["g"])
        // The names the warnings know are the same ones.
        #expect(d.classes["segue.View"] == Set(PluginInstance.NameKind.viewProperty.names))
        #expect(d.classes["segue.Context"] == Set(PluginInstance.NameKind.contextField.names))
        #expect(d.classes["segue.InteractiveTransition"] == Set(PluginInstance.NameKind.interactionField.names))
        #expect(d.classes["segue.PresentationController"] == Set(PluginInstance.NameKind.presentationField.names))
    }

    @Test("animation options and curve names: the definitions, the host's lists and the engine agree; none warns")
    func optionsAndCurves() throws {
        let d = try LuaDefinitionsTests.parse()
        #expect(d.classes["segue.AnimationOptions"] == Set(PluginInstance.animationOptions))
        #expect(d.aliases["segue.CurveName"] == PluginInstance.curveNames)
        for name in PluginInstance.curveNames { #expect(CubicBezier.named(name) != nil, "\(name)") }
        #expect(d.classes["segue.ViewTransitionOptions"] == Set(PluginInstance.NameKind.transitionOption.names))
        let (_, warnings) = try live()
        #expect(warnings.isEmpty, "every option and curve the definitions name is accepted without a warning")
    }

    @Test("each kind's description class names the fields the loader knows for that kind")
    func descriptions() throws {
        let d = try LuaDefinitionsTests.parse()
        for (kind, cls) in [(PluginKind.animator, "segue.AnimatorDescription"), (.interaction, "segue.InteractionDescription"),
                            (.delegate, "segue.DelegateDescription"), (.presentation, "segue.PresentationDescription")] {
            #expect(d.classes[cls] == Set(kind.descriptionFields), "\(cls)")
        }
    }

    @Test("the definitions folder is not loaded as plugins: the bundled folder lists no plugin from types/")
    func notAPlugin() throws {
        let host = PluginHost(directory: repositoryRoot + "/plugins", settings: LuaSettings())
        host.loadAll()
        let files = host.records.map(\.file)
        #expect(!files.isEmpty)
        #expect(!files.contains { $0.contains("/types/") || $0.hasSuffix("segue.lua") })
        #expect(!host.records.contains { $0.status == "failed" })
    }

    @Test("segue.View's property lines are the view-property table's: name, type, range or summary, in order")
    func viewPropertiesFromTheTable() throws {
        let text = try String(contentsOfFile: LuaDefinitionsTests.path, encoding: .utf8)
        let lines = text.split(separator: "\n").map(String.init)
        let start = try #require(lines.firstIndex(of: "---@class (exact) segue.View"))
        let written = Array(lines[(start + 1)...].prefix { $0.hasPrefix("---@field ") }.prefix(1 + ViewProperty.allCases.count))
        let expected = ["---@field frame segue.Rect"] + ViewProperty.listed.map { property in
            let info = property.info
            return "---@field \(info.luaName) \(info.kind.luaType)" + (info.luaComment.map { " " + $0 } ?? "")
        }
        #expect(written == expected, "plugins/types/segue.lua's segue.View should begin:\n\(expected.joined(separator: "\n"))")
    }
}
