/// UISplitViewController.Style (the column styles; `unspecified`, the classic interface, is not modelled).
public enum SplitStyle: String, Sendable, CaseIterable {
    case doubleColumn = "double_column"
    case tripleColumn = "triple_column"
}
