import Foundation
import Logging
import SegueJSON
import Testing

#if canImport(FoundationXML)
import FoundationXML
#endif

@testable import SegueDaemon

/// Each frame of a filmstrip: its index and, per view, the group's opacity and the fill of the view's own shape.
func framesOf(_ svg: String) throws -> [Int: [String: (opacity: Double, fill: String?)]] {
    final class Collector: NSObject, XMLParserDelegate {
        var frames: [Int: [String: (opacity: Double, fill: String?)]] = [:]
        var frame: Int?
        var open: [String?] = []  // the view each open element belongs to, when it is a view group
        var pendingView: String?
        func parser(_ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
                    attributes: [String: String] = [:]) {
            if attributes["class"] == "frame" { frame = attributes["data-index"].flatMap(Int.init) }
            if attributes["class"] == "view", let id = attributes["data-view"], let frame {
                frames[frame, default: [:]][id] = (Double(attributes["opacity"] ?? "") ?? -1, nil)
                pendingView = id
            } else if let view = pendingView, let frame, name == "rect" || name == "path" {
                frames[frame]?[view]?.fill = attributes["fill"]
                pendingView = nil
            } else if name == "g" {
                pendingView = nil
            }
        }
    }
    let parser = XMLParser(data: Data(svg.utf8))
    let collector = Collector()
    parser.delegate = collector
    #expect(parser.parse(), "the SVG is not well-formed XML: \(String(describing: parser.parserError))")
    return collector.frames
}

/// CSS/Core Animation ease-in-out (0.42, 0, 0.58, 1) at x, by bisection on the Bézier's x(s): an independent check
/// of the engine's solver.
func easeInOut(_ x: Double) -> Double {
    func bezier(_ s: Double, _ p1: Double, _ p2: Double) -> Double {
        3 * (1 - s) * (1 - s) * s * p1 + 3 * (1 - s) * s * s * p2 + s * s * s
    }
    var lo = 0.0, hi = 1.0
    for _ in 0..<60 {
        let mid = (lo + hi) / 2
        if bezier(mid, 0.42, 0.58) < x { lo = mid } else { hi = mid }
    }
    return bezier((lo + hi) / 2, 0, 1)
}

@Suite("Render methods (render.filmstrip, render.timeline)")
struct RenderMethodTests {
    @Test("a cross-dissolve spec's filmstrip shows both views' colors with the expected alphas in the expected frames")
    func crossDissolveFilmstrip() throws {
        let h = try Harness()
        let result = try #require(try h.result("render.filmstrip", [
            "spec": ["animator": "cross-dissolve", "colors": ["#ff0000", "#0000ff"]], "frames": 6,
        ]))
        #expect(result["transition"]?["state"] == "completed")
        #expect(result["transition"]?["duration"] == 0.5)
        let span = try #require(result["transition"]?["ended_at"]?.doubleValue)
            - (try #require(result["transition"]?["started_at"]?.doubleValue))
        let cells = try #require(result["frames"]?.arrayValue)
        #expect(cells.count == 6)
        let frames = try framesOf(try #require(result["svg"]?.stringValue))
        #expect(frames.count == 6)
        for (i, cell) in cells.enumerated() {
            let time = try #require(cell["time"]?.doubleValue)
            #expect(abs(time - span * Double(i) / 5) < 1e-9)
            let views = try #require(frames[i])
            let to = try #require(views["to.view"], "frame \(i) has no to.view")
            #expect(to.fill == "#0000ff")
            if i == 5 {
                // The end: the from-view has left the container; the to-view is opaque.
                #expect(views["from.view"] == nil)
                #expect(to.opacity == 1)
            } else {
                let p = easeInOut(min(time / 0.5, 1))
                let from = try #require(views["from.view"], "frame \(i) has no from.view")
                #expect(from.fill == "#ff0000")
                #expect(abs(from.opacity - (1 - p)) < 1e-3, "frame \(i) at \(time) s: from alpha \(from.opacity), expected \(1 - p)")
                #expect(abs(to.opacity - p) < 1e-3, "frame \(i) at \(time) s: to alpha \(to.opacity), expected \(p)")
            }
        }
        // The spec's events: the select's lifecycle calls, began, completed.
        let types = try #require(result["events"]?.arrayValue).compactMap { $0["type"]?.stringValue }
        #expect(types.first == "vc.will_move_to_parent")
        #expect(types.contains("transition.began") && types.last == "transition.completed")
    }

    @Test("a transition of a scene: drawn while it runs (later frames ahead) and replayed once it has finished")
    func sceneTransition() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("container.select", ["container": "tabs", "index": 1, "animator": "cross-dissolve"])
        try h.call("clock.advance", ["ms": 200])
        let running = try #require(try h.result("render.filmstrip", ["transition": "t-1", "frames": 6]))
        #expect(running["transition"]?["state"] == "animating")
        let ahead = try #require(running["frames"]?.arrayValue).map { $0["ahead"] == true }
        #expect(ahead == [false, false, false, true, true, true])
        let before = try framesOf(try #require(running["svg"]?.stringValue))
        try h.call("clock.advance", ["ms": 400])
        let finished = try #require(try h.result("render.filmstrip", ["scene": "main", "transition": "t-1", "frames": 6]))
        #expect(finished["transition"]?["state"] == "completed")
        #expect(try #require(finished["frames"]?.arrayValue).allSatisfy { $0["ahead"] == nil })
        #expect(running["events"] == nil && finished["events"] == nil, "only the spec form answers its scene's events")
        let after = try framesOf(try #require(finished["svg"]?.stringValue))
        // Frames before 0.2 s were recorded then; replaying them later gives the same picture.
        #expect(before[1]?["a.view"]?.opacity == after[1]?["a.view"]?.opacity)
        #expect(after[5]?["a.view"] == nil && after[5]?["b.view"]?.opacity == 1)
        #expect(after[1]?["b.view"]?.fill == "#0000ff" && after[1]?["a.view"]?.fill == "#ff0000")
    }

    @Test("a finished transition forgotten for engine.timeline_retention_bytes is -32001 to render.* and transition.get; the newest still renders")
    func forgottenForBytes() throws {
        let h = try Harness { $0.engine.timelineRetentionBytes = 1 }
        try h.setUpScene()
        for (index, ms) in [(1, 600), (0, 600)] {
            try h.call("container.select", ["container": "tabs", "index": .number(Double(index)), "animator": "cross-dissolve"])
            try h.call("clock.advance", ["ms": .number(Double(ms))])
        }
        for method in ["render.filmstrip", "render.timeline", "transition.get"] {
            let answer = try h.call(method, ["transition": "t-1"]).last
            #expect(answer?["error"]?["code"] == -32001, "\(method): \(String(describing: answer))")
        }
        let newest = try #require(try h.result("render.filmstrip", ["transition": "t-2", "frames": 2]))
        #expect(newest["transition"]?["state"] == "completed")
        #expect(try h.result("transition.list")?.arrayValue?.compactMap { $0["transition"]?.stringValue } == ["t-2"])
    }

    @Test("render.timeline of a spec: the default slide's curves, and only the asked-for properties when given")
    func timeline() throws {
        let h = try Harness()
        let all = try #require(try h.result("render.timeline", ["spec": ["animator": "default-slide"]]))
        let properties = try #require(all["properties"]?.arrayValue).compactMap(\.stringValue)
        #expect(properties.contains("transform.tx") && properties.contains("alpha"))
        #expect(all["views"] == ["from.view", "to.view"])
        let svg = try #require(all["svg"]?.stringValue)
        #expect(svg.hasPrefix("<svg") && svg.contains("data-property=\"transform.tx\""))
        let one = try #require(try h.result("render.timeline", [
            "spec": ["animator": "dt-slide", "kind": "push", "size": ["w": 200, "h": 300]], "properties": ["frame.x"],
        ]))
        #expect(one["properties"] == ["frame.x"])
        #expect(one["transition"]?["kind"] == "push" && one["transition"]?["animator"] == "dt-slide")
    }

    @Test("each spec kind runs: select both ways, push, pop, present, dismiss")
    func kinds() throws {
        let h = try Harness()
        let cases: [(String, String?, String)] = [
            ("select", "forward", "dt-slide"), ("select", "backward", "dt-slide"), ("push", nil, "dt-slide"),
            ("pop", nil, "dt-slide"), ("present", nil, "bounce-present"), ("dismiss", nil, "normal-dismiss"),
        ]
        for (kind, direction, animator) in cases {
            var spec: JSONObject = ["animator": .string(animator), "kind": .string(kind)]
            if let direction { spec["direction"] = .string(direction) }
            let result = try #require(try h.result("render.filmstrip", ["spec": .object(spec), "frames": 2]), "\(kind)")
            #expect(result["transition"]?["kind"] == .string(kind))
            #expect(result["transition"]?["state"] == "completed")
            #expect(result["transition"]?["from"] == "from" && result["transition"]?["to"] == "to")
        }
    }

    @Test("bad requests are -32602 naming the parameter, unknown animators and transitions -32001; nothing is left behind")
    func errors() throws {
        let h = try Harness()
        func error(_ method: String, _ params: JSONValue) throws -> (code: Int?, param: String?) {
            let e = try h.call(method, params).last?["error"]
            return (e?["code"]?.intValue, e?["data"]?["param"]?.stringValue)
        }
        #expect(try error("render.filmstrip", [:]) == (-32602, "transition"))
        #expect(try error("render.filmstrip", ["spec": ["kind": "select"]]) == (-32602, "spec.animator"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "no-such"]]) == (-32001, "spec.animator"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "flip", "kind": "sideways"]]) == (-32602, "spec.kind"))
        #expect(try error("render.timeline", ["spec": ["animator": "flip", "kind": "set"]]) == (-32602, "spec.kind"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "flip", "speed": 2]]) == (-32602, "spec.speed"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "flip", "size": ["w": 0, "h": 1]]]) == (-32602, "spec.size"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "flip", "duration": -1]]) == (-32602, "spec.duration"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "flip", "kind": "push", "direction": "backward"]]) == (-32602, "spec.direction"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "flip"], "frames": 0]) == (-32602, "frames"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "flip"], "format": "png"]) == (-32602, "format"))
        #expect(try error("render.timeline", ["spec": ["animator": "flip"], "properties": ["frame.z"]]) == (-32602, "properties"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "flip"], "scene": "main"]) == (-32602, "scene"))
        #expect(try error("render.filmstrip", ["spec": ["animator": "flip"], "transition": "t-1"]) == (-32602, "spec"))
        try h.setUpScene()
        #expect(try error("render.filmstrip", ["transition": "t-9"]) == (-32001, "transition"))
        // Private scenes never show up.
        #expect(try h.result("scene.list")?.arrayValue?.count == 1)
    }

    @Test("spec.duration draws only the first part of the transition")
    func specDuration() throws {
        let h = try Harness()
        let result = try #require(try h.result("render.filmstrip", ["spec": ["animator": "default-slide", "duration": 0.25], "frames": 3]))
        let times = try #require(result["frames"]?.arrayValue).compactMap { $0["time"]?.doubleValue }
        #expect(times == [0, 0.125, 0.25])
    }
}

@Suite("Render methods: limits")
struct RenderLimitTests {
    @Test("a filmstrip that would draw more than 200 000 views is -32004, and fewer frames of it still draw")
    func tooManyViews() throws {
        // An animator that fills the container with 1 000 small views.
        let dir = NSTemporaryDirectory() + "segue-render-plugins-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: dir) }
        try """
            return segue.animator {
              name = "confetti", version = "1.0.0", api = 1,
              duration = function(ctx) return 0.1 end,
              animate = function(ctx)
                local to = ctx:view("to")
                to.frame = ctx:final_frame("to")
                ctx.container:add(to)
                for i = 1, 1000 do
                  ctx.container:add(segue.view { frame = { x = i % 32 * 10, y = i // 32 * 10, w = 8, h = 8 }, color = "#ff9500" })
                end
                segue.after(0.1, function() ctx:complete(true) end)
              end,
            }
            """.write(toFile: dir + "/confetti.lua", atomically: true, encoding: .utf8)
        var config = DaemonConfig()
        config.pluginsDir = dir
        config.lua.callTimeoutMs = 20_000  // 1 000 views in one call: the budget decides, not a loaded machine's clock
        let daemon = Daemon(config: config, logger: Logger(label: "test"))
        daemon.start()
        let h = try Harness(daemon: daemon)
        let tooMany = try h.call("render.filmstrip", ["spec": ["animator": "confetti"], "frames": 300]).last?["error"]
        #expect(tooMany?["code"] == -32004, "\(String(describing: tooMany))")
        #expect(tooMany?["data"]?["limit"] == 200_000)
        let fine = try #require(try h.result("render.filmstrip", ["spec": ["animator": "confetti"], "frames": 3]))
        #expect((fine["svg"]?.stringValue?.components(separatedBy: "fill=\"#ff9500\"").count ?? 0) > 1000)
        let chart = try #require(try h.result("render.timeline", ["spec": ["animator": "confetti"]]))
        #expect(chart["svg"]?.stringValue?.hasPrefix("<svg") == true)
    }

    @Test("a present spec with style overFullScreen keeps the presenter in the last frame; fullScreen takes it away")
    func presentSpecStyle() throws {
        let h = try Harness()
        func lastFrame(_ extra: [String: JSONValue]) throws -> [String: (opacity: Double, fill: String?)] {
            var spec: [String: JSONValue] = ["animator": "overlay-present", "kind": "present"]
            for (k, v) in extra { spec[k] = v }
            let result = try #require(try h.result("render.filmstrip", ["spec": .object(JSONObject(spec.map { ($0.key, $0.value) })), "frames": 4]))
            let frames = try framesOf(result["svg"]?.stringValue ?? "")
            return frames[frames.keys.max() ?? 0] ?? [:]
        }
        let over = try lastFrame(["style": "overFullScreen"])
        #expect(over["from.view"] != nil && over["to.view"] != nil, "\(over.keys)")
        let full = try lastFrame([:])
        #expect(full["from.view"] == nil && full["to.view"] != nil, "\(full.keys)")
    }

    @Test("a spec's presentation plugin places the presented view and keeps the presenter")
    func presentSpecPresentation() throws {
        let h = try Harness()
        let result = try #require(try h.result("render.timeline", [
            "spec": ["animator": "side-panel-slide", "kind": "dismiss", "presentation": "side-panel"],
        ]))
        #expect(result["transition"]?["state"] == "completed")
        #expect((result["transition"]?["ended_at"]?.doubleValue ?? 0) >= 0.5, "the dismissal ran its 0.5 s")
    }

    @Test("style and presentation in a spec are checked", arguments: [
        (["animator": "flip", "kind": "push", "style": "custom"], "spec.style"),
        (["animator": "flip", "kind": "present", "style": "sideways"], "spec.style"),
        (["animator": "flip", "kind": "present", "style": "fullScreen", "presentation": "side-panel"], "spec.presentation"),
        (["animator": "flip", "kind": "present", "presentation": 5], "spec.presentation"),
        (["animator": "flip", "kind": "present", "presentation": "nope"], "spec.presentation"),
        (["animator": "flip", "kind": "present", "presentation": "flip"], "spec.presentation"),
    ] as [(JSONValue, String)])
    func specStyleChecked(spec: JSONValue, param: String) throws {
        let h = try Harness()
        let error = try h.call("render.filmstrip", ["spec": spec]).last?["error"]
        #expect(error?["data"]?["param"]?.stringValue == param, "\(String(describing: error))")
    }
}
