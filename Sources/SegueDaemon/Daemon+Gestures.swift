import SegueJSON
import SegueKit

/// gesture.pan, gesture.pinch and gesture.rotate (docs/PROTOCOL.md "gesture"): a sample validated as UIKit's
/// recognizers report it, routed to the transition's interaction plugin; a `began` with `start` starts the
/// transition first, and a `began` with `interaction` asks that plugin's `gesture_began` what to start.
extension Daemon {
    /// The most `info` a request may carry, encoded (docs/PROTOCOL.md "info").
    static let maxInfoBytes = 16 * 1024

    /// `info?`: a JSON object, at most 16 KiB encoded (-32004 with `data.limit: "info_bytes"`).
    func transitionInfo(_ p: Params) throws(RPCError) -> InfoValue? {
        guard p.has("info"), let value = p.object["info"] else { return nil }
        guard case .object = value else {
            throw .invalidParams("info", "'info' must be a JSON object, not \(value.typeName)")
        }
        let bytes = value.serialized().utf8.count
        guard bytes <= Daemon.maxInfoBytes else {
            throw RPCError(code: -32004, message: "'info' is \(bytes) bytes encoded, more than \(Daemon.maxInfoBytes)",
                           data: JSONObject([("kind", "limit_exceeded"), ("param", "info"), ("limit", "info_bytes"),
                                             ("max", .number(Double(Daemon.maxInfoBytes)))]))
        }
        return Daemon.info(value)
    }

    static func info(_ value: JSONValue) -> InfoValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        case .array(let a): .array(a.map(info))
        case .object(let o): .object(o.pairs.map { ($0.key, info($0.value)) })
        }
    }

    static func json(_ value: InfoValue) -> JSONValue {
        switch value {
        case .null: .null
        case .bool(let b): .bool(b)
        case .number(let n): .number(n)
        case .string(let s): .string(s)
        case .array(let a): .array(a.map(json))
        case .object(let o): .object(JSONObject(uniquePairs: o.map { (key: $0.0, value: json($0.1)) }))
        }
    }

    /// A finite number parameter (-32602 naming it when it is not one).
    private func finite(_ p: Params, _ key: String) throws(RPCError) -> Double? {
        try p.number(key, in: -1e9...1e9)
    }

    /// gesture.pan, gesture.pinch, gesture.rotate.
    func gesture(_ p: Params, _ c: ClientConnection, kind: PanGesture.Kind) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        guard let name = try p.oneOf("phase", PanGesture.Phase.allCases.map(\.rawValue)),
            let phase = PanGesture.Phase(rawValue: name)
        else {
            throw .invalidParams("phase", "missing parameter 'phase' (began, changed, ended, cancelled)")
        }
        var gesture = PanGesture(phase: phase, kind: kind)
        switch kind {
        case .pan:
            gesture.translation = try point(p, "translation") ?? Point(x: 0, y: 0)
            gesture.velocity = try point(p, "velocity") ?? Point(x: 0, y: 0)
        case .pinch:
            let scale = try finite(p, "scale") ?? 1
            guard scale > 0 else { throw .invalidParams("scale", "'scale' must be > 0 (a pinch's scale), got \(scale)") }
            gesture.scale = scale
            gesture.rate = try finite(p, "velocity") ?? 0
        case .rotate:
            gesture.rotation = try finite(p, "rotation") ?? 0
            gesture.rate = try finite(p, "velocity") ?? 0
        }
        // segued's choice: a sample without `location` is at the window's centre.
        gesture.location = try point(p, "location") ?? Point(x: scene.size.w / 2, y: scene.size.h / 2)
        let start = try p.objectValue("start")
        let interaction = try p.id("interaction")
        let info = try transitionInfo(p)
        let named = try p.id("transition")
        try p.finish()
        let given = [start != nil ? "start" : nil, interaction != nil ? "interaction" : nil, named != nil ? "transition" : nil]
            .compactMap { $0 }
        guard given.count <= 1 else {
            throw .invalidParams(given[0], "give one of 'transition', 'start' or 'interaction', not \(given.joined(separator: " and "))")
        }
        if info != nil, interaction == nil {
            throw .invalidParams("info", "'info' goes with 'interaction' (a start's info goes in start.params)")
        }
        let transition: Transition
        if let start {
            guard phase == .began else { throw .invalidParams("start", "'start' goes with phase \"began\" only") }
            transition = try startFromGesture(start, scene: scene, connection: c)
        } else if let interaction {
            guard phase == .began else { throw .invalidParams("interaction", "'interaction' goes with phase \"began\" only") }
            guard let t = try gestureFirst(interaction, gesture, info: info, scene: scene, connection: c) else {
                return .object(JSONObject([("transition", .null), ("refused", true)]))
            }
            transition = t
        } else if named == nil, phase == .began, let target = scene.zoomDismissal(at: gesture.location ?? Point(x: 0, y: 0)) {
            // Gesture-first on a zoomed view: the zoom's own dismissal (Daemon+Zoom.swift).
            guard let t = try zoomGestureFirst(target, gesture, scene: scene, connection: c) else {
                return .object(JSONObject([("transition", .null), ("refused", true)]))
            }
            transition = t
        } else {
            guard let named else {
                throw .invalidParams("transition", "missing parameter 'transition' (or 'start' or 'interaction' with began)")
            }
            guard let t = scene.transition(named) else { throw .notFound("transition", named, param: "transition") }
            transition = t
        }
        do throws(EngineError) { try scene.pan(transition, gesture) } catch { throw RPCError(error) }
        return interactiveResult(scene, transition)
    }

    /// Gesture-first interaction: interaction plugin `name`'s `gesture_began(g, scene_info)` chooses the operation
    /// (or nil); the daemon runs it in the gesture's scene, interactive with `name`. Nil when refused: by the
    /// plugin, or because what it chose cannot start (a `plugin.warning` says why); nothing has started then.
    func gestureFirst(_ name: String, _ gesture: PanGesture, info: InfoValue?, scene: Scene,
                      connection: ClientConnection) throws(RPCError) -> Transition?
    {
        let controller: (any InteractionController)?
        do throws(EngineError) {
            controller = try scene.animatorProvider?.interaction(named: name, for: scene)
        } catch {
            throw RPCError(error, param: "interaction")
        }
        guard let controller else { throw .notFound("interaction plugin", name, param: "interaction") }
        let choice: GestureChoice
        do throws(AnimatorFault) {
            choice = try controller.gestureBegan(gesture, sceneInfo: scene.sceneInfo)
        } catch {
            scene.warnRaised(name, "gesture_began", error.message, then: "; the gesture is refused")
            return nil
        }
        let operation: GestureOperation
        switch choice {
        case .unsupported:
            throw .invalidState("the interaction plugin '\(name)' has no gesture_began(g, scene_info): it cannot "
                + "choose at the gesture's start (start the transition with 'start' instead)", param: "interaction")
        case .refuse: return nil
        case .start(let op): operation = op
        }
        func refuse(_ why: String) -> Transition? {
            scene.warn(name, "gesture_began chose \(operation.method): \(why); the gesture is refused")
            return nil
        }
        guard Daemon.gestureStarters.contains(operation.method), let handler = Daemon.methods[operation.method]?.handler else {
            return refuse("not a method a gesture starts (\(Daemon.gestureStarters.sorted().joined(separator: ", ")))")
        }
        guard case .object(let members) = Daemon.json(operation.params) else { return refuse("params must be a table") }
        var params = members
        // The gesture drives what it starts, so both live in its scene: another scene is refused.
        if let named = params["scene"], named.stringValue != scene.id {
            return refuse("params.scene \(named.serialized()) is not the gesture's scene '\(scene.id)'")
        }
        params["scene"] = .string(scene.id)
        params["interactive"] = .string(name)
        params["animated"] = true
        // All or nothing: a busy container refuses rather than queueing a transition the gesture could not drive
        // (modal.* have no queue: a busy presentation is refused already).
        if !operation.method.hasPrefix("modal.") { params["when_busy"] = "reject" }
        if let info { params["info"] = Daemon.json(info) }
        let result: MethodResult
        do throws(RPCError) {
            result = try handler(self, Params(params), connection)
        } catch {
            return refuse(error.message)
        }
        guard case .started(let start) = result, let t = start.transition else {
            return refuse("it started no transition (nothing to do)")
        }
        return t
    }

    /// The methods a gesture may start (`start.method`, what `gesture_began` returns).
    static let gestureStarters: Set<String> = [
        "container.select", "nav.push", "nav.pop", "nav.pop_to_root", "nav.set", "modal.present", "modal.dismiss",
    ]
}
