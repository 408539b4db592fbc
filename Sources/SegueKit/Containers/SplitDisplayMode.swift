/// UISplitViewController.DisplayMode. `automatic` is a preference only: the mode in effect never is automatic.
public enum SplitDisplayMode: String, Sendable, CaseIterable {
    case automatic
    case secondaryOnly = "secondary_only"
    case oneBesideSecondary = "one_beside_secondary"
    case oneOverSecondary = "one_over_secondary"
    case twoBesideSecondary = "two_beside_secondary"
    case twoOverSecondary = "two_over_secondary"
    case twoDisplaceSecondary = "two_displace_secondary"

    /// The modes that show two sidebars, for triple-column splits only.
    var showsTwo: Bool { self == .twoBesideSecondary || self == .twoOverSecondary || self == .twoDisplaceSecondary }
}
