import SegueJSON
import SegueKit
import SegueLua

/// The `plugins.*` handlers and the daemon's hot-reload entry points, over the plugin service.
extension Daemon {
    /// The plugin host (plugins.list, the scenes' animator provider).
    public var plugins: PluginHost { pluginService.host }

    /// `plugins.reload {name?}`: one plugin's file, or a full rescan that reloads every file.
    func pluginsReload(_ p: Params) throws(RPCError) -> JSONValue {
        let name = try p.string("name")
        try p.finish()
        if let name {
            guard let events = pluginService.reload(named: name) else {
                throw .notFound("plugin", name, param: "name")
            }
            return PluginService.summary(of: events)
        }
        return PluginService.summary(of: pluginService.rescan(force: true))
    }

    /// `plugins.check {name, size?, presentation?, delegate?}`. On the event loop the check runs one case per
    /// turn (`startCheck`) and the answer comes when all are done; without a loop (tests) it runs at once.
    func pluginsCheck(_ p: Params) throws(RPCError) -> JSONValue {
        let name = try p.requiredID("name")
        let size = try p.size("size") ?? Size(w: 320, h: 480)
        let presentation = try p.id("presentation")
        let delegate = try p.id("delegate")
        let strict = try p.bool("strict") ?? false
        let animator = try p.id("animator")
        try p.finish()
        let check: PluginCheck
        do throws(EngineError) {
            check = try plugins.makeCheck(name: name, size: size, presentation: presentation, delegate: delegate,
                                          strict: strict, animator: animator)
        } catch {
            throw RPCError(error)
        }
        guard scheduleAfter != nil else {
            while !check.isFinished { check.step() }
            return check.report.json
        }
        try dispatcher.owed.checkRoom("plugins.check")
        dispatcher.deferred = .check(check)
        return .null
    }

    /// Registers the answer a check owes (a waiter, so a batch and a half-closed connection wait for it) and
    /// schedules its first case.
    func startCheck(_ check: PluginCheck, connection: ClientConnection, id: RequestID) -> Waiter {
        let waiter = dispatcher.owed.add(scene: "", transition: "", connection: connection, id: id)
        scheduleAfter?(0) { [weak self] in self?.stepCheck(check, for: waiter) }
        return waiter
    }

    /// Runs the check's next case, then schedules the one after (other requests are served in between), or
    /// answers when it was the last. A check whose connection went away (its waiter dropped) stops here.
    func stepCheck(_ check: PluginCheck, for waiter: Waiter) {
        confinement.check()
        guard dispatcher.owed.contains(waiter) else { return }
        check.step()
        guard check.isFinished else {
            scheduleAfter?(0) { [weak self] in self?.stepCheck(check, for: waiter) }
            return
        }
        dispatcher.owed.remove(waiter)
        dispatcher.owed.answer(waiter, check.report.json)
    }

    /// Rescans the plugins folder (new and changed files load, deleted ones unload) and reports the events.
    @discardableResult
    public func reloadPlugins(force: Bool = false) -> JSONValue {
        PluginService.summary(of: pluginService.rescan(force: force))
    }

    /// Applies a batch from the watcher (on the event loop).
    func pluginFilesChanged(_ batch: PluginWatcher.Batch) {
        pluginService.filesChanged(batch)
    }

    /// Starts watching the plugins folders with inotify on the server's event loop (the descriptor is in its epoll
    /// set; batches are delivered there). Without a loop (in-process tests) nothing is watched.
    func startWatchingPlugins() {
        pluginService.startWatching { [weak self] batch in self?.pluginFilesChanged(batch) }
    }

    public func stopWatchingPlugins() {
        pluginService.stopWatching()
    }
}
