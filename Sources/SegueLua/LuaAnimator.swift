import CLuaShim
import SegueKit

/// An animator plugin (`segue.animator{}`) seen by the engine as any other UIViewControllerAnimatedTransitioning.
final class LuaAnimator: Animator {
    let name: String
    let instance: PluginInstance
    let ref: Int32

    /// The contexts this animator handed to Lua: forgotten when it goes away, even when `ended` never reaches it
    /// (a failed-over transition ends with the default animator), so the instance keeps no context alive.
    /// One transition per animator as the engine makes them (a new animator per transition start): the first is
    /// kept inline, so remembering it allocates nothing; any others go in `moreHandedOut`.
    @exclusivity(unchecked) private var handedOut: ObjectIdentifier?
    @exclusivity(unchecked) private var moreHandedOut: [ObjectIdentifier] = []

    init(name: String, instance: PluginInstance, ref: Int32) {
        self.name = name
        self.instance = instance
        self.ref = ref
    }

    deinit {
        if let key = handedOut { instance.forgetContext(key) }
        for key in moreHandedOut { instance.forgetContext(key) }
    }

    private func forgetHandedOut(_ key: ObjectIdentifier) {
        if handedOut == key {
            handedOut = nil
        } else if let i = moreHandedOut.firstIndex(of: key) {
            moreHandedOut.remove(at: i)
        }
    }

    /// Pushes the context's proxy; remembers a context this state did not know yet, to forget it later.
    @inline(__always)
    private func push(_ context: TransitionContext) {
        guard instance.pushContext(context) else { return }
        let key = ObjectIdentifier(context)
        if handedOut == nil {
            handedOut = key
        } else if handedOut != key, !moreHandedOut.contains(key) {
            moreHandedOut.append(key)
        }
    }

    // Each call: the field looked up by its interned key (the plugin may replace its functions), the transition's
    // cached context proxy, the call's stall-detector number from the instance's cache, one `segue_pcall`.
    func transitionDuration(using context: TransitionContext) throws(AnimatorFault) -> Double {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        switch instance.pushField(ref, .duration) {
        case LUA_TNUMBER:
            return state.number(at: -1) ?? 0
        case LUA_TFUNCTION:
            let activity = instance.activityNumber(.duration, at: -1)
            push(context)
            if let error = instance.callPlugin(args: 1, results: 1, activity: activity) {
                throw AnimatorFault("duration: \(error.message)")
            }
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
        guard instance.pushField(ref, .animate) == LUA_TFUNCTION else {
            throw AnimatorFault("the animator has no animate function")
        }
        let activity = instance.activityNumber(.animate, at: -1)
        push(context)
        if let error = instance.callPlugin(args: 1, results: 0, activity: activity) {
            throw AnimatorFault("animate: \(error.message)")
        }
    }

    /// Asked on every start (not cached: the plugin may replace its functions); the key pushed by reference.
    private func hasFunction(_ key: PluginInstance.Key) -> Bool {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        return instance.pushField(ref, key) == LUA_TFUNCTION
    }

    var offersInterruptibleAnimator: Bool { hasFunction(.interruptibleAnimator) }
    var hasAnimateTransition: Bool { hasFunction(.animate) }

    /// `interruptible_animator(ctx)` → the property animator it returns (a fault for anything else).
    func interruptibleAnimator(using context: TransitionContext) throws(AnimatorFault) -> PropertyAnimator {
        let state = instance.state
        let base = state.top
        defer { state.setTop(base) }
        state.pushRef(ref)
        guard state.rawField(-1, "interruptible_animator") == LUA_TFUNCTION else {
            throw AnimatorFault("the animator has no interruptible_animator function")
        }
        push(context)
        if let error = instance.callPlugin(args: 1, results: 1, function: "interruptible_animator") {
            throw AnimatorFault("interruptible_animator: \(error.message)")
        }
        let answer = state.top
        let kind = state.typeName(at: answer)
        state.pushRef(instance.animatorLookup)
        state.pushValue(answer)
        if state.call(args: 1, results: 1, topLevel: false) == nil, let id = state.number(at: -1),
            let animator = instance.propertyAnimators[Int(id)]
        {
            return animator
        }
        throw AnimatorFault("interruptible_animator(ctx) must return a property animator (segue.property_animator), got \(kind)")
    }

    func animationEnded(_ completed: Bool, context: TransitionContext) throws(AnimatorFault) {
        let state = instance.state
        let base = state.top
        defer {
            state.setTop(base)
            instance.forgetContext(context)
            forgetHandedOut(ObjectIdentifier(context))
        }
        guard instance.pushField(ref, .ended) == LUA_TFUNCTION else { return }
        let activity = instance.activityNumber(.ended, at: -1)
        state.push(completed)
        if let error = instance.callPlugin(args: 1, results: 0, activity: activity) {
            throw AnimatorFault("ended: \(error.message)")
        }
    }
}
