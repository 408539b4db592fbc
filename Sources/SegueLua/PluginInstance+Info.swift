import CLuaShim
import SegueKit

/// Caller data between the engine and Lua: a transition's `info` pushed as tables (`ctx.info`), the scene as
/// `gesture_began` sees it, and a `gesture_began` answer read back into typed values.
extension PluginInstance {
    /// Pushes `value` as plain Lua values (objects and arrays as new tables).
    func pushInfo(_ value: InfoValue) {
        switch value {
        case .null: state.pushNil()
        case .bool(let b): state.push(b)
        case .number(let n):
            // JSON does not tell 12 from 12.0; Lua does (tostring, string.format("%d")): whole numbers are integers.
            if n.rounded() == n, n.magnitude < 9.0e15 { state.push(Int(n)) } else { state.push(n) }
        case .string(let s): state.push(s)
        case .array(let items):
            state.newTable(arrayCount: Int32(clamping: items.count))
            for (i, item) in items.enumerated() {
                pushInfo(item)
                lua_rawseti(state.L, -2, lua_Integer(i + 1))  // [t item] → [t]
            }
        case .object(let members):
            state.newTable(fieldCount: Int32(clamping: members.count))
            for (key, member) in members where member != .null {
                pushInfo(member)
                state.setRawField(-2, key)
            }
        }
    }

    /// The table at `index` (or any value there) as an `InfoValue`: a table whose keys are exactly 1…n is an
    /// array, one whose keys are all strings an object (an empty table is an empty object). Nil for anything else
    /// (a function, a view, mixed keys, more than `maxDepth` levels or `maxItems` values).
    func infoValue(at index: Int32, depth: Int = 0, budget: inout Int) -> InfoValue? {
        budget -= 1
        guard budget >= 0 else { return nil }
        let L = state.L
        switch lua_type(L, index) {
        case LUA_TNIL: return .null
        case LUA_TBOOLEAN: return .bool(state.bool(at: index))
        case LUA_TNUMBER:
            guard let n = state.number(at: index), n.isFinite else { return nil }
            return .number(n)
        case LUA_TSTRING: return state.string(at: index).map { .string($0) }
        case LUA_TTABLE:
            guard depth < 16, lua_getmetatable(L, index) == 0 else {
                if depth < 16 { state.pop() }  // the metatable lua_getmetatable pushed
                return nil
            }
            let t = lua_absindex(L, index)
            var members: [(String, InfoValue)] = []
            var items: [(Int, InfoValue)] = []
            lua_pushnil(L)
            while lua_next(L, t) != 0 {                  // [key value]
                guard let value = infoValue(at: -1, depth: depth + 1, budget: &budget) else {
                    state.pop(2)
                    return nil
                }
                if lua_type(L, -2) == LUA_TSTRING, let key = state.string(at: -2) {
                    members.append((key, value))
                } else if lua_isinteger(L, -2) != 0 {
                    items.append((Int(lua_tointegerx(L, -2, nil)), value))
                } else {
                    state.pop(2)
                    return nil
                }
                state.pop()                              // [key]
            }
            if items.isEmpty { return .object(members.sorted { $0.0 < $1.0 }) }
            guard members.isEmpty else { return nil }
            items.sort { $0.0 < $1.0 }
            guard items.enumerated().allSatisfy({ $0.offset + 1 == $0.element.0 }) else { return nil }
            return .array(items.map(\.1))
        default: return nil
        }
    }

    /// `scene_info`: `{root, containers = {[id] = {kind, children, selected, stack}}, presented = {[presenting] =
    /// presented}}`.
    func pushSceneInfo(_ info: SceneInfo) {
        state.newTable(fieldCount: 3)
        if let root = info.root { state.push(root); state.setRawField(-2, "root") }
        state.newTable(fieldCount: Int32(clamping: info.containers.count))
        for c in info.containers {
            state.newTable(fieldCount: 4)
            state.push(c.kind); state.setRawField(-2, "kind")
            pushInfo(.array(c.children.map { .string($0) })); state.setRawField(-2, "children")
            if let selected = c.selected { state.push(selected); state.setRawField(-2, "selected") }
            if let stack = c.stack { pushInfo(.array(stack.map { .string($0) })); state.setRawField(-2, "stack") }
            state.setRawField(-2, c.id)
        }
        state.setRawField(-2, "containers")
        state.newTable(fieldCount: Int32(clamping: info.presented.count))
        for pair in info.presented {
            state.push(pair.presented)
            state.setRawField(-2, pair.presenting)
        }
        state.setRawField(-2, "presented")
    }

    /// `ctx.info`: a read-only copy of the request's `info` (the prelude's `readonly_copy` of fresh tables), nil
    /// when the request gave none.
    func contextInfo(_ s: LuaState) -> HostResult {
        guard let ctx = context(at: 1) else { return .error(deadContext) }
        guard let info = ctx.transition.info else {
            s.pushNil()
            return .results(1)
        }
        s.pushRef(infoHook)
        pushInfo(info)
        if let error = s.call(args: 1, results: 1, topLevel: false) { return .error(error.message) }
        return .results(1)
    }

    func registerInfoAPI(_ table: Int32) {
        let me = Unmanaged.passUnretained(self)  // as registerHostAPI's `add`
        state.pushHostFunction { s in
            me._withUnsafeGuaranteedRef { me in
                guard s.type(at: 1) == LUA_TFUNCTION else { return .error("set_info_hook: bad argument") }
                s.pushValue(1)
                me.infoHook = s.ref()
                return .results(0)
            }
        }
        state.setRawField(table, "set_info_hook")
    }
}
