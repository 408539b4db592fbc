import SegueJSON
import SegueKit

/// transition.update/pause/finish/cancel and gesture.pan (docs/PROTOCOL.md, docs/DESIGN.md §3 "Interactive").
extension Daemon {
    /// The running transition a request names.
    func runningTransition(_ p: Params, _ scene: Scene) throws(RPCError) -> Transition {
        let id = try p.requiredID("transition")
        guard let t = scene.transition(id) else {
            if scene.queuedJSON(id) != nil {
                throw .invalidState("transition '\(id)' is queued: it has not started", id: id)
            }
            throw .notFound("transition", id, param: "transition")
        }
        return t
    }

    /// What the interactive methods answer: the transition's state and percent after the call.
    func interactiveResult(_ scene: Scene, _ t: Transition) -> JSONValue {
        .object(JSONObject([
            ("transition", .string(t.id)), ("state", .string(t.state.rawValue)),
            ("percent", .number(scene.percent(of: t))),
        ]))
    }

    func transitionUpdate(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        let t = try runningTransition(p, scene)
        guard let percent = try p.number("percent", in: 0...1) else {
            throw .invalidParams("percent", "missing parameter 'percent' (0…1)")
        }
        try p.finish()
        do throws(EngineError) { try scene.updateTransition(t, percent: percent) } catch { throw RPCError(error) }
        return interactiveResult(scene, t)
    }

    func transitionPause(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        let t = try runningTransition(p, scene)
        try p.finish()
        do throws(EngineError) { try scene.pauseTransition(t) } catch { throw RPCError(error) }
        return interactiveResult(scene, t)
    }

    func transitionEnd(_ p: Params, _ c: ClientConnection, cancel: Bool) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        let t = try runningTransition(p, scene)
        let speed = try p.number("speed", in: 0...100)
        if let speed, speed <= 0 { throw .invalidParams("speed", "'speed' must be in 0 < speed ≤ 100, got \(speed)") }
        let curve = try timingCurve(p, "curve")
        try p.finish()
        do throws(EngineError) {
            try scene.endInteraction(t, cancel: cancel, speed: speed, curve: curve)
        } catch {
            throw RPCError(error)
        }
        return interactiveResult(scene, t)
    }

    /// A completion curve: `linear`, `ease_in`, `ease_out`, `ease_in_out`, `default` or `[x1, y1, x2, y2]`.
    func timingCurve(_ p: Params, _ key: String) throws(RPCError) -> CubicBezier? {
        guard p.has(key), let value = p.object[key] else { return nil }
        if let name = value.stringValue {
            guard let curve = CubicBezier.named(name) else {
                throw .invalidParams(key, "'\(key)' must be linear, ease_in, ease_out, ease_in_out, default or [x1, y1, x2, y2]")
            }
            return curve
        }
        if let a = value.arrayValue, a.count == 4 {
            let n = a.compactMap(\.doubleValue)
            if n.count == 4, n.allSatisfy(\.isFinite), (0...1).contains(n[0]), (0...1).contains(n[2]), n[1].magnitude < 1e6,
                n[3].magnitude < 1e6
            {
                return CubicBezier(n[0], n[1], n[2], n[3])
            }
        }
        throw .invalidParams(key, "'\(key)' must be a curve name or [x1, y1, x2, y2] with x1, x2 in 0…1")
    }

    /// gesture.pan: routed to the transition's interaction plugin; a `began` with `start` first starts the
    /// transition it names (seed 002: the gesture begins the dismissal). Daemon+Gestures.swift.
    func gesturePan(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        if p.has("sheet") { return try sheetPan(p, c) }
        if p.has("edge") { return try edgePan(p, c) }
        return try gesture(p, c, kind: .pan)
    }

    func point(_ p: Params, _ key: String) throws(RPCError) -> Point? {
        guard let o = try p.objectValue(key) else { return nil }
        guard let x = o["x"]?.doubleValue, let y = o["y"]?.doubleValue, x.isFinite, y.isFinite,
            x.magnitude <= 1e7, y.magnitude <= 1e7
        else { throw .invalidParams(key, "'\(key)' must be {x, y} with finite numbers") }
        return Point(x: x, y: y)
    }

    /// Runs `start.method` with `start.params` (a transition-starting method asked to be interactive with an
    /// interaction plugin) and returns the transition it started.
    func startFromGesture(_ start: JSONObject, scene: Scene, connection: ClientConnection) throws(RPCError) -> Transition {
        let starters = Daemon.gestureStarters
        guard let method = start["method"]?.stringValue, starters.contains(method), let handler = Daemon.methods[method]?.handler else {
            throw .invalidParams("start", "start.method must be one of \(starters.sorted().joined(separator: ", "))")
        }
        var params = start["params"]?.objectValue ?? JSONObject()
        if start["params"] != nil, start["params"]?.objectValue == nil {
            throw .invalidParams("start", "start.params must be an object")
        }
        // The gesture drives the transition it starts, so both live in one scene: a start in another scene would
        // hand this scene's gesture a transition it does not hold (and let a client reach past its scene).
        if let named = params["scene"] {
            guard named.stringValue == scene.id else {
                throw .invalidParams("start", "start.params.scene \(named.serialized()) is not the gesture's scene "
                    + "'\(scene.id)': a gesture starts a transition in its own scene")
            }
        } else {
            params["scene"] = .string(scene.id)
        }
        guard let interactive = params["interactive"]?.stringValue, Scene.isValidID(interactive) else {
            throw .invalidParams("start", "start.params.interactive must name the interaction plugin the gesture drives")
        }
        guard case .started(let start) = try handler(self, Params(params), connection), let t = start.transition else {
            throw .invalidState("start did not start a transition (nothing to do, or it was queued)")
        }
        return t
    }
}

/// modal.present and modal.dismiss.
extension Daemon {
    func modalPresent(_ p: Params, _ c: ClientConnection) throws(RPCError) -> TransitionStart {
        let scene = try scene(p, c)
        let presenting = try viewController(p, scene, key: "presenting")
        let presented = try viewController(p, scene, key: "presented")
        let style = try p.oneOf("style", PresentationStyle.allCases.map(\.rawValue)).flatMap(PresentationStyle.init(rawValue:))
        let plugin = try p.id("presentation")
        let animated = try p.bool("animated") ?? true
        let interactive = try interactivity(p)
        let animator = try p.string("animator")
        let transitionStyle = try p.oneOf("transition_style", ModalTransitionStyle.allCases.map(\.rawValue))
            .flatMap(ModalTransitionStyle.init(rawValue:))
        let info = try transitionInfo(p)
        let sheet = try sheetConfiguration(p)
        let popover = try popoverConfiguration(p, scene)
        let zoom = try preferredTransition(p, scene)
        try p.finish()
        if style == .popover, case .some(.some) = zoom {
            throw .invalidParams("preferred_transition", "a popover presents from its own source (popover.source_view): "
                + "'preferred_transition' zooms full-screen, sheet and custom presentations and pushes only")
        }
        return try withPreferredTransition(zoom, on: presented, scene) { () throws(RPCError) in
            do throws(EngineError) {
                return try scene.withTransitionInfo(info) { () throws(EngineError) in
                    try scene.present(presented, from: presenting, style: style, presentation: plugin,
                                       animated: animated, interactive: interactive, animator: animator, sheet: sheet,
                                       popover: popover, transitionStyle: transitionStyle)
                }
            } catch {
                throw RPCError(error)
            }
        }
    }

    func modalDismiss(_ p: Params, _ c: ClientConnection) throws(RPCError) -> TransitionStart {
        let scene = try scene(p, c)
        let presented = try viewController(p, scene, key: "presented")
        let animated = try p.bool("animated") ?? true
        let interactive = try interactivity(p)
        let animator = try p.string("animator")
        let info = try transitionInfo(p)
        try p.finish()
        do throws(EngineError) {
            return try scene.withTransitionInfo(info) { () throws(EngineError) in
                try scene.dismiss(presented, animated: animated, interactive: interactive, animator: animator)
            }
        } catch {
            throw RPCError(error)
        }
    }
}
