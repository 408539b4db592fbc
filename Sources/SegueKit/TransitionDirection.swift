/// Which way a transition goes: push and present forward, pop and dismiss backward, a select by index.
public enum TransitionDirection: String, Sendable, CaseIterable {
    case forward, backward
}
