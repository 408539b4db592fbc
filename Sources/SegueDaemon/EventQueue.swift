import SegueKit

/// The events emitted and not delivered yet, and the ended transitions someone waits for: the seam between the
/// engine's calls and the daemon's delivery. The engine emits into it while a handler (or a tick, a timer) runs;
/// the daemon empties it once that has returned (`Daemon.deliverEvents`, `Daemon.answerEndedWaits`), so the event
/// bus and the owed answers never run inside the engine's call stack, and a request's events are still on their
/// connections before its response. Loop-confined, like the daemon.
final class EventQueue {
    /// A transition's end that answers transition.wait requests.
    struct Ended {
        let scene: String
        let transition: String
        let completed: Bool
    }

    /// Events for the bus, in emission order; its storage is kept from one request to the next.
    @exclusivity(unchecked) private var events: [EngineEvent] = []
    /// The list being delivered (kept to reuse its storage).
    @exclusivity(unchecked) private var spare: [EngineEvent] = []
    @exclusivity(unchecked) private var ended: [Ended] = []

    var isEmpty: Bool { events.isEmpty && ended.isEmpty }

    /// Queues `event` for the bus (`toBus`: someone is subscribed) and, when it ends a transition someone waits
    /// for, that end.
    @inline(__always)
    func add(_ event: EngineEvent, toBus: Bool, ended completion: EngineEvent.TransitionCompletion?) {
        if toBus { events.append(event) }
        if let completion, let scene = event.scene {
            ended.append(Ended(scene: scene, transition: completion.transition, completed: completion.completed))
        }
    }

    /// Hands every queued event to `deliver`, oldest first. Events queued meanwhile (delivery does not emit, but a
    /// reader that caught up could) are delivered in the same call, after them.
    func drain(_ deliver: (EngineEvent) -> Void) {
        while !events.isEmpty {
            swap(&events, &spare)
            for event in spare { deliver(event) }
            spare.removeAll(keepingCapacity: true)
        }
    }

    /// Hands every queued end to `answer`, oldest first.
    func drainEnded(_ answer: (Ended) -> Void) {
        guard !ended.isEmpty else { return }
        let taken = ended
        ended.removeAll(keepingCapacity: true)
        for end in taken { answer(end) }
    }
}
