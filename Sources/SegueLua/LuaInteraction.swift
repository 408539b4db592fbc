import CLuaShim
import SegueKit

/// An interaction plugin (`segue.interaction{}`): UIPercentDrivenInteractiveTransition's role, fed with
/// `gesture.pan`. The prelude keeps one `tr` table per transition (its `state` survives between calls).
final class LuaInteraction: InteractionController {
    let name: String
    let instance: PluginInstance
    let ref: Int32

    /// The contexts handed to `start(ctx)`, by transition: forgotten when it ends.
    private var handedOut: [String: ObjectIdentifier] = [:]

    init(name: String, instance: PluginInstance, ref: Int32) {
        self.name = name
        self.instance = instance
        self.ref = ref
    }

    /// Calls the prelude's interaction dispatcher: `(desc, method, id, percent, duration, kind, container, g)`.
    private func dispatch(_ method: String, _ t: Transition, gesture: PanGesture?, results: Int32) -> LuaError? {
        let state = instance.state
        guard instance.interactionHook != segue_noref() else { return LuaError("no interaction dispatcher") }
        state.pushRef(instance.interactionHook)
        state.pushRef(ref)
        state.push(method)
        state.push(t.id)
        state.push(t.context.map { $0.scene.percent(of: t) } ?? 0)
        state.push(t.duration)
        state.push(t.kind.rawValue)
        instance.pushView(t.context?.containerView)
        if let gesture { pushGesture(gesture) } else { state.pushNil() }
        return instance.callPlugin(args: 8, results: results)
    }

    /// `g`: `{phase, kind, location?}` and a pan's `translation` and `velocity` (points), a pinch's `scale` and
    /// `velocity` (scale per second), a rotation's `rotation` and `velocity` (radians per second).
    private func pushGesture(_ gesture: PanGesture) {
        let state = instance.state
        state.newTable(fieldCount: 5)
        let g = state.top
        state.push(gesture.phase.rawValue)
        state.setRawField(g, "phase")
        state.push(gesture.kind.rawValue)
        state.setRawField(g, "kind")
        switch gesture.kind {
        case .pan:
            for (key, p) in [("translation", gesture.translation), ("velocity", gesture.velocity)] {
                instance.pushPoint(p)
                state.setRawField(g, key)
            }
        case .pinch:
            state.push(gesture.scale)
            state.setRawField(g, "scale")
            state.push(gesture.rate)
            state.setRawField(g, "velocity")
        case .rotate:
            state.push(gesture.rotation)
            state.setRawField(g, "rotation")
            state.push(gesture.rate)
            state.setRawField(g, "velocity")
        }
        if let location = gesture.location {
            instance.pushPoint(location)
            state.setRawField(g, "location")
        }
    }

    /// `gesture_began(g, scene_info)` through the prelude's dispatcher, which answers `(has, result)`.
    func gestureBegan(_ gesture: PanGesture, sceneInfo: SceneInfo) throws(AnimatorFault) -> GestureChoice {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        guard instance.interactionHook != segue_noref() else { throw AnimatorFault("no interaction dispatcher") }
        state.pushRef(instance.interactionHook)
        state.pushRef(ref)
        state.push("gesture_began")
        for _ in 0..<5 { state.pushNil() }  // id, percent, duration, kind, container: no transition yet
        pushGesture(gesture)
        instance.pushSceneInfo(sceneInfo)
        if let error = instance.callPlugin(args: 9, results: 2) { throw AnimatorFault("gesture_began: \(error.message)") }
        guard state.bool(at: -2) else { return .unsupported }
        if state.isNil(-1) { return .refuse }
        let garbage = "gesture_began must return nil or {method = \"nav.pop\", params = {…}}, got "
        guard state.type(at: -1) == LUA_TTABLE else { throw AnimatorFault(garbage + state.typeName(at: -1)) }
        var budget = 4096
        guard case .object(let members)? = instance.infoValue(at: -1, budget: &budget) else {
            throw AnimatorFault(garbage + "a table that is not {method, params} of plain values")
        }
        for (key, _) in members where key != "method" && key != "params" {
            throw AnimatorFault(garbage + "a table with an unknown key '\(key)' (method, params)")
        }
        guard let method = members.first(where: { $0.0 == "method" })?.1.stringValue else {
            throw AnimatorFault(garbage + "a table without a method name")
        }
        let params = members.first { $0.0 == "params" }?.1 ?? .object([])
        guard case .object = params else { throw AnimatorFault(garbage + "params that are not a table of named values") }
        return .start(GestureOperation(method: method, params: params))
    }

    func handle(_ gesture: PanGesture, transition: Transition) throws(AnimatorFault) {
        let base = instance.state.top
        defer { instance.state.setTop(base) }
        let method: String
        switch gesture.phase {
        case .began: method = "began"
        case .changed: method = "changed"
        case .ended, .cancelled: method = "ended"
        }
        if let error = dispatch(method, transition, gesture: gesture, results: 0) {
            throw AnimatorFault("\(method): \(error.message)")
        }
    }

    func completionSpeed(_ transition: Transition) throws(AnimatorFault) -> Double? {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        if let error = dispatch("completion_speed", transition, gesture: nil, results: 1) {
            throw AnimatorFault("completion_speed: \(error.message)")
        }
        if state.isNil(-1) { return nil }
        guard let speed = state.number(at: -1) else {
            throw AnimatorFault("completion_speed(tr) must return a number, got \(state.typeName(at: -1))")
        }
        return speed
    }

    func completionCurve(_ transition: Transition) throws(AnimatorFault) -> CubicBezier? {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        if let error = dispatch("completion_curve", transition, gesture: nil, results: 1) {
            throw AnimatorFault("completion_curve: \(error.message)")
        }
        if state.isNil(-1) { return nil }
        if let name = state.string(at: -1), let curve = CubicBezier.named(name) { return curve }
        if state.type(at: -1) == LUA_TTABLE {
            var n: [Double] = []
            for i in 1...4 {
                if state.rawIndex(-1, i) == LUA_TNUMBER, let v = state.number(at: -1), v.isFinite { n.append(v) }
                state.pop()
            }
            if n.count == 4, (0...1).contains(n[0]), (0...1).contains(n[2]) { return CubicBezier(n[0], n[1], n[2], n[3]) }
        }
        throw AnimatorFault("completion_curve(tr) must return a curve name or {x1, y1, x2, y2}")
    }

    func transitionEnded(_ transition: Transition) {
        let base = instance.state.top
        defer { instance.state.setTop(base) }
        _ = dispatch("forget", transition, gesture: nil, results: 0)
        if let key = handedOut.removeValue(forKey: transition.id) { instance.forgetContext(key) }
    }

    /// `wants_interactive_start` (default true).
    var wantsInteractiveStart: Bool {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        state.pushRef(ref)
        return state.rawField(-1, "wants_interactive_start") != LUA_TBOOLEAN || state.bool(at: -1)
    }

    /// `start(ctx)`: a fully custom interaction drives the transition itself through ctx:update/finish/cancel.
    func startInteractiveTransition(_ transition: Transition, context: TransitionContext) throws(AnimatorFault) -> Bool {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        state.pushRef(ref)
        guard state.rawField(-1, "start") == LUA_TFUNCTION else { return false }
        if instance.pushContext(context) { handedOut[transition.id] = ObjectIdentifier(context) }
        if let error = instance.callPlugin(args: 1, results: 0, function: "start") {
            throw AnimatorFault("start: \(error.message)")
        }
        return true
    }
}
