import CLuaShim
import SegueKit

/// Lua settings (config `[lua]`), each with its documented default.
public struct LuaSettings: Sendable, Equatable {
    /// Memory cap per plugin state (16 MiB).
    public var memoryLimitBytes: Int = 16 << 20
    /// Instructions per call from the engine: the deterministic limit (5 000 000).
    public var instructionBudget: Int = 5_000_000
    /// Wall-clock backstop per call (100 ms).
    public var callTimeoutMs: Int = 100

    public init() {}
}

/// One line of `plugins.list` (the daemon writes it: `PluginRecord+JSON.swift`).
public struct PluginRecord: Sendable {
    public var name: String
    /// Nil for a file that failed before it said (`"unknown"` in plugins.list).
    public var kind: PluginKind?
    public var version: String?
    public var api: Int
    public var file: String
    public var status: String
    public var error: String?
    public var loadedAt: Double
    public var loadMs: Double
    public var memoryBytes: Int
    public var calls: Int
    public var failures: Int
    /// The load generation of its file: 1 for the first successful load, one more for each later one (a save that
    /// loads). Unlike `version`, which the plugin declares, it changes with every edit that loads.
    public var generation: Int = 0
    /// An animator's declared `kinds` (the cases it is written for), nil when it declares none.
    public var kinds: [String]?
}

/// A daemon-wide plugin event (`plugin.loaded`, `plugin.failed`, …); the daemon publishes it
/// (`PluginEvent+Payload.swift`).
public struct PluginEvent: Sendable {
    /// What happened to the plugin; the raw value is the protocol's event type.
    public enum Kind: String, Sendable, CaseIterable {
        case loaded = "plugin.loaded"
        case unloaded = "plugin.unloaded"
        case failed = "plugin.failed"
        case warning = "plugin.warning"
    }

    public let kind: Kind
    public let name: String
    public let file: String
    public let message: String?

    /// For a warning: the line of `file` it is about, when known, and what kind of mistake it is.
    public let line: Int?
    public let code: PluginWarning.Code?

    public init(_ kind: Kind, name: String, file: String, message: String?, line: Int? = nil,
                code: PluginWarning.Code? = nil) {
        self.kind = kind
        self.name = name
        self.file = file
        self.message = message
        self.line = line
        self.code = code
    }

    /// The protocol's event type (`plugin.loaded`, …).
    public var type: String { kind.rawValue }

}

/// Loads the plugins folder, answers `plugins.list`, and hands each scene its own Lua state per plugin file.
public final class PluginHost: AnimatorProvider {
    public static let apiVersion = 1

    /// The user's plugins folder: the most important one, and the one whose absence is worth a warning.
    public let directory: String
    /// The system plugins folders (`XDG_DATA_DIRS`' `segued/plugins`), most important first, read after `directory`.
    /// A plugin file whose name is in a more important folder is not loaded (the user's copy wins), and a plugin
    /// name one of these folders defines gives way to the same name from a more important folder.
    public let systemDirectories: [String]
    /// Every folder, most important first.
    public var directories: [String] { [directory] + systemDirectories }
    public var settings: LuaSettings
    /// Called after each file a rescan or a batch of changes looked at. Each file's loading is bounded (its parse
    /// and its top level by the wall-clock backstop), a folder of them is not: the daemon counts each file as a turn
    /// of its loop here, so loading a hundred slow files at start-up is not taken for a stalled loop.
    public var onFileDone: (() -> Void)?

    struct LoadedFile {
        let file: String
        /// The file's bytes as they were on disk when it loaded (what Lua ran, and what a change is compared with).
        let source: [UInt8]
        var records: [PluginRecord]
        /// Animators' optional `kinds` (what they are written for; plugins.check runs those cases only).
        var animatorKinds: [String: [String]] = [:]
        /// The version before the loaded one (`NAME@previous`): its scenes' states are kept apart.
        var isPrevious = false

        /// The key of this version's Lua states in `instances`.
        var instanceKey: String { isPrevious ? file + PluginHost.previousSuffix : file }
    }

    var files: [String: LoadedFile] = [:] {  // by file path
        didSet { resolutions.removeAll() }
    }
    var byName: [String: String] = [:] {  // plugin name -> file path
        didSet { resolutions.removeAll() }
    }
    var failed: [String: PluginRecord] = [:]  // by file path
    /// Plugins whose file was deleted (`status: "unloaded"` in plugins.list until a file of that path loads).
    var unloaded: [String: [PluginRecord]] = [:]  // by file path
    var instances: [ObjectIdentifier: [String: PluginInstance]] = [:] {
        didSet { resolutions.removeAll() }
    }
    /// Successful loads so far, by file path (the `generation` of plugins.list); never goes down.
    var generations: [String: Int] = [:]
    /// The last good version before the loaded one, by file path (`NAME@previous`).
    var previous: [String: LoadedFile] = [:] {
        didSet { resolutions.removeAll() }
    }
    /// The last few successful answers of `described` (a select names its animator on every request). What they
    /// follow from — `files`, `byName`, `previous`, `instances` — empties the list whenever it changes (a load, a
    /// reload, an unload, a new or forgotten scene state), and an instance's descriptions are fixed when it loads, so
    /// a kept answer is the one the full lookup would give. Errors are never kept.
    var resolutions: [Resolution] = []
    static let keptResolutions = 8
    /// Plugin files whose name is not valid UTF-8: the path they are listed under (each invalid byte as `\xHH`) and
    /// the name's bytes. They are reported failed, never loaded.
    var undecodable: [String: [UInt8]] = [:]

    public init(directory: String, systemDirectories: [String] = [], settings: LuaSettings = LuaSettings()) {
        self.directory = directory
        self.systemDirectories = systemDirectories.filter { $0 != directory }
        self.settings = settings
    }

    /// The Lua library's version string (e.g. "Lua 5.4.4").
    public static var luaVersion: String {
        let release = segue_lua_release()
        return "Lua \(release / 10000).\(release / 100 % 100).\(release % 100)"
    }

    /// Every plugin, loaded or failed, sorted by name.
    public var records: [PluginRecord] {
        var all: [PluginRecord] = []
        for file in files.values {
            for var record in file.records {
                let counts = callCounts(file: file.file)
                record.calls = counts.calls
                record.failures = counts.failures
                all.append(record)
            }
        }
        all.append(contentsOf: failed.values)
        for records in unloaded.values { all.append(contentsOf: records) }
        return all.sorted { ($0.name, $0.file) < ($1.name, $1.file) }
    }

    private func callCounts(file: String) -> (calls: Int, failures: Int) {
        var calls = 0, failures = 0
        for perScene in instances.values {
            if let instance = perScene[file] {
                calls += instance.calls
                failures += instance.failures
            }
        }
        return (calls, failures)
    }

    public func record(named name: String) -> PluginRecord? { records.first { $0.name == name } }

    /// Loads every `*.lua` file of the folder (in name order), and on later calls rescans it: new and changed files
    /// load, deleted ones unload, unchanged ones are left alone (SIGHUP and `daemon.reload` call this).
    /// Returns the events to report.
    @discardableResult
    public func loadAll() -> [PluginEvent] { rescan(force: false) }

    /// Loads (or reloads) one file. A broken new version leaves a working one loaded.
    public func load(file path: String) -> [PluginEvent] { load(file: path, read: PluginFile.read(path)) }

    /// Records that a file failed to load (or its new version did: the working one stays) and says so.
    func failure(_ path: String, _ message: String) -> [PluginEvent] {
        let shown = PluginHost.shownPath(path)
        let base = PluginHost.baseName(shown)
        if files[path] == nil {
            failed[path] = PluginRecord(
                name: base, kind: nil, version: nil, api: PluginHost.apiVersion, file: shown, status: "failed",
                error: message, loadedAt: FileSystem.wallSeconds(), loadMs: 0, memoryBytes: 0, calls: 0, failures: 0)
            unloaded[path] = nil
        } else if var loaded = files[path] {
            // The working version stays loaded; plugins.list says why the new one was refused.
            for i in loaded.records.indices { loaded.records[i].error = "the new version failed to load: \(message)" }
            files[path] = loaded
        }
        return [PluginEvent(.failed, name: base, file: shown, message: message)]
    }

    /// Loads one file from what reading it gave (`PluginFile.read`: the bytes, or why there are none).
    func load(file path: String, read: Result<[UInt8], FileProblem>) -> [PluginEvent] {
        let base = PluginHost.baseName(path)
        let started = FileSystem.monotonicNanoseconds()
        func fail(_ message: String) -> [PluginEvent] { failure(path, message) }
        if let folderProblem = folderProblem(of: PluginHost.folder(of: path)) { return fail(folderProblem) }
        let source: [UInt8]
        switch read {
        case .success(let bytes): source = bytes
        case .failure(.gone): return fail("cannot read the file: it does not exist")
        case .failure(.refused(let message)): return fail(message)
        }
        let probe: PluginInstance
        do {
            probe = try PluginInstance(
                bytes: source, file: path, chunkName: "@" + PluginHost.fileName(path), scene: nil,
                memoryLimit: settings.memoryLimitBytes, instructionBudget: settings.instructionBudget,
                callTimeoutMs: settings.callTimeoutMs)
        } catch {
            return fail(error.message)
        }
        let loadMs = Double(FileSystem.monotonicNanoseconds() - started) / 1e6
        var records: [PluginRecord] = []
        var kindsByName: [String: [String]] = [:]
        for (i, described) in probe.described.enumerated() {
            let name = described.name ?? (probe.described.count == 1 ? base : "\(base)-\(i + 1)")
            probe.pushField(described.ref, "api")
            let apiValue = probe.state.number(at: -1) ?? Double(PluginHost.apiVersion)
            let api = apiValue.isFinite && abs(apiValue) < 1e9 ? Int(apiValue.rounded(.up)) : Int.max
            probe.state.pop()
            if api > PluginHost.apiVersion {
                return fail("plugin '\(name)' is written for plugin API \(apiValue == apiValue.rounded() && abs(apiValue) < 1e15 ? String(Int64(apiValue)) : String(apiValue)); this daemon supports API \(PluginHost.apiVersion)")
            }
            if let owner = byName[name], owner != path, !outranks(path, owner) {
                return fail("duplicate plugin name '\(name)': already defined by \(PluginHost.fileName(owner))")
            }
            if records.contains(where: { $0.name == name }) { return fail("duplicate plugin name '\(name)' in one file") }
            if let problem = checkShape(probe, described, name: name) { return fail(problem) }
            switch PluginHost.declaredKinds(probe, described) {
            case .failure(let problem): return fail("animator '\(name)': \(problem.message)")
            case .success(let kinds?): kindsByName[name] = kinds
            case .success(nil): break
            }
            probe.pushField(described.ref, "version")
            let version = probe.state.string(at: -1)
            probe.state.pop()
            records.append(PluginRecord(
                name: name, kind: described.kind, version: version, api: api, file: path, status: "loaded", error: nil,
                loadedAt: FileSystem.wallSeconds(), loadMs: loadMs, memoryBytes: probe.state.memoryUsed, calls: 0,
                failures: 0))
        }
        // A system folder's file that defined one of these names gives way (the user's folder wins by name); a
        // rescan brings it back once the name is free.
        var shadowEvents: [PluginEvent] = []
        for record in records {
            if let owner = byName[record.name], owner != path, outranks(path, owner) {
                shadowEvents.append(contentsOf: unload(file: owner))
                unloaded[owner] = nil
            }
        }
        // Swap atomically: names of the old version go, the new ones come; the old version stays runnable as
        // `NAME@previous`.
        if let old = files[path] {
            for record in old.records where byName[record.name] == path { byName[record.name] = nil }
            var kept = old
            kept.isPrevious = true
            previous[path] = kept
        }
        let generation = (generations[path] ?? 0) + 1
        generations[path] = generation
        for i in records.indices {
            records[i].generation = generation
            records[i].kinds = kindsByName[records[i].name]
        }
        for record in records { byName[record.name] = path }
        files[path] = LoadedFile(file: path, source: source, records: records, animatorKinds: kindsByName)
        failed[path] = nil
        unloaded[path] = nil
        // A name that loads again (from this or another file) is no longer listed as unloaded.
        for (other, gone) in unloaded {
            let kept = gone.filter { old in !records.contains { $0.name == old.name } }
            unloaded[other] = kept.isEmpty ? nil : kept
        }
        // Scenes make a fresh state from the new source on next use; running transitions keep their instance.
        for key in instances.keys {
            instances[key]?[path] = nil
            instances[key]?[path + PluginHost.previousSuffix] = nil
        }
        // Fields a description's kind does not have: warnings with the nearest field, the plugin loads.
        let warnings = probe.describeWarnings.map { PluginEvent(.warning, name: base, file: path, message: $0) }
            + zip(probe.described, records).flatMap { described, record in
                probe.descriptionWarnings(described).map {
                    PluginEvent(.warning, name: record.name, file: path, message: $0, code: .unknownName)
                }
            }
        return shadowEvents
            + records.map { PluginEvent(.loaded, name: $0.name, file: path, message: nil) } + warnings
    }

    /// Checks that a description has the functions its kind needs.
    private func checkShape(_ probe: PluginInstance, _ described: PluginInstance.Described, name: String) -> String? {
        switch described.kind {
        case .delegate:
            defer { probe.state.pop() }
            guard probe.pushField(described.ref, "animator_for") == LUA_TFUNCTION else {
                return "delegate '\(name)' has no animator_for(op) function"
            }
            return nil
        case .presentation:
            defer { probe.state.pop() }
            guard probe.pushField(described.ref, "frame_of_presented_view") == LUA_TFUNCTION else {
                return "presentation '\(name)' has no frame_of_presented_view(pc) function"
            }
            return nil
        case .interaction:
            // A fully custom interaction (start(ctx), issue 27) needs no gesture functions.
            let custom = probe.pushField(described.ref, "start") == LUA_TFUNCTION
            probe.state.pop()
            if custom { return nil }
            for key in ["changed", "ended"] {
                defer { probe.state.pop() }
                guard probe.pushField(described.ref, key) == LUA_TFUNCTION else {
                    return "interaction '\(name)' has no \(key)(tr, g) function"
                }
            }
            return nil
        case .animator:
            break
        }
        let interruptible = probe.pushField(described.ref, "interruptible_animator") == LUA_TFUNCTION
        probe.state.pop()
        if interruptible { return nil }
        defer { probe.state.pop() }
        guard probe.pushField(described.ref, "animate") == LUA_TFUNCTION else {
            return "animator '\(name)' has no animate(ctx) function (nor interruptible_animator(ctx))"
        }
        return nil
    }

    static func fileName(_ path: String) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? path
    }

    static func baseName(_ path: String) -> String {
        let file = fileName(path)
        return file.hasSuffix(".lua") ? String(file.dropLast(4)) : file
    }

    // MARK: AnimatorProvider

    /// The plugin `name` of `kind` in its state for `scene`: nil when no plugin has that name; a plugin of another
    /// kind is -32602 naming `param` (`what` is the kind in words, for the message).
    func described(_ name: String, kind: PluginKind, what: String, param: String, for scene: Scene)
        throws(EngineError) -> (PluginInstance, Int32)?
    {
        let sceneKey = ObjectIdentifier(scene)
        let requested = name
        for kept in resolutions where kept.scene == sceneKey && kept.name == name && kept.kind == kind {
            return (kept.instance, kept.ref)
        }
        guard let found = try loadedFile(for: name, param: param) else { return nil }
        let (file, name) = found
        guard let record = file.records.first(where: { $0.name == name }) else { return nil }
        let path = file.file
        guard record.kind == kind else {
            throw EngineError(.invalidParams, "plugin '\(name)' is \(PluginHost.withArticle(record.kind)), not \(what)", param: param)
        }
        let instance = try instance(for: file, scene: scene)
        guard let described = instance.described.first(where: { ($0.name ?? PluginHost.baseName(path)) == name })
            ?? (instance.described.count == 1 ? instance.described.first : nil)
        else {
            throw EngineError(.pluginError, "plugin '\(name)' did not describe itself the same way twice")
        }
        if resolutions.count >= PluginHost.keptResolutions { resolutions.removeFirst() }
        resolutions.append(Resolution(scene: sceneKey, name: requested, kind: kind, instance: instance, ref: described.ref))
        return (instance, described.ref)
    }

    public func animator(named name: String, for scene: Scene) throws(EngineError) -> (any Animator)? {
        guard let (instance, ref) = try described(name, kind: .animator, what: "an animator", param: "animator", for: scene)
        else { return nil }
        return LuaAnimator(name: name, instance: instance, ref: ref)
    }

    /// An interaction plugin (`segue.interaction{}`) in its state for this scene.
    public func interaction(named name: String, for scene: Scene) throws(EngineError) -> (any InteractionController)? {
        guard let (instance, ref) = try described(
            name, kind: .interaction, what: "an interaction plugin", param: "interactive", for: scene)
        else { return nil }
        return LuaInteraction(name: name, instance: instance, ref: ref)
    }

    /// A presentation plugin (`segue.presentation{}`) in its state for this scene.
    public func presentation(named name: String, for scene: Scene) throws(EngineError) -> (any PresentationController)? {
        guard let (instance, ref) = try described(
            name, kind: .presentation, what: "a presentation plugin", param: "presentation", for: scene)
        else { return nil }
        return LuaPresentation(name: name, instance: instance, ref: ref)
    }

    /// A delegate plugin's `interaction_for(op, animator)` (nil when it has none).
    public func delegateInteraction(_ delegate: String, operation: TransitionOperation, animator: String, for scene: Scene)
        -> Result<String?, AnimatorFault>
    {
        guard let path = byName[delegate], let file = files[path],
            file.records.contains(where: { $0.name == delegate && $0.kind == .delegate })
        else { return .success(nil) }
        let instance: PluginInstance
        do {
            instance = try self.instance(for: file, scene: scene)
        } catch {
            return .failure(AnimatorFault(error.message))
        }
        guard let described = instance.described.first(where: { ($0.name ?? PluginHost.baseName(path)) == delegate })
        else { return .success(nil) }
        return instance.callDelegate(described.ref, operation, function: "interaction_for", animator: animator)
    }

    /// Whether a loaded plugin has this name and kind.
    public func hasPlugin(named name: String, kind: PluginKind) -> Bool {
        guard let path = byName[name], let file = files[path] else { return false }
        return file.records.contains { $0.name == name && $0.kind == kind }
    }

    /// A delegate plugin's `animator_for(op)`, in the plugin's state for this scene.
    public func delegateAnimator(_ delegate: String, operation: TransitionOperation, for scene: Scene)
        -> Result<String?, AnimatorFault>
    {
        guard let path = byName[delegate], let file = files[path],
            let record = file.records.first(where: { $0.name == delegate })
        else { return .failure(AnimatorFault("no delegate plugin named '\(delegate)' is loaded")) }
        guard record.kind == .delegate else {
            return .failure(AnimatorFault("plugin '\(delegate)' is \(PluginHost.withArticle(record.kind)), not a delegate"))
        }
        let instance: PluginInstance
        do {
            instance = try self.instance(for: file, scene: scene)
        } catch {
            return .failure(AnimatorFault(error.message))
        }
        guard let described = instance.described.first(where: { ($0.name ?? PluginHost.baseName(path)) == delegate })
        else { return .failure(AnimatorFault("plugin '\(delegate)' did not describe itself the same way twice")) }
        return instance.callDelegate(described.ref, operation)
    }

    /// A record's kind with its article, for messages ("an animator"; "an unknown plugin" when it never said).
    static func withArticle(_ kind: PluginKind?) -> String { kind?.withArticle ?? "an unknown plugin" }

    func instance(for file: LoadedFile, scene: Scene) throws(EngineError) -> PluginInstance {
        let key = ObjectIdentifier(scene)
        if let existing = instances[key]?[file.instanceKey] { return existing }
        let instance: PluginInstance
        do {
            instance = try PluginInstance(
                bytes: file.source, file: file.file, chunkName: "@" + PluginHost.fileName(file.file), scene: scene,
                memoryLimit: settings.memoryLimitBytes, instructionBudget: settings.instructionBudget,
                callTimeoutMs: settings.callTimeoutMs)
        } catch {
            throw EngineError(.pluginError, "plugin file \(PluginHost.fileName(file.file)) failed to load: \(error.message)")
        }
        // Warnings and log lines name a plugin plugins.list lists: the file's only plugin (a file `bounce.lua` that
        // defines `bounce-port` said `bounce`); a state shared by several plugins names its file.
        let plugin = file.records.count == 1 ? file.records[0].name : PluginHost.baseName(file.file)
        // The scene's anchor, not `[weak scene]`: see `Anchor`.
        instance.onLog = { [anchor = scene.anchor] message in
            anchor.object?.emit(.log(level: "info", plugin: plugin, message: message))
        }
        instance.onWarning = { [anchor = scene.anchor] warning in anchor.object?.warn(plugin, warning) }
        instances[key, default: [:]][file.instanceKey] = instance
        return instance
    }

    /// Drops a scene's plugin states (scene.destroy).
    public func forget(scene: Scene) {
        instances[ObjectIdentifier(scene)] = nil
    }
}
