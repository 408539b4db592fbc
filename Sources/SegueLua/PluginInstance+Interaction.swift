import CLuaShim
import SegueKit

/// The host primitives behind interaction plugins (`tr`), the context's interactive calls and the transition
/// coordinator (`ctx.coordinator`).
extension PluginInstance {
    func registerInteractionAPI(_ table: Int32) {
        func add(_ name: String, _ fn: @escaping (PluginInstance, LuaState) -> HostResult) {
            let me = Unmanaged.passUnretained(self)  // as registerHostAPI's `add`
            state.pushHostFunction { s in me._withUnsafeGuaranteedRef { fn($0, s) } }
            state.setRawField(table, name)
        }
        registerInfoAPI(table)
        add("set_interaction_hook") { me, s in
            guard s.type(at: 1) == LUA_TFUNCTION else { return .error("set_interaction_hook: bad argument") }
            s.pushValue(1)
            me.interactionHook = s.ref()
            return .results(0)
        }
        add("set_presentation_hook") { me, s in
            guard s.type(at: 1) == LUA_TFUNCTION else { return .error("set_presentation_hook: bad argument") }
            s.pushValue(1)
            me.presentationHook = s.ref()
            return .results(0)
        }
        add("tr_percent") { me, s in
            guard let scene = me.scene, let id = s.string(at: 1), let t = scene.transition(id) else { return .results(0) }
            s.push(scene.percent(of: t))
            return .results(1)
        }
        add("tr_update") { me, s in
            guard let scene = me.scene, let id = s.string(at: 1), let t = scene.transition(id) else {
                return .error("tr.update(p): the transition is gone")
            }
            guard let p = s.number(at: 2), p.isFinite else { return .error("tr.update(p): p must be a number in 0…1") }
            do throws(EngineError) { try scene.updateTransition(t, percent: p) } catch {
                return .error("tr.update(p): \(error.message)")
            }
            return .results(0)
        }
        add("tr_end") { me, s in
            guard let scene = me.scene, let id = s.string(at: 1), let t = scene.transition(id) else {
                return .error("tr.finish()/tr.cancel(): the transition is gone")
            }
            let cancel = s.bool(at: 2)
            do throws(EngineError) { try scene.endInteraction(t, cancel: cancel) } catch {
                return .error("tr.\(cancel ? "cancel" : "finish")(): \(error.message)")
            }
            return .results(0)
        }
        add("ctx_drive") { me, s in
            guard let ctx = me.context(at: 1) else { return .error(me.deadContext) }
            let scene = ctx.scene, t = ctx.transition
            let what = s.string(at: 2) ?? ""
            do throws(EngineError) {
                switch what {
                case "update":
                    guard let p = s.number(at: 3), p.isFinite else { return .error("ctx:update(p): p must be a number in 0…1") }
                    try scene.updateTransition(t, percent: p)
                case "finish": try scene.endInteraction(t, cancel: false)
                case "cancel": try scene.endInteraction(t, cancel: true)
                case "pause": try scene.pauseTransition(t)
                default: return .error("ctx_drive: unknown call")
                }
            } catch {
                return .error("ctx:\(what)(): \(error.message)")
            }
            return .results(0)
        }
        add("coord_alongside") { me, s in
            guard let ctx = me.context(at: 1) else { return .error(me.deadContext) }
            guard s.type(at: 2) == LUA_TFUNCTION else {
                return .error("coordinator:alongside(animations, completion?): animations must be a function")
            }
            guard s.isNil(3) || s.type(at: 3) == LUA_TFUNCTION else {
                return .error("coordinator:alongside(animations, completion?): completion must be a function or nil")
            }
            guard !ctx.transition.isEnded else { return .error("coordinator:alongside: the transition has ended") }
            let completion = me.completionCallback(at: 3, what: "alongside completion")
            var failure: LuaError?
            ctx.scene.animateAlongside(ctx.transition, {
                s.pushValue(2)
                failure = s.call(args: 0, results: 0, topLevel: false)
            }, completion: completion)
            if let failure { return .error(failure.message) }
            return .results(0)
        }
        add("coord_in_view") { me, s in
            guard me.context(at: 1) != nil else { return .error(me.deadContext) }
            guard me.view(at: 2) != nil else {
                return .error("coordinator:alongside_in(view, animations, completion?): view must be a live view")
            }
            return .results(0)
        }
        add("coord_field") { me, s in me.coordinatorField(s) }
        add("coord_change") { me, s in
            guard let ctx = me.context(at: 1) else { return .error(me.deadContext) }
            guard s.type(at: 2) == LUA_TFUNCTION else {
                return .error("coordinator:on_interaction_change(fn): fn must be a function")
            }
            s.pushValue(2)
            let ref = s.ref()
            ctx.scene.onInteractionChange(ctx.transition) { [weak me] cancelled, velocity in
                me?.runInteractionChange(ref, cancelled: cancelled, velocity: velocity)
            }
            return .results(0)
        }
    }

    /// Calls an `on_interaction_change` handler with `{cancelled, completion_velocity}` (and releases it).
    func runInteractionChange(_ ref: Int32, cancelled: Bool, velocity: Double) {
        let base = state.top
        defer { state.setTop(base) }
        state.pushRef(ref)
        state.unref(ref)
        state.newTable(fieldCount: 2)
        let info = state.top
        state.push(cancelled)
        state.setRawField(info, "cancelled")
        state.push(velocity)
        state.setRawField(info, "completion_velocity")
        if let error = callPlugin(args: 1, results: 0) {
            warnRaised("on_interaction_change", error)
        }
    }
}
