/// UISplitViewController's columns.
public enum SplitColumn: String, Sendable, CaseIterable {
    case primary, supplementary, secondary
}
