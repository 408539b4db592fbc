import SegueKit

/// The sink of the daemon's scenes: forwards their events to the daemon without keeping it alive and without a
/// `weak` reference (a scene's sink is strong; a weak one would cost a runtime weak load per event and give the
/// daemon a side table). Scenes may outlive the daemon (a test, a transition held by a closure): they then emit
/// into nothing.
///
/// Invariant: `daemon` is set once, at the end of `Daemon.init`, and cleared first thing in `Daemon.deinit`; the
/// daemon is loop-confined, so nothing reads it between its last release and that clearing: it never dangles.
final class SceneEventRelay: EventSink {
    var daemon: Unmanaged<Daemon>?

    func emit(_ event: EngineEvent) {
        daemon?._withUnsafeGuaranteedRef { $0.emit(event) }
    }

    func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool {
        daemon?._withUnsafeGuaranteedRef { $0.isListening(to: kind, in: scene) } ?? false
    }
}
