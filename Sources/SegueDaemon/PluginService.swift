#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Logging
import SegueJSON
import SegueKit
import SegueLua

/// The plugins folder as the daemon serves it: the `PluginHost` (load, reload, rescan), the folder's events
/// (`plugin.loaded`, `plugin.failed`, …) handed to `publish` as they happen, and the inotify watcher whose batches
/// the loop applies.
///
/// Everything that changes the host runs on the daemon's event loop, the watcher included (its inotify descriptor
/// is in the loop's epoll set); the watcher only says which files changed.
/// The `plugins.*` handlers (Daemon+Plugins.swift) and `daemon.reload` call it.
package final class PluginService {
    let host: PluginHost
    private let logger: Logger
    /// One watcher per folder that could be watched (the user's first).
    private var watchers: [PluginWatcher] = []
    /// The event loop the watcher runs on (the server sets it before the daemon starts; in-process tests have none).
    package weak var loop: (any DaemonLoop)?
    /// Where the folder's events go, in order (the daemon: its log and its subscribers).
    var publish: (PluginEvent) -> Void = { _ in }
    private let confinement: LoopConfinement

    init(directory: String, systemDirectories: [String] = [], settings: LuaSettings, logger: Logger,
         confinement: LoopConfinement) {
        host = PluginHost(directory: directory, systemDirectories: systemDirectories, settings: settings)
        self.logger = logger
        self.confinement = confinement
    }

    deinit { for watcher in watchers { watcher.stop() } }

    /// Loads every file of the folder (start-up, and a config reload); returns the events published.
    func loadAll() -> [PluginEvent] {
        confinement.check()
        return published(host.loadAll())
    }

    /// Reloads one plugin's file; nil when no plugin has that name.
    func reload(named name: String) -> [PluginEvent]? {
        confinement.check()
        return host.reload(named: name).map(published)
    }

    /// Rescans the folder: new and changed files load, deleted ones unload (`force`: every file reloads).
    func rescan(force: Bool = false) -> [PluginEvent] {
        confinement.check()
        return published(host.rescan(force: force))
    }

    /// Applies a batch from the watcher.
    func filesChanged(_ batch: PluginWatcher.Batch) {
        confinement.check()
        _ = published(batch.rescan ? host.rescan() : host.filesChanged(batch.paths))
    }

    private func published(_ events: [PluginEvent]) -> [PluginEvent] {
        for event in events { publish(event) }
        return events
    }

    /// Starts watching every plugins folder with inotify on `loop` (each descriptor in its epoll set, `deliver`
    /// called there); nothing without a loop. The user's folder that cannot be watched is logged and its hot reload
    /// is off (SIGHUP and plugins.reload still rescan); a system folder that is not there is not watched (a reload
    /// looks at it again).
    func startWatching(deliver: @escaping (PluginWatcher.Batch) -> Void) {
        stopWatching()
        guard let loop else { return }
        for (rank, directory) in host.directories.enumerated() {
            if rank > 0 && !FileSystem.isDirectory(directory) { continue }
            let watcher = PluginWatcher(directory: directory, loop: loop, deliver: deliver)
            // A folder that is not there has been reported already (reportFolder).
            if watcher == nil, FileSystem.isDirectory(directory) {
                logger.warning("cannot watch the plugins folder with inotify: hot reload is off",
                               metadata: ["plugins.dir": "\(directory)"])
            }
            if let watcher { watchers.append(watcher) }
        }
    }

    func stopWatching() {
        for watcher in watchers { watcher.stop() }
        watchers.removeAll()
    }

    /// The folders being watched (tests).
    var watchedDirectories: [String] { watchers.map(\.directory) }

    /// Logs the plugins folder in use; one that does not exist (or is not a folder) is a warning naming it, since
    /// the daemon then serves with no Lua animators at all.
    func reportFolder(_ dir: String) {
        guard let st = FileSystem.status(dir) else {
            logger.warning("""
                the plugins folder \(dir) does not exist: no Lua animators are loaded (create it, or point \
                plugins.dir or --plugins at one)
                """,
                           metadata: ["plugins.dir": "\(dir)"])
            return
        }
        if st.st_mode & S_IFMT != S_IFDIR {
            logger.warning("the plugins folder \(dir) is not a folder: no Lua animators are loaded",
                           metadata: ["plugins.dir": "\(dir)"])
        } else {
            logger.info("plugins from \(dir)", metadata: ["plugins.dir": "\(dir)"])
        }
        for system in host.systemDirectories where FileSystem.isDirectory(system) {
            logger.info("system plugins from \(system) (a plugin of the same name in \(dir) wins)",
                        metadata: ["plugins.dir": "\(system)"])
        }
    }

    /// What a reload or rescan did, as `plugins.reload` answers it.
    static func summary(of events: [PluginEvent]) -> JSONValue {
        func names(_ kind: PluginEvent.Kind) -> JSONValue { .array(events.filter { $0.kind == kind }.map { .string($0.name) }) }
        let failed: [JSONValue] = events.filter { $0.kind == .failed }.map {
            .object(JSONObject([
                ("name", .string($0.name)), ("file", .string($0.file)), ("error", .string($0.message ?? "")),
            ]))
        }
        let warnings: [JSONValue] = events.filter { $0.kind == .warning }.map { .string($0.message ?? "") }
        return .object(JSONObject([
            ("loaded", names(.loaded)), ("unloaded", names(.unloaded)), ("failed", .array(failed)),
            ("warnings", .array(warnings)),
        ]))
    }
}

extension PluginService {
    /// The bytes `scene`'s Lua states hold (`PluginHost.stateBytes`).
    package func luaStateBytes(of scene: Scene) -> Int { host.stateBytes(of: scene) }
    /// What `scene`'s Lua states cost in memory, their arenas counted whole (`PluginHost.stateFootprint`).
    package func luaStateFootprint(of scene: Scene) -> Int { host.stateFootprint(of: scene) }
}
