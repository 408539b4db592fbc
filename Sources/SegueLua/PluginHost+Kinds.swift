import CLuaShim

extension PluginHost {
    /// The transition kinds an animator may declare in `kinds`.
    public static let transitionKinds = ["select", "push", "pop", "set", "present", "dismiss"]

    /// An animator's or interaction plugin's optional `kinds = {"present", …}`: nil when absent; a message when it
    /// is not a list of kinds.
    static func declaredKinds(_ probe: PluginInstance, _ described: PluginInstance.Described) -> Result<[String]?, LuaError> {
        guard described.kind == .animator || described.kind == .interaction else { return .success(nil) }
        let state = probe.state
        let base = state.top
        defer { state.setTop(base) }
        switch probe.pushField(described.ref, "kinds") {
        case LUA_TNIL: return .success(nil)
        case LUA_TTABLE: break
        default: return .failure(LuaError("kinds must be a list of transition kinds, got \(state.typeName(at: -1))"))
        }
        let list = state.top
        var kinds: [String] = []
        var i = 1
        while state.rawIndex(list, i) != LUA_TNIL {
            guard let kind = state.string(at: -1), PluginHost.transitionKinds.contains(kind) else {
                return .failure(LuaError(
                    "kinds[\(i)] must be one of \(PluginHost.transitionKinds.joined(separator: ", "))"))
            }
            kinds.append(kind)
            state.pop()
            i += 1
        }
        return .success(kinds)
    }

    /// The kinds the animator `name` declared, or nil (written for any kind).
    func kinds(ofAnimator name: String) -> [String]? {
        guard let path = byName[name] else { return nil }
        return files[path]?.animatorKinds[name]
    }
}
