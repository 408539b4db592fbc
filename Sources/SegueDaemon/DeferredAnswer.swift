import SegueLua

/// What a handler leaves for the dispatcher when its answer comes later: the dispatcher registers the answer as owed
/// (`OwedAnswers`) once the request has succeeded, and writes no response now.
enum DeferredAnswer {
    /// transition.wait: answer when this transition ends, or after `timeoutMs` of wall time.
    case wait(scene: String, transition: String, timeoutMs: Int?)
    /// plugins.check on the event loop: answer when the check's last case has run (one case per turn).
    case check(PluginCheck)
}
