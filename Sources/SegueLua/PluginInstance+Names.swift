import CLuaShim
import SegueKit

/// The names a plugin may write on host objects and in options, and the "did you mean" warning for the others:
/// a `plugin.warning` naming the nearest valid name, once per name per plugin state (a loop cannot flood), never
/// an error — a plugin written against API 1 keeps running.
extension PluginInstance {
    /// What kind of name a plugin got wrong; the raw value is how the warning calls it.
    enum NameKind: String, CaseIterable {
        case viewProperty = "view property"
        case contextField = "ctx field"
        case animationOption = "animation option"
        case transitionOption = "segue.transition option"
        case curve = "curve"
        case interactionField = "tr field"
        case presentationField = "pc field"
        case propertyAnimatorOption = "property animator option"

        /// The valid names of this kind (built once: `view_set` asks on every property write).
        var names: [String] {
            switch self {
            case .viewProperty: PluginInstance.viewNames
            case .contextField: PluginInstance.contextNames
            case .animationOption: PluginInstance.animationOptions
            case .transitionOption: ["duration", "options"]
            case .curve: PluginInstance.curveNames
            case .interactionField: ["percent", "duration", "kind", "container", "state", "update", "finish", "cancel"]
            case .presentationField: ["container", "presented", "presenting", "presented_view", "coordinator", "state"]
            case .propertyAnimatorOption: ["duration", "curve", "spring"]
            }
        }

        /// The warning's code: a curve, an option, or any other name.
        var warningCode: PluginWarning.Code {
            switch self {
            case .curve: .unknownCurve
            case .animationOption, .transitionOption, .propertyAnimatorOption: .unknownOption
            case .viewProperty, .contextField, .interactionField, .presentationField: .unknownName
            }
        }

        /// What happens to the value, said after the warning.
        var consequence: String {
            switch self {
            case .interactionField: "; kept (a plugin's own values belong in tr.state)"
            case .presentationField: "; kept (a plugin's own values belong in pc.state)"
            case .viewProperty, .contextField, .animationOption, .transitionOption, .curve, .propertyAnimatorOption:
                "; ignored"
            }
        }
    }

    /// The options `segue.view{}` reads, in order, with their `segue_name`: `frame`, then the table's properties.
    static let newViewOptions: [(String, Int32)] = [("frame", Int32(SEGUE_NAME_FRAME.rawValue))]
        + ViewProperty.listed.map { ($0.info.luaName, PluginInstance.name(of: $0)) }
    static let viewReadOnly = ["id", "superview", "subviews"]
    /// Names a view has that are neither the table's nor read-only (`mask`: a view, not a value).
    static let viewReferences = ["mask"]
    static let viewMethods = [
        "add", "insert", "remove", "bring_to_front", "snapshot", "add_animation", "remove_animation", "animation_keys",
    ]
    /// Every name a view has (`NameKind.viewProperty`).
    static let viewNames = viewProperties + viewReadOnly + viewReferences + viewMethods
    static let contextFields = [
        "id", "container", "kind", "duration", "animated", "interactive", "cancelled", "presentation_style",
        "from_index", "to_index", "direction", "coordinator", "info", "target_transform",
    ]
    static let contextMethods = [
        "view", "vc", "initial_frame", "final_frame", "complete", "update", "finish", "cancel", "pause",
    ]
    /// Every name a context has (`NameKind.contextField`).
    static let contextNames = contextFields + contextMethods
    /// The keys of `segue.animate`'s and `segue.keyframes`'s `opts`.
    static let animationOptions = [
        "duration", "delay", "curve", "spring", "repeat_count", "autoreverse", "calculation_mode",
    ]
    static let curveNames = ["linear", "ease_in", "ease_out", "ease_in_out", "default"]

    /// A warning for each field of a description its kind does not have (`durration = 0.3`), with the nearest
    /// field; sorted by field, at most 16.
    func descriptionWarnings(_ described: Described) -> [String] {
        let known = described.kind.descriptionFields
        let base = state.top
        defer { state.setTop(base) }
        state.pushRef(described.ref)
        let table = state.top
        guard state.type(at: table) == LUA_TTABLE else { return [] }
        var unknown: [String] = []
        state.pushNil()
        while lua_next(state.L, table) != 0 {
            // Only string keys: reading another key as a string would change it under lua_next.
            if state.type(at: -2) == LUA_TSTRING, let key = state.string(at: -2), !known.contains(key) {
                unknown.append(key)
            }
            state.pop()
            if unknown.count >= 16 { break }
        }
        return unknown.sorted().map { PluginInstance.unknownName("\(described.kind.rawValue) field", $0, in: known) + "; ignored" }
    }

    /// "unknown WHAT 'name'" and the nearest valid name, or all of them when none is near.
    static func unknownName(_ what: String, _ name: String, in known: [String]) -> String {
        let message = "unknown \(what) '\(LuaError.bounded(name))'"
        guard let nearest = NearestName.nearest(to: name, in: known) else {
            return message + " (\(known.joined(separator: ", ")))"
        }
        return message + " — did you mean '\(nearest)'?"
    }

    /// The warning for an unknown name, or nil when this state has already warned about it.
    func unknownNameWarning(_ kind: NameKind, _ name: String, consequence: String = "") -> String? {
        let key = kind.rawValue + "\u{0}" + name
        guard !warnedNames.contains(key), warnedNames.count < 256 else { return nil }
        warnedNames.insert(key)
        return PluginInstance.unknownName(kind.rawValue, name, in: kind.names) + consequence
    }

    /// Warns (once per name) about an unknown name.
    func warnUnknown(_ kind: NameKind, _ name: String, consequence: String = "") {
        if let message = unknownNameWarning(kind, name, consequence: consequence) { warn(kind.warningCode, message) }
    }

    /// `host.warn_unknown(kind, name)` → true when the name is valid; otherwise warns and answers false.
    /// `host.names(kind)` → the valid names as a set `{name = true}`.
    func registerNameAPI(_ table: Int32) {
        state.pushHostFunction { [unowned self] s in
            guard let kindName = s.string(at: 1), let kind = NameKind(rawValue: kindName) else {
                return .error("warn_unknown: bad kind")
            }
            let name = s.string(at: 2) ?? s.typeName(at: 2)
            let known = kind.names.contains(name)
            if !known { warnUnknown(kind, name, consequence: kind.consequence) }
            s.push(known)
            return .results(1)
        }
        state.setRawField(table, "warn_unknown")
        state.pushHostFunction { s in
            guard let kindName = s.string(at: 1), let kind = NameKind(rawValue: kindName) else {
                return .error("names: bad kind")
            }
            s.newTable(fieldCount: Int32(kind.names.count))
            for name in kind.names {
                s.push(true)
                s.setRawField(-2, name)
            }
            return .results(1)
        }
        state.setRawField(table, "names")
    }
}
