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
    /// The scene is about to be used: a driver that lets idle scenes sleep brings its clock up to date.
    func wake(scene: Scene)
    /// Every realtime clock stops (the daemon stopped): at once, where `stop(scene:)` per scene would take each
    /// scene off its grid one by one (a search of the grid each, quadratic in the number of scenes).
    func stopAll(_ scenes: [Scene])
}

extension RealtimeDriver {
    public func wake(scene: Scene) {}
    public func stopAll(_ scenes: [Scene]) {
        for scene in scenes { stop(scene: scene) }
    }
}

/// The daemon the server holds: the composition of its owners, each with one job — `Dispatcher` (a request line in,
/// its response out, answers owed for later), `SceneRegistry` (the scenes), `PluginService` (the plugins folder), the
/// event bus (subscriptions and the slow-reader policy) — and the connections they serve. docs/DESIGN.md walks the
/// data path through them.
///
/// Not thread-safe by design: the server confines it to one event loop (checked in every build:
/// `LoopConfinement`), and every request, tick and event runs there, so a request's events are written before its
/// response (docs/PROTOCOL.md "Ordering").
public final class Daemon: EventSink, @unchecked Sendable {
    /// The daemon's life: it serves while `running`, refuses new work while `draining`, and is gone once `stopped`.
    public enum State: String, Sendable { case starting, running, draining, stopped }

    /// The daemon's version (`daemon.info`), the same as `segued --version` and `seguectl --version`.
    public static let version = SegueVersion.string

    /// The config in force; `daemon.reload` (and SIGHUP) replace it (Daemon+Reload.swift says which keys apply when).
    public package(set) var config: DaemonConfig
    /// The flags given to segued, put back over the file on every reload.
    public var overrides = ConfigOverrides()
    /// The log level and format a reload may change (nil: the loggers are not reloadable, as in tests).
    public var logControl: LogControl?
    /// Reloads done (daemon.reload or SIGHUP), and why the last one was refused, if it was (`daemon.info`'s config).
    var reloads = 0
    var lastReloadError: String?
    public let logger: Logger
    /// Checks (every build) that the daemon is touched on its event loop's thread only.
    public let confinement = LoopConfinement()
    /// Requests: the method table, envelopes, batches, answers owed.
    let dispatcher = Dispatcher()
    /// The scenes, by id and in creation order.
    public let scenes: SceneRegistry
    /// The plugins folder: the host, reloads and the watcher.
    package let pluginService: PluginService
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
    /// Events emitted and not yet delivered, and the transitions they ended that someone waits for.
    let queue = EventQueue()
    var nextConnectionID = 1
    /// Subscriptions and the delivery of events to them.
    let events: EventBus
    var daemonSeq = 0
    /// Runs an action after a wall-clock delay on the daemon's event loop (the server sets it).
    public var scheduleAfter: ((Int64, @escaping () -> Void) -> Void)?
    /// The request being served and the plugin function running, for the stall detector's report.
    package var activity: LoopActivity { dispatcher.activity }
    /// Counted by `emit` for every transition that begins or ends, on the loop only.
    var counters = Counters()
    let startedAt = FileSystem.monotonicNanoseconds()
    /// Every scene `scene.create` makes sends its events here (see `SceneEventRelay`).
    let sceneEvents = SceneEventRelay()

    struct Counters {
        var transitionsStarted = 0
        var transitionsCompleted = 0
        var transitionsCancelled = 0
        var transitionsFailedOver = 0
        var transitionsWatchdog = 0
        /// `plugin.failed` events by plugin name: a file that failed to load (`load`), a call that failed in a scene
        /// (`run`). At most `maxPluginNames` names, the rest counted under `Daemon.otherPlugins`.
        var pluginFailures: [(name: String, load: Int, run: Int)] = []
        static let maxPluginNames = 256

        mutating func countPluginFailure(_ name: String, inScene: Bool) {
            var index = pluginFailures.firstIndex { $0.name == name }
            if index == nil {
                if pluginFailures.count >= Counters.maxPluginNames {
                    index = pluginFailures.firstIndex { $0.name == Daemon.otherPlugins }
                    if index == nil {
                        pluginFailures.append((Daemon.otherPlugins, 0, 0))
                        index = pluginFailures.count - 1
                    }
                } else {
                    pluginFailures.append((name, 0, 0))
                    index = pluginFailures.count - 1
                }
            }
            guard let index else { return }
            if inScene { pluginFailures[index].run += 1 } else { pluginFailures[index].load += 1 }
        }
    }

    /// The `plugin` label of failures past the first `Counters.maxPluginNames` plugin names (no file is named so:
    /// a plugin name has no parentheses).
    static let otherPlugins = "(other)"

    public init(config: DaemonConfig, logger: Logger) {
        self.config = config
        self.logger = logger
        events = EventBus(logger: logger)
        scenes = SceneRegistry(confinement: confinement)
        pluginService = PluginService(directory: config.pluginsDir, systemDirectories: config.systemPluginsDirs,
                                      settings: config.lua, logger: logger, confinement: confinement)
        pluginService.publish = { [unowned self] event in self.emitDaemonEvent(event) }
        sceneEvents.daemon = Unmanaged.passUnretained(self)
    }

    deinit { sceneEvents.daemon = nil }

    /// Loads the plugins folder and starts serving.
    public func start() {
        pluginService.reportFolder(config.pluginsDir)
        _ = pluginService.loadAll()
        state = .running
        // Hot reload: the folder's inotify descriptor is watched on the server's loop (none in in-process tests).
        startWatchingPlugins()
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
        events.drop(connection)
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
        deliverAll()
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

    /// Whether `emit` does anything with an event of `kind` now: queue it for the bus (someone is subscribed: the
    /// same test as `emit`'s `toBus`), or count, log or end a wait with it — the kinds `emit`'s switch acts on,
    /// kept in step with it. A scene skips building the other events (lifecycle events with no subscriber), and
    /// `transition.began`, which with no subscriber is only counted: `skipped` counts it.
    public func wants(_ kind: EngineEvent.Kind) -> Bool {
        if !events.isEmpty { return true }
        switch kind {
        case .transitionCompleted, .transitionFailedOver, .transitionWatchdog, .pluginFailed, .pluginWarning, .log:
            return true
        default:
            return false
        }
    }

    /// A scene's event that `wants` declined: a `transition.began` is counted as `emit` counts it.
    public func skipped(_ kind: EngineEvent.Kind) {
        if kind == .transitionBegan { counters.transitionsStarted += 1 }
    }

    /// An event from a scene or the daemon: counted and logged here, and queued (`EventQueue`) for the event bus
    /// and the transition.wait answers it ends, which are delivered after the handler, tick or timer that caused it
    /// has returned (`deliverEvents`, `answerEndedWaits`), never from inside the engine's call.
    public func emit(_ event: EngineEvent) {
        var ended: EngineEvent.TransitionCompletion?
        switch event.payload {
        case .frame: break
        case .transitionBegan: counters.transitionsStarted += 1
        case .transitionCompleted(let completion):
            if completion.completed { counters.transitionsCompleted += 1 } else { counters.transitionsCancelled += 1 }
            ended = completion
        case .failedOver: counters.transitionsFailedOver += 1
        case .watchdog: counters.transitionsWatchdog += 1
        case .pluginFailed(let name, _, let message):
            counters.countPluginFailure(name.isEmpty ? Daemon.otherPlugins : name, inScene: event.scene != nil)
            logger.warning("\(event.type): \(message)",
                           metadata: Daemon.metadata(["plugin.name": name, "scene": event.scene]))
        case .pluginWarning(let name, _, let message, _, _):
            logger.warning("\(event.type): \(message)",
                           metadata: Daemon.metadata(["plugin.name": name, "scene": event.scene]))
        case .log(_, let plugin, let message):
            // A plugin's message goes whole to subscribers; the daemon's own log keeps its first 1 KiB.
            logger.info("\(message.utf8.count > 1024 ? String(decoding: message.utf8.prefix(1024), as: UTF8.self) + "…" : message)",
                        metadata: Daemon.metadata(["plugin.name": plugin, "scene": event.scene]))
        default: break
        }
        queue.add(event, toBus: !events.isEmpty, ended: dispatcher.owed.isEmpty ? nil : ended)
    }

    /// Hands the queued events to the event bus, in the order they were emitted: called once the handler of a
    /// request has returned (before its response is written), after a realtime tick, and at the flush point for
    /// whatever a timer or the plugins folder queued. The bus appends each line to its subscribers' output.
    func deliverEvents() {
        queue.drain { event in events.publish(event) }
    }

    /// Answers the transition.wait requests whose transitions ended since the last call (after their
    /// `transition.completed` events were delivered): once the request line that ended them has been handled
    /// whole (a batch's own waiters are in their batch by then), or after the tick, timer or drain that did.
    func answerEndedWaits() {
        queue.drainEnded { ended in
            transitionEnded(scene: ended.scene, transition: ended.transition, completed: ended.completed)
        }
    }

    /// Delivers every event queued and answers the waits they ended: the end of each walk that is not a request.
    func deliverAll() {
        deliverEvents()
        answerEndedWaits()
    }

    /// The slow reader caught up: `EventBus.drained`.
    public func connectionDrained(_ connection: ClientConnection) {
        events.drained(connection) {
            daemonSeq += 1
            return (daemonSeq, uptime)
        }
    }

    /// Unread output per connection above which frame events are coalesced and the connection's requests are no
    /// longer read (`SocketConnection`; it is writable again under half of this).
    public static let highWatermark = 1 << 20

    public func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool {
        events.isListening(to: kind, in: scene)
    }

    func emitDaemonEvent(_ event: PluginEvent) {
        daemonSeq += 1
        // Failures and warnings are logged by emit; a load and an unload (the file deleted) are logged here, so the
        // log alone tells what is loaded.
        switch event.kind {
        case .loaded, .unloaded:
            logger.info(event.kind == .loaded ? "plugin loaded" : "plugin unloaded",
                        metadata: ["plugin.name": "\(event.name)", "plugin.file": "\(event.file)"])
        case .failed, .warning:
            break
        }
        emit(EngineEvent(scene: nil, seq: daemonSeq, time: uptime, payload: event.payload))
    }

    var uptime: Double { Double(FileSystem.monotonicNanoseconds() - startedAt) / 1e9 }

    // MARK: Requests

    /// Handles one line from a connection (`Dispatcher`). Returns the response line, or nil when there is nothing
    /// to answer (notifications only, or an answer owed for later). Events the request caused have been queued on
    /// their connections before it returns.
    public func handle(line bytes: UnsafeBufferPointer<UInt8>, from connection: ClientConnection) -> String? {
        confinement.check()
        let response = dispatcher.handle(line: bytes, from: connection, daemon: self)
        answerEndedWaits()
        return response
    }

    /// Handles one line from a connection and queues its response on that connection, as `handle` and then
    /// `connection.send` would, without making a `String` of the response: the socket's path
    /// (`SocketConnection`). Returns whether there was a response.
    @discardableResult
    public func serve(line bytes: UnsafeBufferPointer<UInt8>, from connection: ClientConnection) -> Bool {
        confinement.check()
        let answered = dispatcher.serve(line: bytes, from: connection, daemon: self)
        // The waits the request ended are answered first, as when the caller sent `handle`'s line after it.
        answerEndedWaits()
        if answered { dispatcher.sendResponse(to: connection) }
        return answered
    }

    public func handle(line: String, from connection: ClientConnection) -> String? {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { handle(line: UnsafeBufferPointer($0), from: connection) }
    }

    /// An error response with no request to answer (a line over the limit, a connection refused).
    static func response(id: RequestID, error: RPCError) -> String { Dispatcher.response(id: id, error: error) }

    /// The transport's error line with no request to answer (id null): a line over the limit, a connection refused.
    package static func refusal(_ error: RPCError) -> String { response(id: .null, error: error) }

    // MARK: Scenes

    /// The scene a request names (`scene`), or the connection's current one.
    func scene(_ p: Params, _ connection: ClientConnection) throws(RPCError) -> Scene {
        guard let id = try p.id("scene") ?? connection.currentScene else {
            throw .invalidParams("scene", "missing parameter 'scene' (this connection has no current scene: pass scene, or call scene.create or scene.use first)")
        }
        guard let scene = scenes[id] else { throw .notFound("scene", id, param: "scene") }
        return scene
    }

    /// Realtime scenes: moves the clock to the wall time elapsed (times the scene's speed); the server's frame grid
    /// ticks every scene due, and the loop's flush point writes their output once.
    public func tickRealtime(_ scene: Scene, elapsedNanoseconds: Int64) {
        confinement.check()
        guard scenes.holds(scene) else { return }
        scene.advance(to: elapsedNanoseconds)
        deliverAll()
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
        // The completions' events and the waits they end are queued on the connections before they are closed.
        deliverAll()
    }

    public func stop() {
        stopWatchingPlugins()
        drain()
        state = .stopped
        scenes.stopClocks()
    }
}
