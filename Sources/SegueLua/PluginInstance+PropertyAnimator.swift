import CLuaShim
import SegueKit

/// `segue.property_animator{…}`'s primitives (UIViewPropertyAnimator, SegueKit's `PropertyAnimator`): the prelude
/// wraps each animator in a locked table that knows its number; these find it by that number.
extension PluginInstance {
    /// UIKit's system spring (`spring = "system"`): the engine's `Timing.system`, which runs its own 0.5 s.
    static let systemSpring = (timing: Timing.system, duration: Spring.systemDuration)

    /// How many property animators one plugin state may make (they live as long as the state).
    static let maxPropertyAnimators = 10_000

    func registerPropertyAnimatorAPI(_ table: Int32) {
        func add(_ name: String, _ fn: @escaping (PluginInstance, LuaState) -> HostResult) {
            let me = Unmanaged.passUnretained(self)  // as registerHostAPI's `add`
            state.pushHostFunction { s in me._withUnsafeGuaranteedRef { fn($0, s) } }
            state.setRawField(table, name)
        }
        add("pa_new") { me, s in
            guard let scene = me.scene else { return .error("segue.property_animator: no scene") }
            guard let duration = s.numberField(1, "duration"), duration.isFinite, duration >= 0 else {
                return .error("segue.property_animator: duration must be a number ≥ 0")
            }
            let timing: (Timing, Double)
            switch me.animatorTiming(at: 1, defaultDuration: duration) {
            case .success(let t): timing = t ?? (.curve(.easeInOut), duration)
            case .failure(let e): return .error("segue.property_animator: \(e.message)")
            }
            // The sandbox has no finalizers, so the state keeps every animator it made: bounded.
            guard me.propertyAnimators.count < PluginInstance.maxPropertyAnimators else {
                return .error("segue.property_animator: too many property animators in this plugin (\(PluginInstance.maxPropertyAnimators)); reuse them")
            }
            let id = me.nextAnimatorID
            me.nextAnimatorID += 1
            // A spring's own course (a physical spring's settling time) is the animator's duration.
            let animator = PropertyAnimator(
                id: id, duration: timing.0.isSpring ? timing.1 : duration, timing: timing.0, scene: scene)
            me.propertyAnimators[id] = animator
            s.push(id)
            return .results(1)
        }
        add("pa_get") { me, s in
            guard let a = me.animator(at: 1) else { return .error("the property animator is gone") }
            switch s.string(at: 2) ?? "" {
            case "state": s.push(a.state.rawValue)
            case "running": s.push(a.isRunning)
            case "reversed": s.push(a.isReversed)
            case "fraction_complete":
                s.push((a.fraction * 1e9).rounded() / 1e9)
            case "scrubs_linearly": s.push(a.scrubsLinearly)
            case "pauses_on_completion": s.push(a.pausesOnCompletion)
            case "interruptible": s.push(a.isInterruptible)
            case "duration": s.push(a.duration)
            default: s.pushNil()
            }
            return .results(1)
        }
        add("pa_set") { me, s in
            guard let a = me.animator(at: 1) else { return .error("the property animator is gone") }
            let key = s.string(at: 2) ?? ""
            func flag() -> Bool? { s.type(at: 3) == LUA_TBOOLEAN ? s.bool(at: 3) : nil }
            do throws(PropertyAnimator.Misuse) {
                switch key {
                case "reversed":
                    guard let v = flag() else { return .error("pa.reversed must be a boolean") }
                    try a.setReversed(v)
                case "fraction_complete":
                    guard let v = s.number(at: 3) else { return .error("pa.fraction_complete must be a number in 0…1") }
                    try a.setFraction(v)
                case "scrubs_linearly":
                    guard let v = flag() else { return .error("pa.scrubs_linearly must be a boolean") }
                    a.scrubsLinearly = v
                case "pauses_on_completion":
                    guard let v = flag() else { return .error("pa.pauses_on_completion must be a boolean") }
                    a.pausesOnCompletion = v
                case "interruptible":
                    guard let v = flag() else { return .error("pa.interruptible must be a boolean") }
                    try a.setInterruptible(v)
                case "state", "running", "duration":
                    return .error("pa.\(key) is read-only")
                default:
                    return .error("property animators have no field '\(key)'")
                }
            } catch {
                return .error("property animator: \(error.message)")
            }
            return .results(0)
        }
        add("pa_call") { me, s in me.animatorCall(s) }
        add("set_pa_lookup") { me, s in
            guard s.type(at: 1) == LUA_TFUNCTION else { return .error("set_pa_lookup: bad argument") }
            s.pushValue(1)
            me.animatorLookup = s.ref()
            return .results(0)
        }
    }

    /// The animator whose number is at `i`.
    func animator(at i: Int32) -> PropertyAnimator? {
        guard let id = state.number(at: i) else { return nil }
        return propertyAnimators[Int(id)]
    }

    /// pa_call(id, method, …): the methods; arguments from index 3.
    func animatorCall(_ s: LuaState) -> HostResult {
        guard let a = animator(at: 1) else { return .error("the property animator is gone") }
        let method = s.string(at: 2) ?? ""
        do throws(PropertyAnimator.Misuse) {
            switch method {
            case "add_animations":
                guard s.type(at: 3) == LUA_TFUNCTION else {
                    return .error("pa:add_animations(fn, delay_factor?): fn must be a function, got \(s.typeName(at: 3))")
                }
                var factor = 0.0
                if !s.isNil(4) {
                    guard let f = s.number(at: 4) else { return .error("pa:add_animations: delay_factor must be a number in 0…1") }
                    factor = f
                }
                s.pushValue(3)
                let ref = s.ref()
                try a.addAnimations(delayFactor: factor) { [weak self] in self?.runBlock(ref) }
            case "add_completion":
                guard s.type(at: 3) == LUA_TFUNCTION else {
                    return .error("pa:add_completion(fn): fn must be a function, got \(s.typeName(at: 3))")
                }
                s.pushValue(3)
                let ref = s.ref()
                try a.addCompletion { [weak self] position in
                    self?.runCallback(ref, text: position.rawValue, what: "property animator completion")
                }
            case "start":
                var delay = 0.0
                if !s.isNil(3) {
                    guard let d = s.number(at: 3) else { return .error("pa:start(after?): after must be a number ≥ 0") }
                    delay = d
                }
                try a.start(afterDelay: delay)
            case "pause":
                try a.pause()
            case "continue":
                var timing: (Timing, Double)?
                if !s.isNil(3) {
                    guard s.type(at: 3) == LUA_TTABLE else {
                        return .error("pa:continue(timing?, duration_factor?): timing must be {curve=…} or {spring=…}")
                    }
                    switch animatorTiming(at: 3, defaultDuration: a.duration) {
                    case .success(let t): timing = t
                    case .failure(let e): return .error("pa:continue: \(e.message)")
                    }
                }
                var factor = 1.0
                if !s.isNil(4) {
                    guard let f = s.number(at: 4) else {
                        return .error("pa:continue: duration_factor must be a finite number > 0, got \(s.typeName(at: 4))")
                    }
                    factor = f
                }
                try a.continueAnimation(timing: timing?.0, timingDuration: timing?.1, durationFactor: factor)
            case "stop":
                guard s.type(at: 3) == LUA_TBOOLEAN else {
                    return .error("pa:stop(without_finishing): without_finishing must be a boolean")
                }
                try a.stop(withoutFinishing: s.bool(at: 3))
            case "finish":
                let name = s.string(at: 3) ?? ""
                guard s.type(at: 3) == LUA_TSTRING, let position = PropertyAnimator.Position(rawValue: name) else {
                    return .error("pa:finish(at): at must be \"end\", \"start\" or \"current\", got \(s.type(at: 3) == LUA_TSTRING ? "'\(name)'" : s.typeName(at: 3))")
                }
                try a.finish(at: position)
            default:
                return .error("property animators have no method '\(method)'")
            }
        } catch {
            return .error("property animator: \(error.message)")
        }
        if let failure = blockFailure {
            blockFailure = nil
            return .error(failure.message)
        }
        return .results(0)
    }

    /// Runs an animator's animation block (the Lua function `ref`, once); a raise is kept for the call that ran it.
    func runBlock(_ ref: Int32) {
        state.pushRef(ref)
        state.unref(ref)
        if let error = state.call(args: 0, results: 0, topLevel: false), blockFailure == nil { blockFailure = error }
    }

    /// A completion callback with a string argument (a property animator's position).
    func runCallback(_ ref: Int32, text: String, what: String) {
        state.pushRef(ref)
        state.unref(ref)
        state.push(text)
        if let error = callPlugin(args: 1, results: 0, function: what) { warnRaised(what, error) }
    }

    /// The timing in the table at `i`: `curve` or `spring` as segue.animate takes them, or `spring = "system"`;
    /// nil when it gives neither. The second value is the spring's course (its duration).
    func animatorTiming(at i: Int32, defaultDuration: Double) -> Result<(Timing, Double)?, LuaError> {
        let springType = state.rawField(i, SEGUE_KEY_SPRING)
        let system = springType == LUA_TSTRING && state.string(at: -1) == "system"
        state.pop()
        if system { return .success(Self.systemSpring) }
        if springType != LUA_TNIL, springType != LUA_TTABLE {
            return .failure(LuaError("spring must be a table or \"system\""))
        }
        let curveType = state.rawField(i, SEGUE_KEY_CURVE)
        state.pop()
        if springType == LUA_TNIL, curveType == LUA_TNIL { return .success(nil) }
        switch animationOptions(at: i, defaultDuration: defaultDuration) {
        case .success(let options): return .success((options.timing, options.duration))
        case .failure(let e): return .failure(e)
        }
    }
}

extension Timing {
    var isSpring: Bool {
        if case .spring = self { return true }
        return false
    }
}
