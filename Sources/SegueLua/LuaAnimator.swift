import CLuaShim
import SegueKit

/// An animator plugin (`segue.animator{}`) seen by the engine as any other UIViewControllerAnimatedTransitioning.
final class LuaAnimator: Animator {
    let name: String
    let instance: PluginInstance
    let ref: Int32

    /// The contexts this animator handed to Lua: forgotten when it goes away, even when `ended` never reaches it
    /// (a failed-over transition ends with the default animator), so the instance keeps no context alive.
    private var handedOut: Set<ObjectIdentifier> = []

    init(name: String, instance: PluginInstance, ref: Int32) {
        self.name = name
        self.instance = instance
        self.ref = ref
    }

    deinit {
        for key in handedOut { instance.forgetContext(key) }
    }

    private func push(_ context: TransitionContext) {
        handedOut.insert(ObjectIdentifier(context))
        instance.pushContext(context)
    }

    func transitionDuration(using context: TransitionContext) throws(AnimatorFault) -> Double {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        switch instance.pushField(ref, "duration") {
        case LUA_TNUMBER:
            return state.number(at: -1) ?? 0
        case LUA_TFUNCTION:
            push(context)
            if let error = instance.callPlugin(args: 1, results: 1, function: "duration") { throw AnimatorFault("duration: \(error.message)") }
            guard let duration = state.number(at: -1) else {
                throw AnimatorFault("duration(ctx) must return a number of seconds, got \(state.typeName(at: -1))")
            }
            return duration
        default:
            throw AnimatorFault("the animator has no duration function")
        }
    }

    func animateTransition(using context: TransitionContext) throws(AnimatorFault) {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        guard instance.pushField(ref, "animate") == LUA_TFUNCTION else {
            throw AnimatorFault("the animator has no animate function")
        }
        push(context)
        if let error = instance.callPlugin(args: 1, results: 0, function: "animate") { throw AnimatorFault("animate: \(error.message)") }
    }

    func animationEnded(_ completed: Bool, context: TransitionContext) throws(AnimatorFault) {
        let state = instance.state
        let base = state.top
        defer {
            state.setTop(base)
            instance.forgetContext(context)
            handedOut.remove(ObjectIdentifier(context))
        }
        guard instance.pushField(ref, "ended") == LUA_TFUNCTION else { return }
        state.push(completed)
        if let error = instance.callPlugin(args: 1, results: 0, function: "ended") { throw AnimatorFault("ended: \(error.message)") }
    }
}
