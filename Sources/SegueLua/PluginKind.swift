/// What a plugin is (docs/PLUGIN_API.md "Plugin kinds"): the raw value is how the prelude's constructors
/// (`segue.animator{}`, …) and `plugins.list` name it. Decoded once, where the description list comes back from Lua.
public enum PluginKind: String, Sendable, CaseIterable {
    case animator, interaction, delegate, presentation

    /// With its article, for messages: "an animator", "an interaction", "a delegate".
    public var withArticle: String {
        switch self {
        case .animator, .interaction: "an " + rawValue
        case .delegate, .presentation: "a " + rawValue
        }
    }

    /// The fields a description of this kind has (an unknown one is warned about).
    var descriptionFields: [String] {
        switch self {
        case .animator: ["name", "version", "api", "kinds", "duration", "animate", "ended", "interruptible_animator"]
        case .interaction:
            ["name", "version", "api", "kinds", "began", "changed", "ended", "completion_speed", "completion_curve",
             "gesture_began", "wants_interactive_start", "start"]
        case .delegate: ["name", "version", "api", "animator_for", "interaction_for"]
        case .presentation:
            [
                "name", "version", "api", "frame_of_presented_view", "will_begin", "did_end", "dismissal_will_begin",
                "dismissal_did_end", "layout", "removes_presenter_view", "adaptive_style", "will_transition_to_size",
            ]
        }
    }

    /// The warning for a kind that is none of these: the allowed values listed.
    static func unknown(_ text: String) -> String {
        "unknown plugin kind '\(LuaError.bounded(text))' (one of \(allCases.map(\.rawValue).joined(separator: ", "))); the description is ignored"
    }
}
