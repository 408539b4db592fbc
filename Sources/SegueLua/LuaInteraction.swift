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
        if let gesture {
            state.newTable(fieldCount: 3)
            let g = state.top
            state.push(gesture.phase.rawValue)
            state.setRawField(g, "phase")
            for (key, p) in [("translation", gesture.translation), ("velocity", gesture.velocity)] {
                instance.pushPoint(p)
                state.setRawField(g, key)
            }
        } else {
            state.pushNil()
        }
        return instance.callPlugin(args: 8, results: results)
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
