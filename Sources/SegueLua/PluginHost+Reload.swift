#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Hot reload: rescanning the folder, reloading and unloading files. Every change lands on the thread that owns
/// the host (the daemon's event loop); the file watcher only tells it which names changed.
extension PluginHost {
    /// Why a plugins folder itself is refused (writable by other users, or owned by someone other than segued's
    /// user or root), or nil.
    func folderProblem(of folder: String) -> String? {
        FileSystem.status(folder).flatMap { folderProblem($0, folder: folder) }
    }

    /// Why a folder with this `stat` is refused, or nil.
    func folderProblem(_ st: stat, folder: String) -> String? {
        if st.st_uid != geteuid() && st.st_uid != 0 {
            return "refused: the plugins folder \(folder) is owned by uid \(st.st_uid), not by segued's user "
                + "(uid \(geteuid())) or root"
        }
        if st.st_mode & 0o002 != 0 {
            return "refused: the plugins folder \(folder) is writable by other users (chmod o-w)"
        }
        return nil
    }

    /// The folder a plugin path is in.
    static func folder(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The place of a path's folder among `directories` (0: the user's), or nil for a path in none of them.
    func rank(of path: String) -> Int? { directories.firstIndex(of: PluginHost.folder(of: shownPath(path))) }

    private func shownPath(_ path: String) -> String { PluginHost.shownPath(path) }

    /// Whether `path`'s folder is more important than `other`'s (an earlier entry of `directories`).
    func outranks(_ path: String, _ other: String) -> Bool {
        guard let a = rank(of: path), let b = rank(of: other) else { return false }
        return a < b
    }

    /// The same file name in every folder, most important first (just `path` when it is in none of them, or when
    /// there are no system folders).
    private func candidates(_ path: String) -> [String] {
        guard !systemDirectories.isEmpty, undecodable[path] == nil, rank(of: path) != nil else { return [path] }
        let name = PluginHost.fileName(path)
        return directories.map { $0 + "/" + name }
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
    ///
    /// The folders are read most important first: a file name already seen in an earlier folder is shadowed (not
    /// loaded, unloaded if it was). A system folder that is not there is skipped without a word.
    @discardableResult
    public func rescan(force: Bool = false) -> [PluginEvent] {
        var events: [PluginEvent] = []
        var present: [String] = []
        var undecodableNow: [String: [UInt8]] = [:]
        var seen: Set<[UInt8]> = []
        for (rank, dir) in directories.enumerated() {
            // The folder's rules and its listing come from one descriptor.
            guard let (folder, names) = FileSystem.readDirectory(dir) else {
                let reason = String(cString: strerror(errno))
                // A folder that is not there, or no folder, is the daemon's warning to give (naming the path, once).
                guard let st = FileSystem.status(dir), st.st_mode & S_IFMT == S_IFDIR else { continue }
                events.append(PluginEvent(.failed, name: "", file: dir,
                                          message: "cannot read the plugins folder \(dir): \(reason)"))
                if rank == 0 { return events }
                continue
            }
            if let problem = folderProblem(folder, folder: dir) {
                events.append(PluginEvent(.warning, name: "", file: dir, message: problem))
                if rank == 0 { return events }
                continue
            }
            for name in names where PluginHost.isPluginFileName(bytes: name) && !seen.contains(name) {
                if let text = FileSystem.validText(name) {
                    present.append(dir + "/" + text)
                } else {
                    let path = PluginHost.undecodableKey(dir + "/" + FileSystem.displayText(name))
                    undecodableNow[path] = Array(dir.utf8) + [UInt8(ascii: "/")] + name
                    present.append(path)
                }
            }
            seen.formUnion(names)
        }
        // Unload first, so a file renamed within the folder finds its plugin names free.
        let known = Set(files.keys).union(failed.keys)
        for path in known.sorted() where !present.contains(path) {
            events.append(contentsOf: unload(file: path))
            // A system folder's file that is still there was shadowed, not deleted: it is not listed as unloaded.
            if rank(of: path) ?? 0 > 0 && exists(path) { unloaded[path] = nil }
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
    ///
    /// With system folders, a changed name is looked up in every folder: the most important file of that name is
    /// the one loaded, and the others unload (a user's copy shadows the system's; deleting it brings the system's
    /// back).
    public func filesChanged(_ changed: [String]) -> [PluginEvent] {
        var events: [PluginEvent] = []
        var paths: [String] = []
        var shadowed: [String] = []
        for path in changed {
            let candidates = candidates(path)
            let winner = candidates.count > 1 ? candidates.first(where: exists) : nil
            for other in candidates where other != winner && candidates.count > 1 && isKnown(other) {
                if !shadowed.contains(other) { shadowed.append(other) }
            }
            let look = winner.map { $0 == path || !isKnown($0) ? $0 : nil } ?? (candidates.count > 1 ? nil : path)
            if let look, !paths.contains(look) { paths.append(look) }
        }
        for path in shadowed {
            events.append(contentsOf: unload(file: path))
            // Shadowed, not deleted: it is not listed as unloaded.
            if exists(path) { unloaded[path] = nil }
        }
        let gone = paths.filter { !exists($0) }
        for path in gone { events.append(contentsOf: unload(file: path)) }
        for path in paths where !gone.contains(path) {
            events.append(contentsOf: fileChanged(path))
            onFileDone?()
        }
        return events
    }

    /// Whether the host has loaded a file at this path, or tried to.
    private func isKnown(_ path: String) -> Bool { files[path] != nil || failed[path] != nil }

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
