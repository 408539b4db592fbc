/// The kinds of transition.
public enum TransitionKind: String, Sendable, CaseIterable {
    case select, push, pop, set, present, dismiss
    /// A split view's `split.set_column` and display-mode changes.
    case column
    case displayMode = "display_mode"
}
