/// A problem recorded on a transition (stable code, message).
public struct TransitionProblem: Sendable, Equatable {
    /// The stable codes of docs/DESIGN.md §3 "Animator check".
    public enum Code: String, Sendable, CaseIterable {
        case neverCompleted = "never_completed"
        case completedTwice = "completed_twice"
        case raised
        case tooSlow = "too_slow"
        case extraViews = "extra_views"
        case missingToView = "missing_to_view"
        case fromViewNotRestored = "from_view_not_restored"
        case appearanceInconsistent = "appearance_inconsistent"
        case completedWhenCancelled = "completed_when_cancelled"
        // Found by `plugins.check` from the plugin's warnings and its interaction cases.
        case raisedInCallback = "raised_in_callback"
        case unknownName = "unknown_name"
        case unknownCurve = "unknown_curve"
        case unknownOption = "unknown_option"
        case percentNotFollowing = "percent_not_following"

        /// The check's problem for a plugin's warning: its own code, or `raised_in_callback` for one without.
        public init(_ warning: PluginWarning.Code) {
            switch warning {
            case .unknownName: self = .unknownName
            case .unknownCurve: self = .unknownCurve
            case .unknownOption: self = .unknownOption
            case .raisedInCallback: self = .raisedInCallback
            case .completedTwice: self = .completedTwice
            case .other: self = .raisedInCallback
            }
        }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}
