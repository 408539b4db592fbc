import Dispatch
import SegueJSON
import SegueKit
import SegueLua

/// plugins.reload, plugins.check and hot reload: everything that changes the plugin host runs on the daemon's
/// event loop; the inotify watcher only tells the loop which files changed.
extension Daemon {
    /// `plugins.reload {name?}`: one plugin's file, or a full rescan that reloads every file.
    func pluginsReload(_ p: Params) throws(RPCError) -> JSONValue {
        let name = try p.string("name")
        try p.finish()
        let events: [PluginEvent]
        if let name {
            guard let reloaded = plugins.reload(named: name) else { throw .notFound("plugin", name, param: "name") }
            events = reloaded
        } else {
            events = plugins.rescan(force: true)
        }
        for event in events { emitDaemonEvent(event) }
        return Daemon.summary(of: events)
    }

    /// `plugins.check {name, size?, presentation?, delegate?}`. On the event loop the check runs one case per
    /// turn (`startCheck`) and the answer comes when all are done; without a loop (tests) it runs at once.
    func pluginsCheck(_ p: Params) throws(RPCError) -> JSONValue {
        let name = try p.requiredID("name")
        let size = try p.size("size") ?? Size(w: 320, h: 480)
        let presentation = try p.id("presentation")
        let delegate = try p.id("delegate")
        try p.finish()
        let check: PluginCheck
        do throws(EngineError) {
            check = try plugins.makeCheck(name: name, size: size, presentation: presentation, delegate: delegate)
        } catch {
            throw RPCError(error)
        }
        guard scheduleAfter != nil else {
            while !check.isFinished { check.step() }
            return check.report.json
        }
        try checkRoomForWaiter("plugins.check")
        deferredCheck = check
        return .null
    }

    /// Registers the answer a check owes (a waiter, so a batch and a half-closed connection wait for it) and
    /// schedules its first case.
    func startCheck(_ check: PluginCheck, connection: ClientConnection, id: RequestID) -> Waiter {
        let waiter = addWaiter(scene: "", transition: "", connection: connection, id: id)
        scheduleAfter?(0) { [weak self] in self?.stepCheck(check, for: waiter) }
        return waiter
    }

    /// Runs the check's next case, then schedules the one after (other requests are served in between), or
    /// answers when it was the last. A check whose connection went away (its waiter dropped) stops here.
    func stepCheck(_ check: PluginCheck, for waiter: Waiter) {
        guard waiters.contains(where: { $0 === waiter }) else { return }
        check.step()
        guard check.isFinished else {
            scheduleAfter?(0) { [weak self] in self?.stepCheck(check, for: waiter) }
            return
        }
        waiters.removeAll { $0 === waiter }
        answer(waiter, check.report.json)
        flushAll()
    }

    /// Rescans the plugins folder (new and changed files load, deleted ones unload) and reports the events.
    /// `daemon.reload` and SIGHUP call this; returns what changed.
    @discardableResult
    public func reloadPlugins(force: Bool = false) -> JSONValue {
        let events = plugins.rescan(force: force)
        for event in events { emitDaemonEvent(event) }
        flushAll()
        return Daemon.summary(of: events)
    }

    /// Applies a batch from the watcher (on the event loop).
    public func pluginFilesChanged(_ batch: PluginWatcher.Batch) {
        var events: [PluginEvent] = []
        if batch.rescan {
            events = plugins.rescan()
        } else {
            events = plugins.filesChanged(batch.paths)
        }
        for event in events { emitDaemonEvent(event) }
        flushAll()
    }

    /// Starts watching the plugins folder with inotify; batches hop onto the loop through `post`. A folder that
    /// cannot be watched is logged and hot reload is off (SIGHUP and plugins.reload still rescan).
    public func startWatchingPlugins(post: @escaping @Sendable (@escaping @Sendable () -> Void) -> Void) {
        stopWatchingPlugins()
        let ref = WeakDaemon(daemon: self)
        let watcher = PluginWatcher(directory: config.pluginsDir) { batch in
            post { ref.daemon?.pluginFilesChanged(batch) }
        }
        // A folder that is not there has been reported already (reportPluginsFolder).
        if watcher == nil, FileSystem.isDirectory(config.pluginsDir) {
            logger.warning("cannot watch the plugins folder with inotify: hot reload is off", metadata: ["plugins.dir": "\(config.pluginsDir)"])
        }
        pluginWatcherBox.watcher = watcher
    }

    public func stopWatchingPlugins() {
        pluginWatcherBox.watcher?.stop()
        pluginWatcherBox.watcher = nil
    }

    static func summary(of events: [PluginEvent]) -> JSONValue {
        func names(_ type: String) -> JSONValue { .array(events.filter { $0.type == type }.map { .string($0.name) }) }
        let failed: [JSONValue] = events.filter { $0.type == "plugin.failed" }.map {
            .object(JSONObject([("name", .string($0.name)), ("file", .string($0.file)), ("error", .string($0.message ?? ""))]))
        }
        let warnings: [JSONValue] = events.filter { $0.type == "plugin.warning" }.map { .string($0.message ?? "") }
        return .object(JSONObject([
            ("loaded", names("plugin.loaded")), ("unloaded", names("plugin.unloaded")), ("failed", .array(failed)),
            ("warnings", .array(warnings)),
        ]))
    }
}

/// Holds the daemon's watcher (a stored property the Daemon class keeps, so this file owns its type).
final class PluginWatcherBox {
    var watcher: PluginWatcher?
    deinit { watcher?.stop() }
}

/// The server's scheduler (thread-safe: `SocketLoop.scheduleFromAnyThread`), callable from the watcher's thread.
struct UncheckedScheduler: @unchecked Sendable {
    let schedule: (Int64, @escaping () -> Void) -> Void
}

/// The watcher's way back to the daemon, without keeping it alive.
struct WeakDaemon: @unchecked Sendable {
    weak var daemon: Daemon?
}
