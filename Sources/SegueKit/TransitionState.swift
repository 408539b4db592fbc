/// The states of docs/PROTOCOL.md's `transition.get`.
public enum TransitionState: String, Sendable {
    case queued, animating, interactive, finishing, cancelling, completed, cancelled
}
