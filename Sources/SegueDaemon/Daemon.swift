#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import SegueJSON
import SegueKit
import SegueLua
import SegueVersion

/// Drives realtime scenes' clocks (the server schedules ticks on its event loop; tests have none).
public protocol RealtimeDriver: AnyObject {
    func start(scene: Scene, daemon: Daemon)
    func stop(scene: Scene)
}

/// The daemon the server holds: the composition of its owners, each with one job — `Dispatcher` (a request line in,
/// its response out, answers owed for later), `SceneRegistry` (the scenes), `PluginService` (the plugins folder), the
/// event bus (subscriptions and the slow-reader policy) — and the connections they serve. docs/DESIGN.md walks the
/// data path through them.
///
/// Not thread-safe by design: the server confines it to one event loop (asserted in debug builds:
/// `LoopConfinement`), and every request, tick and event runs there, so a request's events are written before its
/// response (docs/PROTOCOL.md "Ordering").
public final class Daemon: EventSink, @unchecked Sendable {
    /// The daemon's life: it serves while `running`, refuses new work while `draining`, and is gone once `stopped`.
    public enum State: String, Sendable { case starting, running, draining, stopped }

    /// The daemon's version (`daemon.info`), the same as `segued --version` and `seguectl --version`.
    public static let version = SegueVersion.string

    /// The config in force; `daemon.reload` (and SIGHUP) replace it (Daemon+Reload.swift says which keys apply when).
    public internal(set) var config: DaemonConfig
    /// The flags given to segued, put back over the file on every reload.
    public var overrides = ConfigOverrides()
    /// The log level and format a reload may change (nil: the loggers are not reloadable, as in tests).
    public var logControl: LogControl?
    /// Reloads done (daemon.reload or SIGHUP), and why the last one was refused, if it was (`daemon.info`'s config).
    var reloads = 0
    var lastReloadError: String?
    public let logger: Logger
    /// Asserts (debug builds) that the daemon is touched on its event loop's thread only.
    public let confinement = LoopConfinement()
    /// Requests: the method table, envelopes, batches, answers owed.
    let dispatcher = Dispatcher()
    /// The scenes, by id and in creation order.
    public let scenes: SceneRegistry
    /// The plugins folder: the host, reloads and the watcher.
    let pluginService: PluginService
    /// Read by every request: its exclusivity, like that of the request path's state (`Dispatcher.stats`), is not
    /// checked at run time.
    @exclusivity(unchecked) public internal(set) var state: State = .starting
    public var realtimeDriver: (any RealtimeDriver)? {
        get { scenes.realtimeDriver }
        set { scenes.realtimeDriver = newValue }
    }
    public var onShutdownRequest: (() -> Void)?
    /// The socket came from systemd (socket activation): its unit owns the path, so a reload never reports
    /// `daemon.socket` as changed and shutdown does not remove it.
    public var socketActivated = false
    /// Called after a reload applied a new config (the server takes what it keeps, e.g. `daemon.spin_us`).
    public var onConfigApplied: (() -> Void)?
    /// Called between the frames of a long request (`clock.advance`, `clock.step`): the request is still moving, so
    /// the stall detector and systemd's watchdog must not take it for a hung loop. Each frame is bounded (plugin
    /// calls by their budgets); a frame that never ends is still a stall.
    public var onProgress: (() -> Void)?

    var connections: [Int: ClientConnection] = [:]
    let flushQueue = FlushQueue()
    var nextConnectionID = 1
    var subscriptions: [Int: Subscription] = [:]
    var subscriptionOrder: [Int] = []
    /// Numbers the events `emit` hands to subscribers (`ClientConnection.lastEventNumber`).
    var eventNumber = 0
    var nextSubscriptionID = 1
    var daemonSeq = 0
    var endedTransition: (String?, String?, Bool)?
    /// Runs an action after a wall-clock delay on the daemon's event loop (the server sets it).
    public var scheduleAfter: ((Int64, @escaping () -> Void) -> Void)?
    /// The request being served and the plugin function running, for the stall detector's report.
    var activity: LoopActivity { dispatcher.activity }
    var counters = Counters()
    let startedAt = FileSystem.monotonicNanoseconds()

    struct Counters {
        var transitionsStarted = 0
        var transitionsCompleted = 0
        var transitionsCancelled = 0
        var transitionsFailedOver = 0
        var transitionsWatchdog = 0
        var eventsDropped = 0
    }

    public init(config: DaemonConfig, logger: Logger) {
        self.config = config
        self.logger = logger
        scenes = SceneRegistry(confinement: confinement)
        pluginService = PluginService(directory: config.pluginsDir, settings: config.lua, logger: logger,
                                      confinement: confinement)
        pluginService.publish = { [unowned self] event in self.emitDaemonEvent(event) }
    }

    /// Loads the plugins folder and starts serving.
    public func start() {
        pluginService.reportFolder(config.pluginsDir)
        _ = pluginService.loadAll()
        state = .running
        // Hot reload: the watcher's batches land on the loop through the same scheduler timers use.
        if let schedule = scheduleAfter {
            let post = UncheckedScheduler(schedule: schedule)
            startWatchingPlugins { work in post.schedule(0, work) }
        }
    }

    // MARK: Connections

    public var connectionCount: Int { connections.count }

    public func connect(output: any ConnectionOutput, peerUID: UInt32? = nil) -> ClientConnection {
        confinement.check()
        let connection = ClientConnection(id: nextConnectionID, output: output, peerUID: peerUID, flushQueue: flushQueue)
        nextConnectionID += 1
        connections[connection.id] = connection
        return connection
    }

    /// Subscriptions die with their connection.
    public func disconnect(_ connection: ClientConnection) {
        confinement.check()
        dispatcher.owed.drop(of: connection)
        for id in connection.subscriptions { subscriptions[id] = nil }
        subscriptionOrder.removeAll { subscriptions[$0] == nil }
        connection.subscriptions.removeAll()
        connections[connection.id] = nil
    }

    /// Writes out every connection that has queued lines: the one place the daemon's bytes go to the sockets.
    ///
    /// Responses and events are only appended to the connections' output as they are made; the event loop calls
    /// this before it polls (and sleeps), and between serving its ready sockets and running its timers, so a turn
    /// that served many requests writes each connection once, a request's events before its response. Tests that
    /// step the loop by hand call it where the loop would.
    public func flushPending() {
        confinement.check()
        guard !flushQueue.connections.isEmpty else { return }
        // Flushing may queue more (a reader that caught up is sent what was held back): those wait for the next flush.
        swap(&flushQueue.connections, &flushQueue.spare)
        for connection in flushQueue.spare where connection.needsFlush {
            connection.needsFlush = false
            connection.output.flush()
        }
        flushQueue.spare.removeAll(keepingCapacity: true)
    }

    // MARK: Events

    /// Log metadata without the keys that have nothing to say (a daemon-wide event has no scene: `scene=` read as
    /// a scene with an empty name).
    static func metadata(_ values: [String: String?]) -> Logger.Metadata {
        var metadata: Logger.Metadata = [:]
        for (key, value) in values { if let value, !value.isEmpty { metadata[key] = "\(value)" } }
        return metadata
    }

    public func emit(_ event: EngineEvent) {
        switch event.type {
        case "transition.began": counters.transitionsStarted += 1
        case "transition.completed":
            let completed = event.fields["completed"]?.boolValue == true
            if completed { counters.transitionsCompleted += 1 } else { counters.transitionsCancelled += 1 }
            endedTransition = (event.scene, event.fields["transition"]?.stringValue, completed)
        case "transition.failed_over": counters.transitionsFailedOver += 1
        case "transition.watchdog": counters.transitionsWatchdog += 1
        case "plugin.warning", "plugin.failed":
            logger.warning("\(event.type): \(event.fields["message"]?.stringValue ?? event.fields["error"]?.stringValue ?? "")",
                           metadata: Daemon.metadata(["plugin.name": event.fields["name"]?.stringValue, "scene": event.scene]))
        case "log":
            // A plugin's message goes whole to subscribers; the daemon's own log keeps its first 1 KiB.
            let message = event.fields["message"]?.stringValue ?? ""
            logger.info("\(message.utf8.count > 1024 ? String(decoding: message.utf8.prefix(1024), as: UTF8.self) + "…" : message)",
                        metadata: Daemon.metadata(["plugin.name": event.fields["plugin"]?.stringValue, "scene": event.scene]))
        default: break
        }
        defer {
            // Waiters hear of the end after the subscribers got the transition.completed event.
            if let (scene, transition, completed) = endedTransition {
                endedTransition = nil
                transitionEnded(scene: scene, transition: transition, completed: completed)
            }
        }
        guard !subscriptionOrder.isEmpty else { return }
        let category = event.category
        var line: String?
        // A connection gets each event once, however many of its subscriptions want it (an event line does not
        // name a subscription, so a second copy would only be a duplicate): it keeps the number of the last event
        // it was given, so this costs no list per event.
        eventNumber &+= 1
        let number = eventNumber
        for id in subscriptionOrder {
            guard let subscription = subscriptions[id],
                subscription.wants(type: event.type, category: category, scene: event.scene),
                subscription.connection.lastEventNumber != number
            else { continue }
            subscription.connection.lastEventNumber = number
            if line == nil {
                var out = "{\"jsonrpc\":\"2.0\",\"method\":\"event\",\"params\":"
                JSONValue.object(event.params).write(to: &out)
                out += "}"
                line = out
            }
            if let line { deliver(line, type: event.type, scene: event.scene, to: subscription.connection) }
        }
    }

    /// The hard cap on a slow reader's unread output: past it the connection is closed as choked.
    static let chokeBytes = 8 << 20

    /// Sends an event line, never blocking on a slow reader: while the connection is over its high watermark,
    /// frame events are coalesced (the latest per scene wins) and other events are queued up to the hard cap.
    func deliver(_ line: String, type: String, scene: String?, to connection: ClientConnection) {
        guard !connection.choked else { return }
        // Frames are dropped only into `coalescedFrames`, so an empty list means nothing is owed to this reader.
        if connection.output.isWritable && connection.coalescedFrames.isEmpty {
            connection.send(line)
            return
        }
        if type == "frame" {
            let key = scene ?? ""
            if let i = connection.coalescedFrames.firstIndex(where: { $0.scene == key }) {
                // The frame held back for this scene is superseded: that one is dropped.
                connection.coalescedFrames[i].line = line
                connection.droppedCount += 1
                counters.eventsDropped += 1
            } else {
                connection.coalescedFrames.append((key, line))
            }
            return
        }
        connection.bytesWhileBlocked += line.utf8.count + 1
        if connection.bytesWhileBlocked > Daemon.chokeBytes - Daemon.highWatermark {
            connection.choked = true
            logger.warning("closing a subscriber that stopped reading (over 8 MiB unread)",
                           metadata: ["connection.id": "\(connection.id)"])
            connection.output.close()
            return
        }
        connection.send(line)
    }

    /// The slow reader caught up: tell it how many frames it missed, then send the latest ones.
    public func connectionDrained(_ connection: ClientConnection) {
        connection.bytesWhileBlocked = 0
        guard !connection.coalescedFrames.isEmpty else { return }
        let dropped = connection.droppedCount
        daemonSeq += 1
        if dropped > 0 {
            let event = EngineEvent(scene: nil, seq: daemonSeq, type: "events.dropped", time: uptime,
                                    fields: JSONObject([("count", .number(Double(dropped))), ("types", ["frame"])]))
            var out = "{\"jsonrpc\":\"2.0\",\"method\":\"event\",\"params\":"
            JSONValue.object(event.params).write(to: &out)
            connection.send(out + "}")
        }
        for frame in connection.coalescedFrames { connection.send(frame.line) }
        connection.coalescedFrames.removeAll()
        connection.droppedCount = 0
        connection.needsFlush = false
        connection.output.flush()
    }

    /// Unread output per connection above which frame events are coalesced and the connection's requests are no
    /// longer read (`SocketConnection`; it is writable again under half of this).
    public static let highWatermark = 1 << 20

    public func isListening(to type: String, in scene: String) -> Bool {
        let category = EngineEvent.category(of: type)
        for id in subscriptionOrder {
            if subscriptions[id]?.wants(type: type, category: category, scene: scene) == true { return true }
        }
        return false
    }

    func emitDaemonEvent(_ event: PluginEvent) {
        daemonSeq += 1
        // Failures and warnings are logged by emit; a load and an unload (the file deleted) are logged here, so the
        // log alone tells what is loaded.
        if event.type == "plugin.loaded" || event.type == "plugin.unloaded" {
            logger.info(event.type == "plugin.loaded" ? "plugin loaded" : "plugin unloaded",
                        metadata: ["plugin.name": "\(event.name)", "plugin.file": "\(event.file)"])
        }
        emit(EngineEvent(scene: nil, seq: daemonSeq, type: event.type, time: uptime, fields: event.fields))
    }

    var uptime: Double { Double(FileSystem.monotonicNanoseconds() - startedAt) / 1e9 }

    // MARK: Requests

    /// Handles one line from a connection (`Dispatcher`). Returns the response line, or nil when there is nothing
    /// to answer (notifications only, or an answer owed for later). Events the request caused have been queued on
    /// their connections before it returns.
    public func handle(line bytes: UnsafeBufferPointer<UInt8>, from connection: ClientConnection) -> String? {
        confinement.check()
        return dispatcher.handle(line: bytes, from: connection, daemon: self)
    }

    public func handle(line: String, from connection: ClientConnection) -> String? {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { handle(line: UnsafeBufferPointer($0), from: connection) }
    }

    /// An error response with no request to answer (a line over the limit, a connection refused).
    static func response(id: RequestID, error: RPCError) -> String { Dispatcher.response(id: id, error: error) }

    // MARK: Scenes

    /// The scene a request names (`scene`), or the connection's current one.
    func scene(_ p: Params, _ connection: ClientConnection) throws(RPCError) -> Scene {
        guard let id = try p.id("scene") ?? connection.currentScene else {
            throw .invalidParams("scene", "missing parameter 'scene' (this connection has no current scene: pass scene, or call scene.create or scene.use first)")
        }
        guard let scene = scenes[id] else { throw .notFound("scene", id, param: "scene") }
        return scene
    }

    /// Realtime scenes: moves the clock to the wall time elapsed (times the scene's speed).
    public func tickRealtime(_ scene: Scene, elapsedNanoseconds: Int64) {
        confinement.check()
        guard scenes.holds(scene) else { return }
        scene.advance(to: elapsedNanoseconds)
    }

    /// Graceful stop: refuse new requests, complete every running transition (their events are queued: the server
    /// writes them out as it closes each connection).
    public func drain() {
        confinement.check()
        guard state == .running || state == .starting else { return }
        state = .draining
        scenes.finishAllTransitions()
        // plugins.check requests still running case by case (waiters with no scene) get no more turns: they are
        // answered -32005 now rather than left to a connection that closes with no answer.
        for waiter in dispatcher.owed.removeAll(where: \.isCheck) {
            dispatcher.owed.answer(waiter, error: .shuttingDown)
        }
    }

    public func stop() {
        stopWatchingPlugins()
        drain()
        state = .stopped
        scenes.stopClocks()
    }
}
