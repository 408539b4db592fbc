import CLuaShim
import SegueKit

/// `view:add_animation(key, spec, completion?)`, `view:remove_animation(key)`, `view:animation_keys()` and
/// `segue.settling_duration(spring)`: the spec table read into a `LayerAnimationSpec` (every field checked, the
/// first refusal raised naming the field and its value; nothing is added then).
extension PluginInstance {
    func registerLayerAnimationAPI(_ table: Int32) {
        func add(_ name: String, _ fn: @escaping (PluginInstance, LuaState) -> HostResult) {
            let me = Unmanaged.passUnretained(self)  // as registerHostAPI's `add`
            state.pushHostFunction { s in me._withUnsafeGuaranteedRef { fn($0, s) } }
            state.setRawField(table, name)
        }
        add("view_add_animation") { me, s in
            guard let scene = me.scene, let view = me.view(at: 1, in: scene) else { return .error(me.deadView("add_animation")) }
            guard let key = s.string(at: 2) else {
                return .error("view:add_animation(key, spec, completion?): key must be a string, got \(s.typeName(at: 2))")
            }
            guard s.type(at: 3) == LUA_TTABLE else {
                return .error("view:add_animation(key, spec, completion?): spec must be a table, got \(s.typeName(at: 3))")
            }
            let spec: LayerAnimationSpec
            switch me.layerAnimationSpec(at: 3) {
            case .success(let v): spec = v
            case .failure(let e): return .error("view:add_animation('\(key)'): \(e.message)")
            }
            // The spec is checked before the completion is kept: a refused one leaves nothing behind.
            do throws(LayerAnimationError) {
                try LayerAnimationSpec.check(spec)
            } catch {
                return .error("view:add_animation('\(key)'): \(error.message)")
            }
            let completion = me.completionCallback(at: 4, what: "add_animation completion")
            do throws(LayerAnimationError) {
                try scene.addAnimation(spec, forKey: key, to: view, completion: completion)
            } catch {
                return .error("view:add_animation('\(key)'): \(error.message)")
            }
            return .results(0)
        }
        add("view_remove_animation") { me, s in
            guard let scene = me.scene, let view = me.view(at: 1, in: scene) else { return .error(me.deadView("remove_animation")) }
            guard let key = s.string(at: 2) else {
                return .error("view:remove_animation(key): key must be a string, got \(s.typeName(at: 2))")
            }
            s.push(scene.removeAnimation(forKey: key, from: view))
            return .results(1)
        }
        add("view_animation_keys") { me, s in
            guard let scene = me.scene, let view = me.view(at: 1, in: scene) else { return .error(me.deadView("animation_keys")) }
            let keys = scene.animationKeys(of: view)
            s.newTable(arrayCount: Int32(keys.count))
            for (i, key) in keys.enumerated() {
                s.push(key)
                lua_rawseti(s.L, -2, lua_Integer(i + 1))
            }
            return .results(1)
        }
        add("settling_duration") { me, s in
            guard s.type(at: 1) == LUA_TTABLE else {
                return .error("segue.settling_duration(spring): spring must be a table {mass, stiffness, damping, velocity}")
            }
            switch me.physicalSpring(at: 1) {
            case .failure(let e): return .error("segue.settling_duration: \(e.message)")
            case .success(let p):
                guard let physical = Spring.physical(mass: p.mass, stiffness: p.stiffness, damping: p.damping, velocity: p.velocity)
                else { return .error("segue.settling_duration: mass, stiffness and damping must be positive finite numbers") }
                s.push(physical.duration)
                return .results(1)
            }
        }
    }

    /// The fields of `add_animation`'s spec.
    static let layerAnimationFields = [
        "key_path", "from", "to", "by", "values", "key_times", "timing_functions", "calculation_mode", "duration",
        "begin_time", "repeat_count", "autoreverses", "fill_mode", "removed_on_completion", "additive", "spring",
    ]

    /// Reads the spec table at `t`; the values by the key path's value kind.
    func layerAnimationSpec(at t: Int32) -> Result<LayerAnimationSpec, LuaError> {
        let s = state
        // Unknown fields first: a misspelt one would otherwise be silently ignored.
        s.pushNil()
        while lua_next(s.L, t) != 0 {
            let name = s.string(at: -2)
            s.pop()
            guard let name, PluginInstance.layerAnimationFields.contains(name) else {
                let shown = name ?? "(a \(s.typeName(at: -1)) key)"
                s.pop()
                let hint = name.flatMap { NearestName.nearest(to: $0, in: PluginInstance.layerAnimationFields) }
                    .map { " (did you mean '\($0)'?)" } ?? ""
                return .failure(LuaError("spec has no field '\(shown)'\(hint)"))
            }
        }
        guard let keyPathName = s.stringField(t, "key_path") else {
            return .failure(LuaError("key_path must be a string, got \(fieldType(t, "key_path"))"))
        }
        guard let keyPath = LayerKeyPath.named(keyPathName) else {
            let hint = NearestName.nearest(to: keyPathName, in: LayerKeyPath.table.keys.sorted()).map { " (did you mean '\($0)'?)" } ?? ""
            return .failure(LuaError("key_path '\(keyPathName)' is no animatable key path\(hint)"))
        }
        guard s.rawField(t, "duration") == LUA_TNUMBER, let duration = s.number(at: -1) else {
            let type = s.typeName(at: -1)
            s.pop()
            return .failure(LuaError("duration must be a number, got \(type)"))
        }
        s.pop()
        var spec = LayerAnimationSpec(keyPath: keyPathName, duration: duration)
        func number(_ name: String) -> Result<Double?, LuaError> {
            defer { s.pop() }
            switch s.rawField(t, name) {
            case LUA_TNIL: return .success(nil)
            case LUA_TNUMBER: return .success(s.number(at: -1))
            default: return .failure(LuaError("\(name) must be a number, got \(s.typeName(at: -1))"))
            }
        }
        func flag(_ name: String) -> Result<Bool?, LuaError> {
            defer { s.pop() }
            switch s.rawField(t, name) {
            case LUA_TNIL: return .success(nil)
            case LUA_TBOOLEAN: return .success(s.bool(at: -1))
            default: return .failure(LuaError("\(name) must be a boolean, got \(s.typeName(at: -1))"))
            }
        }
        do throws(LuaError) {
            if let v = try number("begin_time").get() { spec.beginTime = v }
            if let v = try number("repeat_count").get() { spec.repeatCount = v }
            if let v = try flag("autoreverses").get() { spec.autoreverses = v }
            if let v = try flag("removed_on_completion").get() { spec.removedOnCompletion = v }
            if let v = try flag("additive").get() { spec.additive = v }
            for (name, apply) in [("calculation_mode", 0), ("fill_mode", 1)] {
                defer { s.pop() }
                switch s.rawField(t, name) {
                case LUA_TNIL: continue
                case LUA_TSTRING:
                    let text = s.string(at: -1) ?? ""
                    if apply == 0 {
                        guard let mode = CalculationMode(rawValue: text) else {
                            throw LuaError("calculation_mode must be one of \(CalculationMode.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
                        }
                        spec.calculationMode = mode
                    } else {
                        guard let mode = FillMode(rawValue: text) else {
                            throw LuaError("fill_mode must be one of \(FillMode.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
                        }
                        spec.fillMode = mode
                    }
                default: throw LuaError("\(name) must be a string, got \(s.typeName(at: -1))")
                }
            }
            for name in ["from", "to", "by"] {
                s.rawField(t, name)
                defer { s.pop() }
                if s.isNil(-1) { continue }
                let value = try layerValue(at: s.top, keyPath, field: name)
                switch name {
                case "from": spec.from = value
                case "to": spec.to = value
                default: spec.by = value
                }
            }
            if s.rawField(t, "values") != LUA_TNIL {
                let list = s.top
                defer { s.pop() }
                guard s.type(at: list) == LUA_TTABLE else { throw LuaError("values must be a list, got \(s.typeName(at: list))") }
                spec.values = try boundedList(at: list, field: "values") { (i) throws(LuaError) in
                    try layerValue(at: s.top, keyPath, field: "values[\(i)]")
                }
            } else {
                s.pop()
            }
            if s.rawField(t, "key_times") != LUA_TNIL {
                let list = s.top
                defer { s.pop() }
                guard s.type(at: list) == LUA_TTABLE else { throw LuaError("key_times must be a list, got \(s.typeName(at: list))") }
                spec.keyTimes = try boundedList(at: list, field: "key_times") { (i) throws(LuaError) in
                    guard let x = s.number(at: -1) else { throw LuaError("key_times[\(i)] must be a number, got \(s.typeName(at: -1))") }
                    return x
                }
            } else {
                s.pop()
            }
            spec.timingFunctions = try timingFunctions(at: t)
            if s.rawField(t, "spring") != LUA_TNIL {
                defer { s.pop() }
                guard s.type(at: -1) == LUA_TTABLE else { throw LuaError("spring must be a table {mass, stiffness, damping, velocity}, got \(s.typeName(at: -1))") }
                let p = try physicalSpring(at: s.top).get()
                spec.spring = (p.mass, p.stiffness, p.damping, p.velocity)
            } else {
                s.pop()
            }
        } catch {
            return .failure(error)
        }
        return .success(spec)
    }

    /// The entries of the Lua list at `list`, each read by `element(i)` while entry `i` (1-based) is on the top of
    /// the stack; more than `LayerAnimationSpec.maxKeyTimes` entries is an error naming `field`.
    func boundedList<T>(at list: Int32, field: String, _ element: (Int) throws(LuaError) -> T) throws(LuaError) -> [T] {
        let s = state
        let n = Int(lua_rawlen(s.L, list))
        guard n <= LayerAnimationSpec.maxKeyTimes else {
            throw LuaError("\(field) has \(n) entries, more than \(LayerAnimationSpec.maxKeyTimes)")
        }
        var out: [T] = []
        out.reserveCapacity(n)
        for i in stride(from: 1, through: n, by: 1) {
            s.rawIndex(list, i)
            defer { s.pop() }
            out.append(try element(i))
        }
        return out
    }

    /// CASpringAnimation's parameters at `t`, with its defaults (mass 1, stiffness 100, damping 10, velocity 0).
    func physicalSpring(at t: Int32) -> Result<(mass: Double, stiffness: Double, damping: Double, velocity: Double), LuaError> {
        var out: [Double] = []
        for (name, fallback) in [("mass", 1.0), ("stiffness", 100.0), ("damping", 10.0), ("velocity", 0.0)] {
            defer { state.pop() }
            switch state.rawField(t, name) {
            case LUA_TNIL: out.append(fallback)
            case LUA_TNUMBER: out.append(state.number(at: -1) ?? fallback)
            default: return .failure(LuaError("spring.\(name) must be a number, got \(state.typeName(at: -1))"))
            }
        }
        return .success((out[0], out[1], out[2], out[3]))
    }

    /// `timing_functions`: a curve name, `{x1, y1, x2, y2}`, or a list of them (one per segment).
    func timingFunctions(at t: Int32) throws(LuaError) -> [CubicBezier]? {
        let s = state
        defer { s.pop() }
        switch s.rawField(t, "timing_functions") {
        case LUA_TNIL: return nil
        case LUA_TSTRING: return [try curve(at: s.top, field: "timing_functions")]
        case LUA_TTABLE:
            let list = s.top
            s.rawIndex(list, 1)
            let firstIsNumber = s.type(at: -1) == LUA_TNUMBER
            s.pop()
            if firstIsNumber { return [try curve(at: list, field: "timing_functions")] }
            return try boundedList(at: list, field: "timing_functions") { (i) throws(LuaError) in
                try curve(at: s.top, field: "timing_functions[\(i)]")
            }
        default:
            throw LuaError("timing_functions must be a curve name, {x1, y1, x2, y2} or a list of them, got \(s.typeName(at: -1))")
        }
    }

    func curve(at i: Int32, field: String) throws(LuaError) -> CubicBezier {
        let s = state
        if let name = s.string(at: i) {
            guard let curve = CubicBezier.named(name) else {
                let hint = NearestName.nearest(to: name, in: PluginInstance.curveNames).map { " (did you mean '\($0)'?)" } ?? ""
                throw LuaError("\(field): unknown curve '\(name)'\(hint)")
            }
            return curve
        }
        guard s.type(at: i) == LUA_TTABLE else { throw LuaError("\(field) must be a curve name or {x1, y1, x2, y2}, got \(s.typeName(at: i))") }
        var v: [Double] = []
        for k in 1...4 {
            s.rawIndex(i, k)
            if let n = s.number(at: -1) { v.append(n) }
            s.pop()
        }
        guard v.count == 4, v.allSatisfy(\.isFinite) else { throw LuaError("\(field) needs four finite numbers {x1, y1, x2, y2}") }
        let curve = CubicBezier(v[0], v[1], v[2], v[3])
        guard curve.isValid else { throw LuaError("\(field): x1 and x2 must lie in 0…1") }
        return curve
    }

    /// One value of the animation at `i`, in the key path's value kind: a number, a pair (`{x, y}`, `{w, h}`,
    /// `{width, height}` or `{a, b}`), or the property's own kind (a rect, a transform, a color).
    func layerValue(at i: Int32, _ keyPath: LayerKeyPath, field: String) throws(LuaError) -> [Double] {
        let s = state
        let kind = keyPath.valueKind
        let got = describe(at: i)
        switch kind {
        case .number:
            guard let x = s.number(at: i) else { throw LuaError("\(field) must be a number for '\(keyPath.property.caKeyPath)', got \(got)") }
            return [x]
        case .rect:
            guard s.type(at: i) == LUA_TTABLE else { throw LuaError("\(field) must be \(kind.expected), got \(got)") }
            return try pairs(i, [["x", "y", "w", "h"]], count: 4, field: field, expected: kind.expected)
        case .transform:
            guard let t = transform(at: i) else { throw LuaError("\(field) must be \(kind.expected), got \(got)") }
            return t.values
        case .color:
            guard let text = s.string(at: i), let c = Color(hex: text) else { throw LuaError("\(field) must be \(kind.expected), got \(got)") }
            return [c.r, c.g, c.b, c.a]
        case .colorList, .numberList:
            // A gradient's colours or locations, read as a write of the property reads them.
            switch gradientValues(keyPath.property, at: i) {
            case .success(let values): return values
            case .failure(let error):
                throw LuaError("\(field): " + GradientCheck.bare(error.message))
            }
        default:
            let n = keyPath.valueCount
            guard s.type(at: i) == LUA_TTABLE else { throw LuaError("\(field) must be a pair {x, y} or {w, h}, got \(got)") }
            return try pairs(i, [["x", "y"], ["w", "h"], ["width", "height"]], count: n, field: field,
                             expected: "a pair {x, y} or {w, h}")
        }
    }

    /// The numbers of the table at `i` under one of `names` (all present), else its array part.
    private func pairs(_ i: Int32, _ names: [[String]], count: Int, field: String, expected: String) throws(LuaError) -> [Double] {
        let s = state
        for set in names {
            var out: [Double] = []
            for name in set.prefix(count) {
                s.rawField(i, name)
                if let x = s.number(at: -1) { out.append(x) }
                s.pop()
            }
            if out.count == count { return out }
        }
        var out: [Double] = []
        for k in 1...max(1, count) {
            s.rawIndex(i, k)
            if let x = s.number(at: -1) { out.append(x) }
            s.pop()
        }
        guard out.count == count else { throw LuaError("\(field) must be \(expected)") }
        return out
    }

    private func fieldType(_ t: Int32, _ name: String) -> String {
        state.rawField(t, name)
        defer { state.pop() }
        return state.typeName(at: -1)
    }
}
