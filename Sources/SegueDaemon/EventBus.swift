import Logging
import SegueJSON
import SegueKit

/// The daemon's event bus: the subscriptions, each event's delivery to the connections that want it (once per
/// connection), and the slow-reader policy. Confined to the daemon's loop, like the daemon.
///
/// An event is encoded once, straight from its typed value into the bus's line buffer (`EventEncoder`), and the
/// same bytes are appended to every wanting connection's output: no JSON tree, no String per event.
final class EventBus {
    /// The hard cap on a slow reader's unread output: past it the connection is closed as choked.
    static let chokeBytes = 8 << 20

    private(set) var subscriptions: [Int: Subscription] = [:]
    /// Subscription ids in the order they were made: delivery follows it. Read by every event the engine emits
    /// (`Daemon.emit`: is anyone subscribed at all?), on the loop only.
    private(set) var order: [Int] = []
    /// The ids of the subscriptions bound to each scene, and of those bound to none, each in `order`'s order; and
    /// the kinds each set wants. A scene's event looks only at its own scene's subscriptions and the unbound ones
    /// (with 10 000 scenes and a subscription on each of 16, every tick of every scene asked all 16).
    private var byScene: [String: [Int]] = [:]
    private var unbound: [Int] = []
    private var sceneKinds: [String: EventKinds] = [:]
    private var unboundKinds = EventKinds()
    private var nextID = 1
    /// Numbers the events handed to subscribers (`ClientConnection.lastEventNumber`).
    private var eventNumber = 0
    /// The line being delivered; its storage is kept from event to event.
    private var line = JSONOutput(capacity: 4096)
    /// Frame events dropped for slow readers (superseded by a later frame before they could be sent).
    private(set) var eventsDropped = 0
    private let logger: Logger

    init(logger: Logger) {
        self.logger = logger
    }

    var isEmpty: Bool { order.isEmpty }

    // MARK: Subscriptions

    /// A new subscription of `connection`; its id.
    func subscribe(_ connection: ClientConnection, scene: String?, types: Set<String>) -> Int {
        let id = nextID
        nextID += 1
        subscriptions[id] = Subscription(id: id, connection: connection, scene: scene, types: types)
        order.append(id)
        connection.subscriptions.append(id)
        if let scene { byScene[scene, default: []].append(id) } else { unbound.append(id) }
        reindex(scene)
        return id
    }

    /// Takes `id` out of the scene index (it is already out of `subscriptions`).
    private func unindex(_ id: Int, scene: String?) {
        if let scene {
            byScene[scene]?.removeAll { $0 == id }
            if byScene[scene]?.isEmpty == true { byScene[scene] = nil }
        } else {
            unbound.removeAll { $0 == id }
        }
        reindex(scene)
    }

    /// Bumped whenever what `isListening` answers may have changed (`reindex`): a scene's sink keeps its answer
    /// for frames until then (`SceneFrameRelay`).
    private(set) var generation = 0

    /// The kinds the subscriptions of `scene` (nil: the unbound ones) want, again.
    private func reindex(_ scene: String?) {
        generation &+= 1
        var kinds = EventKinds()
        for id in scene.map({ byScene[$0] ?? [] }) ?? unbound {
            if let subscription = subscriptions[id] { kinds.formUnion(subscription.kinds) }
        }
        if let scene { sceneKinds[scene] = kinds.isEmpty ? nil : kinds } else { unboundKinds = kinds }
    }

    /// Ends one of `connection`'s subscriptions; false when it has none with that id.
    func unsubscribe(_ id: Int, of connection: ClientConnection) -> Bool {
        guard connection.subscriptions.contains(id) else { return false }
        connection.subscriptions.removeAll { $0 == id }
        let scene = subscriptions[id]?.scene
        subscriptions[id] = nil
        order.removeAll { $0 == id }
        unindex(id, scene: scene)
        return true
    }

    /// A connection went away: its subscriptions go with it.
    func drop(_ connection: ClientConnection) {
        guard !connection.subscriptions.isEmpty else { return }
        for id in connection.subscriptions {
            let scene = subscriptions[id]?.scene
            subscriptions[id] = nil
            unindex(id, scene: scene)
        }
        order.removeAll { subscriptions[$0] == nil }
        connection.subscriptions.removeAll()
    }

    /// Whether any subscription wants events of `kind` from `scene`.
    func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool {
        if unboundKinds.contains(kind) { return true }
        return sceneKinds[scene]?.contains(kind) ?? false
    }

    // MARK: Delivery

    /// Hands `event` to every connection with a subscription that wants it, once per connection (an event line
    /// does not name a subscription, so a second copy would only be a duplicate). The line is encoded at the first
    /// connection that wants it, then the same bytes go to the others.
    func publish(_ event: EngineEvent) {
        guard !order.isEmpty else { return }
        let kind = event.kind
        guard let scene = event.scene else { return publish(event, kind: kind, to: order) }
        // A scene's event: only its scene's subscriptions and the unbound ones can want it (in `order`'s order).
        let own = sceneKinds[scene]?.contains(kind) == true ? byScene[scene] ?? [] : []
        let all = unboundKinds.contains(kind) ? unbound : []
        if all.isEmpty {
            if !own.isEmpty { publish(event, kind: kind, to: own) }
        } else if own.isEmpty {
            publish(event, kind: kind, to: all)
        } else {
            publish(event, kind: kind, to: (own + all).sorted())
        }
    }

    private func publish(_ event: EngineEvent, kind: EngineEvent.Kind, to ids: [Int]) {
        // Each connection keeps the number of the last event it was given, so this costs no list per event.
        eventNumber &+= 1
        let number = eventNumber
        var encoded = false
        for id in ids {
            guard let subscription = subscriptions[id], subscription.wants(kind, scene: event.scene),
                subscription.connection.lastEventNumber != number
            else { continue }
            subscription.connection.lastEventNumber = number
            if !encoded {
                line.removeAll()
                EventEncoder.writeLine(event, to: &line)
                encoded = true
            }
            deliver(kind: kind, scene: event.scene, to: subscription.connection)
        }
    }

    /// Sends `line`, never blocking on a slow reader: while the connection is over its high watermark, frame
    /// events are coalesced (the latest per scene wins) and other events are queued up to the hard cap.
    private func deliver(kind: EngineEvent.Kind, scene: String?, to connection: ClientConnection) {
        guard !connection.choked else { return }
        // Frames are dropped only into `coalescedFrames`, so an empty list means nothing is owed to this reader.
        if connection.output.isWritable && connection.coalescedFrames.isEmpty {
            line.withBytes { connection.send(bytes: $0) }
            return
        }
        if kind == .frame {
            let key = scene ?? ""
            let bytes = line.withBytes { [UInt8]($0) }
            if let i = connection.coalescedFrames.firstIndex(where: { $0.scene == key }) {
                // The frame held back for this scene is superseded: that one is dropped.
                connection.coalescedFrames[i].line = bytes
                connection.droppedCount += 1
                eventsDropped += 1
            } else {
                connection.coalescedFrames.append((key, bytes))
            }
            return
        }
        connection.bytesWhileBlocked += line.count + 1
        if connection.bytesWhileBlocked > EventBus.chokeBytes - Daemon.highWatermark {
            connection.choked = true
            logger.warning("closing a subscriber that stopped reading (over 8 MiB unread)",
                           metadata: ["connection.id": "\(connection.id)"])
            connection.output.close()
            return
        }
        line.withBytes { connection.send(bytes: $0) }
    }

    /// The slow reader caught up: it is told how many frames it missed (`events.dropped`, numbered by
    /// `daemonEvent`, which gives the next daemon-wide seq and the daemon's time), then sent the latest ones.
    func drained(_ connection: ClientConnection, daemonEvent: () -> (seq: Int, time: Double)) {
        connection.bytesWhileBlocked = 0
        guard !connection.coalescedFrames.isEmpty else { return }
        let dropped = connection.droppedCount
        let (seq, time) = daemonEvent()
        if dropped > 0 {
            let event = EngineEvent(scene: nil, seq: seq, time: time,
                                    payload: .eventsDropped(count: dropped, types: ["frame"]))
            var out = JSONOutput(capacity: 128)
            EventEncoder.writeLine(event, to: &out)
            out.withBytes { connection.send(bytes: $0) }
        }
        for frame in connection.coalescedFrames {
            frame.line.withUnsafeBufferPointer { connection.send(bytes: $0) }
        }
        connection.coalescedFrames.removeAll()
        connection.droppedCount = 0
        connection.needsFlush = false
        connection.output.flush()
    }
}
