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

/// The daemon's state: scenes, plugins, connections and subscriptions, and the JSON-RPC dispatcher.
///
/// Not thread-safe by design: the server confines it to one event loop, and every request, tick and event runs
/// there, so a request's events are written before its response (docs/PROTOCOL.md "Ordering").
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
    public let plugins: PluginHost
    /// Read by every request: its exclusivity, like that of the request path's state below, is not checked at run
    /// time (see `stats`).
    @exclusivity(unchecked) public internal(set) var state: State = .starting
    public weak var realtimeDriver: (any RealtimeDriver)?
    /// Called when a client asks the daemon to stop (daemon.shutdown).
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

    var scenes: [String: Scene] = [:]
    var sceneOrder: [String] = []
    var nextSceneNumber = 1
    var connections: [Int: ClientConnection] = [:]
    let flushQueue = FlushQueue()
    var nextConnectionID = 1
    var subscriptions: [Int: Subscription] = [:]
    var subscriptionOrder: [Int] = []
    /// Numbers the events `emit` hands to subscribers (`ClientConnection.lastEventNumber`).
    var eventNumber = 0
    var nextSubscriptionID = 1
    var daemonSeq = 0
    /// transition.wait requests not answered yet, oldest first.
    var waiters: [Waiter] = []
    var nextWaiterNumber = 0
    /// Most answers owed at once (pending transition.wait and plugins.check requests); tests lower it.
    var maxWaiters = 65_536
    /// Set by the transition.wait handler for `dispatch` to pick up.
    @exclusivity(unchecked) var deferredWait: DeferredWait?
    /// Set by the plugins.check handler for `dispatch` to pick up: the check runs a case per turn of the loop.
    var deferredCheck: PluginCheck?
    /// The waiter the last request registered (for batches to collect).
    var lastWaiter: Waiter?
    var endedTransition: (String?, String?, Bool)?
    /// Runs an action after a wall-clock delay on the daemon's event loop (the server sets it).
    public var scheduleAfter: ((Int64, @escaping () -> Void) -> Void)?
    /// The method table, held here so the request path reads it without a global's once-check.
    let methodTable = Daemon.methodTable
    /// The request being served and the plugin function running, for the stall detector's report.
    let activity = LoopActivity(names: Daemon.methodTable.names)
    /// Every request records itself here. Its exclusivity is not checked at run time, nor that of the other state
    /// every request touches (`state`, `deferredWait`, `responseBytes`, `spareParams`): the daemon runs on one event
    /// loop, no access to them overlaps another, and the checks were a tenth of a daemon.ping's instructions.
    @exclusivity(unchecked) var stats = RequestStats(methodCount: Daemon.methodTable.count)
    /// The bytes of the response being written, kept so every request reuses their storage.
    @exclusivity(unchecked) var responseBytes = JSONOutput(capacity: 256)
    /// The Params handed to methods, reused from one request to the next (`params(for:)`).
    @exclusivity(unchecked) var spareParams = Params(JSONObject())
    /// The plugins folder's inotify watcher (Daemon+Plugins.swift).
    let pluginWatcherBox = PluginWatcherBox()
    var counters = Counters()
    let startedAt = FileSystem.monotonicNanoseconds()

    struct Counters {
        var transitionsStarted = 0
        var transitionsCompleted = 0
        var transitionsCancelled = 0
        var transitionsFailedOver = 0
        var transitionsWatchdog = 0
        var framesOfDestroyedScenes = 0
        var eventsDropped = 0
    }

    public init(config: DaemonConfig, logger: Logger) {
        self.config = config
        self.logger = logger
        self.plugins = PluginHost(directory: config.pluginsDir, settings: config.lua)
    }

    /// Loads the plugins folder and starts serving.
    public func start() {
        reportPluginsFolder()
        for event in plugins.loadAll() { emitDaemonEvent(event) }
        state = .running
        // Hot reload: the folder's inotify descriptor is watched on the server's loop (none in in-process tests).
        startWatchingPlugins()
    }

    // MARK: Connections

    public var connectionCount: Int { connections.count }

    public func connect(output: any ConnectionOutput, peerUID: UInt32? = nil) -> ClientConnection {
        let connection = ClientConnection(id: nextConnectionID, output: output, peerUID: peerUID, flushQueue: flushQueue)
        nextConnectionID += 1
        connections[connection.id] = connection
        return connection
    }

    /// Subscriptions die with their connection.
    public func disconnect(_ connection: ClientConnection) {
        dropWaiters(of: connection)
        for id in connection.subscriptions { subscriptions[id] = nil }
        subscriptionOrder.removeAll { subscriptions[$0] == nil }
        connection.subscriptions.removeAll()
        connections[connection.id] = nil
    }

    /// Writes out every connection that has queued lines.
    public func flushAll() {
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

    /// Frames evaluated by every scene, the destroyed ones included.
    var framesEvaluated: Int { counters.framesOfDestroyedScenes + scenes.values.reduce(0) { $0 + $1.framesEvaluated } }

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

    /// Handles one line from a connection. Returns the response line, or nil when there is nothing to answer
    /// (notifications only). Events the request caused have been queued on their connections before it returns.
    public func handle(line bytes: UnsafeBufferPointer<UInt8>, from connection: ClientConnection) -> String? {
        // A plain request, or a batch of them, is read straight from its bytes; every other line (anything to
        // refuse, escapes, repeated members) is parsed whole and checked below, as before.
        if let request = RequestEnvelope.scan(bytes, methods: methodTable) {
            return dispatch(request, from: connection)
        }
        if let requests = RequestEnvelope.scanBatch(bytes, methods: methodTable) {
            return handleBatch(of: requests.count, from: connection) { dispatch(requests[$0], from: connection) }
        }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(bytes: bytes)
        } catch {
            stats.recordError(code: -32700)
            return response(id: .null, error: .parse(error))
        }
        // Number ids keep their text (the parser gives Doubles): looked up on the line only when there is one.
        switch value {
        case .array(let elements):
            guard !elements.isEmpty else {
                stats.recordError(code: -32600)
                return response(id: .null, error: .invalidRequest("an empty batch"))
            }
            let texts = elements.contains { $0["id"]?.doubleValue != nil } ? RequestEnvelope.idTexts(in: bytes) : []
            return handleBatch(of: elements.count, from: connection) {
                handleRequest(elements[$0], idText: $0 < texts.count ? texts[$0] : nil, from: connection)
            }
        default:
            let text = value["id"]?.doubleValue != nil ? RequestEnvelope.idTexts(in: bytes).first ?? nil : nil
            return handleRequest(value, idText: text, from: connection)
        }
    }

    /// Runs a batch's members in order (`member(i)` answers member i) and answers them together.
    func handleBatch(of count: Int, from connection: ClientConnection, member: (Int) -> String?) -> String? {
        var slots: [String?] = []
        slots.reserveCapacity(count)
        var pending: [Waiter] = []
        for i in 0..<count {
            // Only a waiter this member registers is the batch's: one left by an earlier plain request (a
            // transition.wait still pending, on any connection, or a check long answered) is not.
            lastWaiter = nil
            slots.append(member(i))
            if let waiter = lastWaiter {
                waiter.slot = slots.count - 1
                pending.append(waiter)
                lastWaiter = nil
            }
        }
        if !pending.isEmpty {
            // A transition.wait in the batch has not ended: the whole batch is answered when it has.
            let batch = PendingBatch(connection: connection, slots: slots, remaining: pending.count)
            for waiter in pending { waiter.batch = batch }
            return nil
        }
        responseBytes.removeAll()
        for case var response? in slots {
            responseBytes.append(responseBytes.count == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
            response.withUTF8 { responseBytes.append($0) }
        }
        guard responseBytes.count > 0 else { return nil }
        responseBytes.append(UInt8(ascii: "]"))
        return responseBytes.string
    }

    public func handle(line: String, from connection: ClientConnection) -> String? {
        var bytes = Array(line.utf8)
        return bytes.withUnsafeMutableBufferPointer { handle(line: UnsafeBufferPointer($0), from: connection) }
    }

    func handleRequest(_ value: JSONValue, idText: String? = nil, from connection: ClientConnection) -> String? {
        let request: RequestEnvelope
        do throws(EnvelopeRefusal) {
            request = try RequestEnvelope.check(value, idText: idText, methods: methodTable)
        } catch {
            stats.recordError(code: error.error.code)
            return error.answered ? response(id: error.id, error: error.error) : nil
        }
        return dispatch(request, from: connection)
    }

    /// Runs a request whose envelope passed the checks, records its latency and writes its answer.
    func dispatch(_ request: RequestEnvelope, from connection: ClientConnection) -> String? {
        let responseID = request.id ?? .null
        let started = FileSystem.monotonicNanoseconds()
        let result: Result<JSONValue, RPCError>
        let number: Int?
        switch request.method {
        case .known(let n):
            number = n
            activity.serving(method: n, id: request.id)
            defer { activity.served() }
            let refused = state == .draining || state == .stopped
            result = refused ? .failure(.shuttingDown) : call(n, request.params, connection)
        case .unknown(let name):
            number = nil
            result = .failure(.methodNotFound(name, nearest: NearestName.nearest(to: name, in: methodTable.names)))
        }
        let elapsed = FileSystem.monotonicNanoseconds() - started
        // A transition.wait or plugins.check that answers later: its response is owed, not written now.
        if deferredWait != nil || deferredCheck != nil {
            let wait = deferredWait, check = deferredCheck
            deferredWait = nil
            deferredCheck = nil
            if case .success = result, let number {
                stats.record(method: number, nanoseconds: elapsed, errorCode: nil)
                if request.id != nil {
                    if let wait { lastWaiter = registerWait(wait, connection: connection, id: responseID) }
                    if let check { lastWaiter = startCheck(check, connection: connection, id: responseID) }
                }
                return nil
            }
        }
        switch result {
        case .success(let value):
            // Only a method of the table succeeds.
            if let number { stats.record(method: number, nanoseconds: elapsed, errorCode: nil) }
            return request.id == nil ? nil : response(id: responseID, result: value)
        case .failure(let error):
            // Latency is kept per method of the table only: an unknown name is counted (requests, errors by
            // code) but gets no bucket, so clients cannot grow the stats with made-up method names.
            if let number {
                stats.record(method: number, nanoseconds: elapsed, errorCode: error.code)
            } else {
                stats.recordError(code: error.code)
            }
            return request.id == nil ? nil : response(id: responseID, error: error)
        }
    }

    /// Runs method `number` of the table.
    private func call(_ number: Int, _ params: JSONObject, _ connection: ClientConnection)
        -> Result<JSONValue, RPCError>
    {
        do throws(RPCError) {
            return .success(try methodTable.handlers[number](self, self.params(for: params), connection))
        } catch {
            return .failure(error)
        }
    }

    /// A Params for a request: the spare one, unless a method kept hold of it (then a new one becomes the spare).
    /// Allocating and freeing one per request was a tenth of a daemon.ping. The spare holds the last request's
    /// parameters until the next request (one line's worth at most).
    func params(for object: JSONObject) -> Params {
        if isKnownUniquelyReferenced(&spareParams) {
            spareParams.reset(to: object)
        } else {
            spareParams = Params(object)
        }
        return spareParams
    }

    /// A response line, written in `responseBytes` (whose storage every request reuses).
    func response(id: RequestID, result: JSONValue) -> String {
        responseBytes.removeAll()
        Daemon.writeResponse(id: id, result: result, to: &responseBytes)
        return responseBytes.string
    }

    func response(id: RequestID, error: RPCError) -> String {
        responseBytes.removeAll()
        Daemon.writeResponse(id: id, error: error, to: &responseBytes)
        return responseBytes.string
    }

    static func response(id: RequestID, result: JSONValue) -> String {
        var out = JSONOutput()
        writeResponse(id: id, result: result, to: &out)
        return out.string
    }

    static func response(id: RequestID, error: RPCError) -> String {
        var out = JSONOutput(capacity: 256)
        writeResponse(id: id, error: error, to: &out)
        return out.string
    }

    static func writeResponse(id: RequestID, result: JSONValue, to out: inout JSONOutput) {
        out.append(#"{"jsonrpc":"2.0","id":"#)
        id.write(to: &out)
        out.append(#","result":"#)
        result.write(to: &out)
        out.append(UInt8(ascii: "}"))
    }

    /// The error object is written member by member: the same text as `error.json`, without building it.
    static func writeResponse(id: RequestID, error: RPCError, to out: inout JSONOutput) {
        out.append(#"{"jsonrpc":"2.0","id":"#)
        id.write(to: &out)
        out.append(#","error":{"code":"#)
        JSONValue.writeNumber(Double(error.code), to: &out)
        out.append(#","message":"#)
        JSONValue.writeString(error.message, to: &out)
        out.append(#","data":"#)
        JSONValue.object(error.data).write(to: &out)
        out.append("}}")
    }

    // MARK: Scenes

    func scene(_ p: Params, _ connection: ClientConnection) throws(RPCError) -> Scene {
        guard let id = try p.id("scene") ?? connection.currentScene else {
            throw .invalidParams("scene", "missing parameter 'scene' (this connection has no current scene: pass scene, or call scene.create or scene.use first)")
        }
        guard let scene = scenes[id] else { throw .notFound("scene", id, param: "scene") }
        return scene
    }

    /// Realtime scenes: moves the clock to the wall time elapsed (times the scene's speed). The caller flushes (the
    /// server's frame grid ticks every scene due, then flushes once).
    public func tickRealtime(_ scene: Scene, elapsedNanoseconds: Int64) {
        guard scenes[scene.id] === scene else { return }
        scene.advance(to: elapsedNanoseconds)
    }

    /// Graceful stop: refuse new requests, complete every running transition (their events are sent), flush.
    public func drain() {
        guard state == .running || state == .starting else { return }
        state = .draining
        for id in sceneOrder { scenes[id]?.finishAllTransitions() }
        // plugins.check requests still running case by case (waiters with no scene) get no more turns: they are
        // answered -32005 now rather than left to a connection that closes with no answer.
        let checks = waiters.filter { $0.scene.isEmpty }
        waiters.removeAll { $0.scene.isEmpty }
        for waiter in checks { answer(waiter, error: .shuttingDown) }
        flushAll()
    }

    public func stop() {
        stopWatchingPlugins()
        drain()
        state = .stopped
        for id in sceneOrder {
            if let scene = scenes[id] { realtimeDriver?.stop(scene: scene) }
        }
    }
}
