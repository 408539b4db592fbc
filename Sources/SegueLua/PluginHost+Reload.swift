/// Hot reload: rescanning the folder, reloading and unloading files. Every change lands on the thread that owns
/// the host (the daemon's event loop); the file watcher only tells it which names changed.
extension PluginHost {
    /// Why the folder itself is refused (writable by other users), or nil.
    var folderProblem: String? {
        guard let mode = FileSystem.mode(directory) else { return nil }
        if mode & 0o002 != 0 {
            return "refused: the plugins folder \(directory) is writable by other users (chmod o-w)"
        }
        return nil
    }

    /// Whether `name` (a file name in the folder) can be a plugin: `*.lua`, not hidden. Editors' swap, backup and
    /// temporary files (`.x.lua.swp`, `x.lua~`, vim's `4913`) are not.
    public static func isPluginFileName(_ name: String) -> Bool {
        name.hasSuffix(".lua") && !name.hasPrefix(".") && !name.contains("/") && name.count > 4
    }

    /// Rescans the folder: files that are new or whose text changed load (all of them with `force`), files that
    /// are gone unload. Returns the events to report.
    @discardableResult
    public func rescan(force: Bool = false) -> [PluginEvent] {
        if let problem = folderProblem {
            return [PluginEvent(type: "plugin.warning", name: "", file: directory, message: problem)]
        }
        guard let names = FileSystem.list(directory) else {
            return [PluginEvent(type: "plugin.failed", name: "", file: directory, message: "cannot read the plugins folder")]
        }
        var events: [PluginEvent] = []
        let present = names.filter(PluginHost.isPluginFileName).map { directory + "/" + $0 }
        // Unload first, so a file renamed within the folder finds its plugin names free.
        let known = Set(files.keys).union(failed.keys)
        for path in known.sorted() where !present.contains(path) {
            events.append(contentsOf: unload(file: path))
        }
        for path in present { events.append(contentsOf: fileChanged(path, force: force)) }
        return events
    }

    /// Applies a batch of changed paths: the gone ones unload first (a file renamed within the folder must find
    /// its plugin names free), then the others load in order.
    public func filesChanged(_ paths: [String]) -> [PluginEvent] {
        let gone = paths.filter { FileSystem.mode($0) == nil }
        var events: [PluginEvent] = []
        for path in gone { events.append(contentsOf: unload(file: path)) }
        for path in paths where !gone.contains(path) { events.append(contentsOf: fileChanged(path)) }
        return events
    }

    /// A file of the folder changed (or may have): loads it when it exists and its text differs from the loaded
    /// version (always with `force`), unloads it when it is gone.
    public func fileChanged(_ path: String, force: Bool = false) -> [PluginEvent] {
        guard FileSystem.mode(path) != nil else { return unload(file: path) }
        if !force, let loaded = files[path], failed[path] == nil, FileSystem.mode(path).map({ $0 & 0o002 == 0 }) == true,
            let source = FileSystem.read(path), source == loaded.source
        {
            return []
        }
        return load(file: path)
    }

    /// Unloads the plugins of a file that is gone. Running transitions keep the instance they hold; scenes make
    /// no new state from it.
    @discardableResult
    public func unload(file path: String) -> [PluginEvent] {
        var events: [PluginEvent] = []
        if let old = files.removeValue(forKey: path) {
            var gone: [PluginRecord] = []
            for var record in old.records {
                if byName[record.name] == path { byName[record.name] = nil }
                record.status = "unloaded"
                gone.append(record)
                events.append(PluginEvent(type: "plugin.unloaded", name: record.name, file: path, message: nil))
            }
            unloaded[path] = gone
        }
        if let record = failed.removeValue(forKey: path) {
            events.append(PluginEvent(type: "plugin.unloaded", name: record.name, file: path, message: nil))
        }
        previous[path] = nil
        for key in instances.keys {
            instances[key]?[path] = nil
            instances[key]?[path + PluginHost.previousSuffix] = nil
        }
        return events
    }

    /// `plugins.reload {name}`: reloads the file that defines `name` (loaded or failed); nil when no plugin of
    /// that name is known.
    public func reload(named name: String) -> [PluginEvent]? {
        if let path = byName[name] { return fileChanged(path, force: true) }
        if let path = failed.first(where: { $0.value.name == name })?.key { return fileChanged(path, force: true) }
        if let path = unloaded.first(where: { $0.value.contains { $0.name == name } })?.key {
            return fileChanged(path, force: true)
        }
        return nil
    }

    /// The file path a plugin name comes from (loaded ones only).
    public func file(of name: String) -> String? { byName[name] }
}
