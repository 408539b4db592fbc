/// Something that happened in a scene (or in the daemon): a lifecycle callback, a transition's progress, a frame.
///
/// The engine's events are typed values: what happened is `payload`, one case per event type docs/PROTOCOL.md
/// lists, with typed fields. Nothing here is JSON; the daemon writes an event's JSON text straight from this value.
public struct EngineEvent: Sendable {
    /// The scene, or nil for daemon-wide events (plugins).
    public let scene: String?
    /// Increases by one per event of a scene (per daemon for scene-less events), before any filtering.
    public let seq: Int
    /// The scene clock in seconds.
    public let time: Double
    public let payload: Payload

    public init(scene: String?, seq: Int, time: Double, payload: Payload) {
        self.scene = scene
        self.seq = seq
        self.time = time
        self.payload = payload
    }

    public var kind: Kind { payload.kind }
    /// The protocol's type name (`transition.completed`, `frame`, …).
    public var type: String { payload.kind.name }
    public var category: EventCategory { payload.kind.category }
}

/// Where a scene sends its events.
public protocol EventSink: AnyObject {
    func emit(_ event: EngineEvent)
    /// Whether any listener wants events of `kind` from `scene`; a scene skips building costly events (frames)
    /// nobody wants. Sequence numbers advance either way.
    func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool
    /// Whether `emit` would do anything with an event of `kind` now: false lets a scene skip building it (its
    /// sequence number is taken all the same). Answers for any scene; a sink that filters by scene says true.
    func wants(_ kind: EngineEvent.Kind) -> Bool
    /// An event of `kind` that `wants` declined was not built (its sequence number was taken): a sink that only
    /// counts events of a kind when nobody receives them counts it here, without the event being made.
    func skipped(_ kind: EngineEvent.Kind)
}

extension EventSink {
    public func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool { true }
    public func wants(_ kind: EngineEvent.Kind) -> Bool { true }
    public func skipped(_ kind: EngineEvent.Kind) {}
}
