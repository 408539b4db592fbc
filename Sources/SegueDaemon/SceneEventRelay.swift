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

    /// No daemon: the event would go into nothing.
    func wants(_ kind: EngineEvent.Kind) -> Bool {
        daemon?._withUnsafeGuaranteedRef { $0.wants(kind) } ?? false
    }

    func skipped(_ kind: EngineEvent.Kind) {
        daemon?._withUnsafeGuaranteedRef { $0.skipped(kind) }
    }
}

/// One scene's sink: the daemon's relay, with that scene's answer to "does anyone want its frames?" kept until the
/// subscriptions change (`EventBus.generation`). A realtime scene asks on every frame (`Scene.emitFrame`), and the
/// bus's answer hashes the scene's id: with thousands of scenes ticking at 60 fps that was 150 instructions per
/// scene per frame for the same answer every time. Other kinds are asked of the bus as before.
final class SceneFrameRelay: EventSink {
    let shared: SceneEventRelay
    private var generation = -1
    private var wantsFrames = false

    init(shared: SceneEventRelay) {
        self.shared = shared
    }

    func emit(_ event: EngineEvent) { shared.emit(event) }

    func wants(_ kind: EngineEvent.Kind) -> Bool { shared.wants(kind) }

    func skipped(_ kind: EngineEvent.Kind) { shared.skipped(kind) }

    func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool {
        guard kind == .frame else { return shared.isListening(to: kind, in: scene) }
        guard let daemon = shared.daemon else { return false }
        return daemon._withUnsafeGuaranteedRef { daemon in
            let current = daemon.events.generation
            if current != generation {
                generation = current
                wantsFrames = daemon.isListening(to: .frame, in: scene)
            }
            return wantsFrames
        }
    }
}
