import SegueJSON
import SegueKit
import SegueRender

/// `render.filmstrip` and `render.timeline`: pictures of a transition, either one of a scene (running or finished,
/// replayed from its recorded timeline) or one that a `spec` describes, run for the picture in a private manual
/// scene that nobody else sees.
extension Daemon {
    /// What a `spec` asks for: an animator and a transition kind, in a private scene of two view controllers.
    struct RenderSpec {
        var animator: String
        var kind: TransitionKind = .select
        var size = Size(w: 320, h: 480)
        /// How much to draw, in seconds from the start (nil: all of it).
        var duration: Double?
        var colors = [Color(r: 1, g: 0.231, b: 0.188), Color(r: 0, g: 0.478, b: 1)]
        var backward = false
        /// present and dismiss: the modal presentation style (nil: custom with a presentation plugin, else
        /// fullScreen) and the presentation plugin.
        var style: PresentationStyle?
        var presentation: String?
        /// A sheet style's grabber (`sheet.grabber`).
        var grabber = false
        var sheet: SheetConfiguration? { grabber ? SheetConfiguration(grabber: true) : nil }
    }

    /// A picture's source, and what the result says about it besides the SVG.
    struct RenderInput {
        let source: RenderSource
        var extra: JSONObject
    }

    /// A filmstrip draws at most this many views in all (frames × views), which keeps its SVG to a few MB.
    static let maxDrawnViews = 200_000

    func renderFilmstrip(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let frames = try p.int("frames", in: 1...Filmstrip.maxFrames) ?? 8
        let labels = try p.bool("labels") ?? true
        let request = try renderRequest(p, c)
        try p.finish()
        let input = try renderInput(request)
        let budget = Daemon.maxDrawnViews
        guard frames * max(1, input.source.maxViews) <= budget else {
            throw .limit("\(frames) frames of \(input.source.maxViews) views is more than \(budget) views to draw; "
                         + "ask for fewer frames", limit: budget)
        }
        let strip = Filmstrip(input.source, frames: frames, labels: labels)
        var result = JSONObject([("svg", .string(strip.svg))])
        result["width"] = .number(strip.width)
        result["height"] = .number(strip.height)
        result["frames"] = .array(strip.cells.map { cell in
            var o = JSONObject([
                ("index", .number(Double(cell.index))), ("time", .number(cell.time)), ("x", .number(cell.x)),
                ("y", .number(cell.y)), ("w", .number(cell.w)), ("h", .number(cell.h)),
            ])
            if cell.ahead { o["ahead"] = true }
            return .object(o)
        })
        for (k, v) in input.extra { result[k] = v }
        return .object(result)
    }

    func renderTimeline(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        var properties: [PlotProperty]?
        if let names = try p.array("properties") {
            guard !names.isEmpty, names.count <= 24 else {
                throw .invalidParams("properties", "'properties' must list 1 to 24 property names")
            }
            var list: [PlotProperty] = []
            for (i, value) in names.enumerated() {
                guard let name = value.stringValue, let property = PlotProperty.named(name) else {
                    throw .invalidParams("properties", "properties[\(i)] must be one of "
                        + PlotProperty.all.map(\.name).joined(separator: ", "))
                }
                if !list.contains(property) { list.append(property) }
            }
            properties = list
        }
        let request = try renderRequest(p, c)
        try p.finish()
        let input = try renderInput(request)
        let chart = TimelineChart(input.source, properties: properties)
        var result = JSONObject([("svg", .string(chart.svg))])
        result["properties"] = .array(chart.properties.map { .string($0) })
        result["views"] = .array(chart.views.map { .string($0) })
        for (k, v) in input.extra { result[k] = v }
        return .object(result)
    }

    /// Either a transition of a scene or a spec, read (and checked) before anything runs.
    enum RenderRequest {
        case transition(Scene, Transition)
        case spec(RenderSpec)
    }

    func renderRequest(_ p: Params, _ c: ClientConnection) throws(RPCError) -> RenderRequest {
        _ = try p.oneOf("format", ["svg"])
        let transitionID = try p.id("transition")
        let spec = try p.objectValue("spec")
        switch (transitionID, spec) {
        case (let id?, nil):
            let scene = try scene(p, c)
            guard let transition = scene.transition(id) else {
                if scene.queuedRequest(id) != nil {
                    throw .invalidState("transition '\(id)' is queued: it has not started, so there is nothing to draw yet", id: id)
                }
                throw .notFound("transition", id, param: "transition")
            }
            return .transition(scene, transition)
        case (nil, let object?):
            if p.has("scene") { throw .invalidParams("scene", "'scene' goes with 'transition'; a spec runs in a private scene") }
            return .spec(try renderSpec(object))
        case (nil, nil):
            throw .invalidParams("transition", "give 'transition' (of a scene) or 'spec' ({animator, kind, size?, duration?})")
        case (.some, .some):
            throw .invalidParams("spec", "give either 'transition' or 'spec', not both")
        }
    }

    /// `spec: {animator, kind?: "select", size?: {w, h}, duration?, colors?: [from, to], direction?, style?,
    /// presentation?}`.
    func renderSpec(_ o: JSONObject) throws(RPCError) -> RenderSpec {
        let known = ["animator", "kind", "size", "duration", "colors", "direction", "style", "presentation", "grabber"]
        for key in o.keys where !known.contains(key) {
            throw .invalidParams("spec.\(key)", "unknown key 'spec.\(key)' (\(known.joined(separator: ", ")))")
        }
        guard let animator = o["animator"]?.stringValue, !animator.isEmpty, animator.utf8.count <= 256 else {
            throw .invalidParams("spec.animator", "'spec.animator' must name an animator (a plugin, or default-slide)")
        }
        var spec = RenderSpec(animator: animator)
        if let value = o["kind"], !value.isNull {
            let kinds = ["select", "push", "pop", "present", "dismiss"]
            guard let name = value.stringValue, kinds.contains(name), let kind = TransitionKind(rawValue: name) else {
                throw .invalidParams("spec.kind", "'spec.kind' must be one of \(kinds.joined(separator: ", "))")
            }
            spec.kind = kind
        }
        if let value = o["size"], !value.isNull {
            guard let size = ValueJSON.parseSize(value), size.w >= 1, size.h >= 1, size.w <= 10_000, size.h <= 10_000 else {
                throw .invalidParams("spec.size", "'spec.size' must be {w, h} with 1 ≤ w, h ≤ 10000")
            }
            spec.size = size
        }
        if let value = o["duration"], !value.isNull {
            guard let seconds = value.doubleValue, seconds.isFinite, seconds > 0, seconds <= 600 else {
                throw .invalidParams("spec.duration",
                                     "'spec.duration' must be seconds, 0 < duration ≤ 600 (how much of the transition to draw)")
            }
            spec.duration = seconds
        }
        if let value = o["colors"], !value.isNull {
            guard case .array(let list) = value, list.count == 2,
                let from = list[0].stringValue.flatMap(Color.init(hex:)),
                let to = list[1].stringValue.flatMap(Color.init(hex:))
            else {
                throw .invalidParams("spec.colors", "'spec.colors' must be two colors, [from, to], each \"#rrggbb\" or \"#rrggbbaa\"")
            }
            spec.colors = [from, to]
        }
        if let value = o["direction"], !value.isNull {
            guard let text = value.stringValue, let direction = TransitionDirection(rawValue: text) else {
                let directions = TransitionDirection.allCases.map(\.rawValue).joined(separator: " or ")
                throw .invalidParams("spec.direction", "'spec.direction' must be \(directions)")
            }
            guard spec.kind == .select else {
                throw .invalidParams("spec.direction", "'spec.direction' applies to select (push is forward, pop backward)")
            }
            spec.backward = direction == .backward
        }
        if let value = o["style"], !value.isNull {
            let styles = PresentationStyle.allCases.map(\.rawValue)
            guard let text = value.stringValue, let style = PresentationStyle(rawValue: text) else {
                throw .invalidParams("spec.style", "'spec.style' must be one of \(styles.joined(separator: ", "))")
            }
            spec.style = style
        }
        if let value = o["presentation"], !value.isNull {
            guard let name = value.stringValue, !name.isEmpty, name.utf8.count <= 256 else {
                throw .invalidParams("spec.presentation", "'spec.presentation' must name a presentation plugin")
            }
            if let style = spec.style, style != .custom {
                throw .invalidParams("spec.presentation",
                                     "a presentation plugin goes with style \"custom\", not \"\(style.rawValue)\"")
            }
            spec.presentation = name
        }
        if let value = o["grabber"], !value.isNull {
            guard let flag = value.boolValue else { throw .invalidParams("spec.grabber", "'spec.grabber' must be a boolean") }
            if flag, !(spec.style?.isSheet ?? false) {
                throw .invalidParams("spec.grabber", "'spec.grabber' goes with a sheet style (pageSheet, formSheet, automatic)")
            }
            spec.grabber = flag
        }
        if spec.style != nil || spec.presentation != nil, spec.kind != .present, spec.kind != .dismiss {
            let key = spec.style != nil ? "spec.style" : "spec.presentation"
            throw .invalidParams(key, "'\(key)' applies to present and dismiss, not \(spec.kind.rawValue)")
        }
        return spec
    }

    func renderInput(_ request: RenderRequest) throws(RPCError) -> RenderInput {
        switch request {
        case .transition(let scene, let transition):
            return RenderInput(source: RenderSource(transition: transition, scene: scene),
                               extra: JSONObject([("transition", scene.json(of: transition))]))
        case .spec(let spec):
            return try runSpec(spec)
        }
    }

    /// Runs the spec's transition to its end in a private manual scene (the watchdog ends one that never
    /// completes) and keeps its events for the result.
    func runSpec(_ spec: RenderSpec) throws(RPCError) -> RenderInput {
        let scene = Scene(id: "render", size: spec.size, clock: .manual, config: config.engine)
        let recorder = PrivateSceneRecorder()
        scene.sink = recorder
        scene.animatorProvider = plugins
        defer { plugins.forget(scene: scene) }
        let transition: Transition
        do throws(EngineError) {
            transition = try startSpecTransition(spec, in: scene, recorder: recorder)
        } catch {
            // Only the animator's name comes from the client here.
            var rpc = RPCError(error)
            if error.param == "presentation" {
                rpc = RPCError(code: rpc.code, message: error.message, kind: error.code.rawValue, param: "spec.presentation",
                               id: error.id)
            } else if error.param == "animator" || error.code == .notFound {
                rpc = RPCError(code: rpc.code, message: error.message, kind: error.code.rawValue, param: "spec.animator",
                               id: error.id)
            }
            throw rpc
        }
        let step: Int64 = 100_000_000
        let limit = spec.duration.map { transition.startedAt + Int64(($0 * 1e9).rounded()) }
        var steps = 0
        while !transition.isEnded, steps < 6000 {
            if let limit, scene.now >= limit { break }
            scene.advance(by: step)
            steps += 1
        }
        let until = spec.duration.map { Int64(($0 * 1e9).rounded()) }
        var extra = JSONObject([("transition", scene.json(of: transition))])
        extra["events"] = .array(recorder.events.map { .object($0.params) })
        return RenderInput(source: RenderSource(transition: transition, scene: scene, until: until), extra: extra)
    }

    /// Builds the spec's two view controllers in the container its kind needs and starts the transition.
    func startSpecTransition(_ spec: RenderSpec, in scene: Scene, recorder: PrivateSceneRecorder) throws(EngineError)
        -> Transition
    {
        let from = try scene.createViewController(id: "from", title: "From", color: spec.colors[0])
        let to = try scene.createViewController(id: "to", title: "To", color: spec.colors[1])
        let start: TransitionStart
        switch spec.kind {
        case .select:
            // The from-view controller is selected first: index 0 going forward, index 1 going backward.
            let items = spec.backward ? [to, from] : [from, to]
            let container = try scene.createContainer(id: "container", kind: .custom, items: items)
            try scene.setRoot(container)
            if spec.backward { _ = try scene.select(container, index: 1, animated: false) }
            recorder.events.removeAll()
            start = try scene.select(container, index: spec.backward ? 0 : 1, animator: spec.animator)
        case .push:
            let nav = try scene.createContainer(id: "nav", kind: .navigation, items: [from])
            try scene.setRoot(nav)
            recorder.events.removeAll()
            start = try scene.push(nav, to, animator: spec.animator)
        case .pop:
            let nav = try scene.createContainer(id: "nav", kind: .navigation, items: [to, from])
            try scene.setRoot(nav)
            recorder.events.removeAll()
            start = try scene.pop(nav, animator: spec.animator)
        case .present:
            try scene.setRoot(from)
            recorder.events.removeAll()
            start = try scene.present(to, from: from, style: spec.style, presentation: spec.presentation,
                                      animator: spec.animator, sheet: spec.sheet)
        case .dismiss:
            // `from` is presented over `to` first (not animated), then dismissed with the animator.
            try scene.setRoot(to)
            _ = try scene.present(from, from: to, style: spec.style, presentation: spec.presentation, animated: false,
                                  sheet: spec.sheet)
            recorder.events.removeAll()
            start = try scene.dismiss(from, animator: spec.animator)
        case .set, .column, .displayMode:
            throw EngineError(.invalidParams, "'spec.kind' must be select, push, pop, present or dismiss", param: "spec.kind")
        }
        guard let transition = start.transition else {
            throw EngineError(.invalidState, "the spec's transition did not start")
        }
        return transition
    }
}

/// The events of a private scene (everything but frames), for the spec form's result.
final class PrivateSceneRecorder: EventSink {
    var events: [EngineEvent] = []
    func emit(_ event: EngineEvent) {
        if events.count < 10_000 { events.append(event) }
    }
    func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool { kind != .frame }
}
