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
    /// Subscription ids in the order they were made: delivery follows it.
    private(set) var order: [Int] = []
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
        return id
    }

    /// Ends one of `connection`'s subscriptions; false when it has none with that id.
    func unsubscribe(_ id: Int, of connection: ClientConnection) -> Bool {
        guard connection.subscriptions.contains(id) else { return false }
        connection.subscriptions.removeAll { $0 == id }
        subscriptions[id] = nil
        order.removeAll { $0 == id }
        return true
    }

    /// A connection went away: its subscriptions go with it.
    func drop(_ connection: ClientConnection) {
        guard !connection.subscriptions.isEmpty else { return }
        for id in connection.subscriptions { subscriptions[id] = nil }
        order.removeAll { subscriptions[$0] == nil }
        connection.subscriptions.removeAll()
    }

    /// Whether any subscription wants events of `kind` from `scene`.
    func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool {
        for id in order {
            if subscriptions[id]?.wants(kind, scene: scene) == true { return true }
        }
        return false
    }

    // MARK: Delivery

    /// Hands `event` to every connection with a subscription that wants it, once per connection (an event line
    /// does not name a subscription, so a second copy would only be a duplicate). The line is encoded at the first
    /// connection that wants it, then the same bytes go to the others.
    func publish(_ event: EngineEvent) {
        guard !order.isEmpty else { return }
        let kind = event.kind
        // Each connection keeps the number of the last event it was given, so this costs no list per event.
        eventNumber &+= 1
        let number = eventNumber
        var encoded = false
        for id in order {
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
