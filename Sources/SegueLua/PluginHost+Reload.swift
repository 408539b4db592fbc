#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hot reload: rescanning the folder, reloading and unloading files. Every change lands on the thread that owns
/// the host (the daemon's event loop); the file watcher only tells it which names changed.
extension PluginHost {
    /// Why the folder itself is refused (writable by other users, or owned by someone other than segued's user or
    /// root), or nil.
    var folderProblem: String? { FileSystem.status(directory).flatMap(folderProblem) }

    /// Why a folder with this `stat` is refused, or nil.
    func folderProblem(_ st: stat) -> String? {
        if st.st_uid != geteuid() && st.st_uid != 0 {
            return "refused: the plugins folder \(directory) is owned by uid \(st.st_uid), not by segued's user "
                + "(uid \(geteuid())) or root"
        }
        if st.st_mode & 0o002 != 0 {
            return "refused: the plugins folder \(directory) is writable by other users (chmod o-w)"
        }
        return nil
    }

    /// Whether `name` (a file name in the folder) can be a plugin: `*.lua`, not hidden. Editors' swap, backup and
    /// temporary files (`.x.lua.swp`, `x.lua~`, vim's `4913`) are not.
    public static func isPluginFileName(_ name: String) -> Bool {
        isPluginFileName(bytes: Array(name.utf8))
    }

    /// `isPluginFileName` for a name as the bytes the kernel gives (which need not be UTF-8).
    public static func isPluginFileName(bytes name: [UInt8]) -> Bool {
        name.count > 4 && name.suffix(4).elementsEqual(".lua".utf8) && name.first != UInt8(ascii: ".")
            && !name.contains(UInt8(ascii: "/"))
    }

    /// The message for a plugin file whose name is not valid UTF-8.
    static let undecodableNameMessage =
        "the file name is not valid UTF-8 (shown with each invalid byte as \\xHH): rename the file to load it"

    /// The key a file whose name is not valid UTF-8 is recorded under: its shown path (each invalid byte as
    /// `\xHH`) and a NUL, which no file name holds, so a file literally named like that shown path (a valid name
    /// with a backslash, `caf\xE9.lua`) keeps a record of its own. Events and plugins.list show `shownPath(key)`.
    static func undecodableKey(_ shown: String) -> String { shown + "\u{0}" }

    /// The path a record key is shown as: the key itself, or an undecodable name's shown path.
    static func shownPath(_ key: String) -> String { key.hasSuffix("\u{0}") ? String(key.dropLast()) : key }

    /// Rescans the folder: files that are new or whose text changed load (all of them with `force`), files that
    /// are gone unload. A file whose name is not valid UTF-8 is reported failed (listed with each invalid byte as
    /// `\xHH`). Returns the events to report.
    @discardableResult
    public func rescan(force: Bool = false) -> [PluginEvent] {
        // The folder's rules and its listing come from one descriptor.
        guard let (folder, names) = FileSystem.readDirectory(directory) else {
            let reason = String(cString: strerror(errno))
            // A folder that is not there, or no folder, is the daemon's warning to give (naming the path, once).
            guard let st = FileSystem.status(directory), st.st_mode & S_IFMT == S_IFDIR else { return [] }
            return [PluginEvent(.failed, name: "", file: directory,
                                message: "cannot read the plugins folder \(directory): \(reason)")]
        }
        if let problem = folderProblem(folder) {
            return [PluginEvent(.warning, name: "", file: directory, message: problem)]
        }
        var events: [PluginEvent] = []
        var present: [String] = []
        var undecodableNow: [String: [UInt8]] = [:]
        for name in names where PluginHost.isPluginFileName(bytes: name) {
            if let text = FileSystem.validText(name) {
                present.append(directory + "/" + text)
            } else {
                let path = PluginHost.undecodableKey(directory + "/" + FileSystem.displayText(name))
                undecodableNow[path] = Array(directory.utf8) + [UInt8(ascii: "/")] + name
                present.append(path)
            }
        }
        // Unload first, so a file renamed within the folder finds its plugin names free.
        let known = Set(files.keys).union(failed.keys)
        for path in known.sorted() where !present.contains(path) {
            events.append(contentsOf: unload(file: path))
        }
        undecodable = undecodableNow
        for path in present {
            events.append(contentsOf: fileChanged(path, force: force))
            onFileDone?()
        }
        return events
    }

    /// Applies a batch of changed paths: the gone ones unload first (a file renamed within the folder must find
    /// its plugin names free), then the others load in order. Nothing here opens a file: `lstat` only.
    public func filesChanged(_ paths: [String]) -> [PluginEvent] {
        let gone = paths.filter { !exists($0) }
        var events: [PluginEvent] = []
        for path in gone { events.append(contentsOf: unload(file: path)) }
        for path in paths where !gone.contains(path) {
            events.append(contentsOf: fileChanged(path))
            onFileDone?()
        }
        return events
    }

    /// Whether anything (a link included) is at a plugin path.
    private func exists(_ path: String) -> Bool {
        if let bytes = undecodable[path] { return FileSystem.linkStatus(pathBytes: bytes) != nil }
        return FileSystem.linkStatus(path) != nil
    }

    /// A file of the folder changed (or may have): loads it when it exists and its bytes differ from the loaded
    /// version (always with `force`), unloads it when it is gone. The file is opened once, without blocking, and
    /// checked on the opened descriptor (`PluginFile`): what is compared and loaded is what was checked.
    public func fileChanged(_ path: String, force: Bool = false) -> [PluginEvent] {
        if undecodable[path] != nil {
            guard exists(path) else {
                undecodable[path] = nil
                return unload(file: path)
            }
            return failure(path, PluginHost.undecodableNameMessage)
        }
        let read = PluginFile.read(path)
        if case .failure(.gone) = read { return unload(file: path) }
        if !force, let loaded = files[path], failed[path] == nil, case .success(let bytes) = read,
            bytes == loaded.source
        {
            return []
        }
        return load(file: path, read: read)
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
                events.append(PluginEvent(.unloaded, name: record.name, file: path, message: nil))
            }
            unloaded[path] = gone
        }
        if let record = failed.removeValue(forKey: path) {
            events.append(PluginEvent(.unloaded, name: record.name, file: record.file, message: nil))
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
