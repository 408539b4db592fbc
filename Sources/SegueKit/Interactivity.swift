/// How a transition-starting request asks for interaction (docs/PROTOCOL.md's `interactive`).
public enum Interactivity: Equatable, Sendable {
    /// Not interactive.
    case none
    /// `true`: paused at 0, driven by transition.update/finish/cancel (an interaction plugin may still come
    /// from the container's delegate or rules).
    case percent
    /// An interaction plugin's name: paused, and `gesture.pan` goes to that plugin.
    case plugin(String)
}
