import CLuaShim

/// What the stall detector is told a plugin call is (`LuaActivity`): a number standing for (file, function, line),
/// so recording a call is one atomic exchange.
extension PluginInstance {
    /// The described call for the function at `index` called as `function` (a callback, a dispatcher): described on
    /// every call (a callback is a new closure each time).
    func activityNumber(_ function: String?, at index: Int32) -> Int {
        let line = state.lineDefined(at: index)
        // A callback is a new closure each call, but its (name, line) repeats: the number is kept per pair (the file
        // is the instance's own and a described call keeps its number, so a kept number is the one `intern` gives).
        for entry in callbackActivities where entry.line == line && entry.function == function { return entry.number }
        let number = LuaActivity.shared.intern(LuaActivity.Call(file: file, function: function, line: line))
        if callbackActivities.count >= ActivityCache.capacity { callbackActivities.removeFirst() }
        callbackActivities.append((function, line, number))
        return number
    }

    /// The described call for the function at `index`, field `key` of a plugin description: described once per
    /// function (`ActivityCache`).
    @inline(__always)
    func activityNumber(_ key: Key, at index: Int32) -> Int {
        guard let function = lua_topointer(state.L, index) else { return activityNumber(key.name, at: index) }
        if let number = activityCache.number(of: function, as: key) { return number }
        let number = activityNumber(key.name, at: index)
        state.pushValue(index)
        if let dropped = activityCache.add(.init(function: function, key: key, ref: state.ref(), number: number)) {
            state.unref(dropped)
        }
        return number
    }
}
