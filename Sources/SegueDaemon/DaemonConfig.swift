#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueKit
import SegueLua
import TOMLKit

/// Everything `segued` can be configured with (config/segued.toml, flags on top), each with its default.
public struct DaemonConfig: Sendable {
    /// `[daemon] socket`: default `$XDG_RUNTIME_DIR/segued.sock`, else `/tmp/segued-$UID.sock`.
    public var socketPath: String = DaemonConfig.defaultSocketPath
    /// `[daemon] log_level` (info).
    public var logLevel: String = "info"
    /// `[daemon] log_format`: text or json (text).
    public var logFormat: String = "text"
    /// `[daemon] spin_us`: the window of the event loop's adaptive spin — after serving a request it polls for the
    /// next one for up to this long before it sleeps, but only while requests have been arriving within the window
    /// (`SpinGauge`). 0 (the default) never polls: measured against Redis, a one-connection client's turnaround is
    /// longer than any window that pays, so spinning bought speed with CPU per request (README, "Performance").
    public var spinMicroseconds = 0
    /// `[daemon] stall_timeout_ms`: when the event loop has not come back for this long, the stall detector names
    /// what it was running and ends the process with status 70, for a supervisor to restart it (10000).
    public var stallTimeoutMs = 10_000
    /// `[plugins] dir`: default `$XDG_CONFIG_HOME/segued/plugins`, else `~/.config/segued/plugins`. In a file, a
    /// relative path is relative to the file's folder.
    public var pluginsDir: String = XDGPaths.current.pluginsDirectory
    /// `[plugins] system_dirs`: the system plugins folders read after `pluginsDir`, most important first; a plugin
    /// file of the same name in an earlier folder wins. Default `$dir/segued/plugins` for each `XDG_DATA_DIRS` entry
    /// (`/usr/local/share/segued/plugins`, `/usr/share/segued/plugins`); `[]` reads the user's folder only.
    public var systemPluginsDirs: [String] = XDGPaths.current.systemPluginsDirectories
    public var engine = EngineConfig()
    public var lua = LuaSettings()
    public var limits = Limits()
    /// `[security] allowed_uids`: peers allowed to connect (default: the daemon's own uid).
    public var allowedUIDs: [UInt32] = [getuid()]
    /// The file the config was read from, if any.
    public var file: String?

    /// `[limits]`.
    public struct Limits: Sendable {
        public var maxLineBytes = 1 << 20
        public var maxConnections = 256
        public var maxScenes = 1024
        public var maxSubscriptions = 16
        public init() {}
    }

    public init() {}

    public static var defaultSocketPath: String { XDGPaths.current.socketPath }

    /// Every folder plugins are read from, most important first: `pluginsDir`, then `systemPluginsDirs` (the same
    /// folder twice is read once). `daemon.info`'s `plugins_dirs`.
    public var pluginsDirs: [String] {
        var dirs = [pluginsDir]
        for dir in systemPluginsDirs where !dirs.contains(dir) { dirs.append(dir) }
        return dirs
    }

    /// Why a config file was refused: names the file, the line and the key.
    public struct Problem: Error, CustomStringConvertible {
        public private(set) var message: String
        /// The key at fault (`engine.fps`), or the section for an unknown section; nil when the file is unreadable
        /// or a syntax error is outside any key's value.
        public var key: String?
        /// The file that was read.
        public var file: String?
        /// The line (1-based) of the file at fault; nil when the file is unreadable.
        public var line: Int?
        public var description: String { message }

        public init(message: String, key: String? = nil, file: String? = nil, line: Int? = nil) {
            self.message = message
            self.key = key
            self.file = file
            self.line = line
        }

        /// With the line of its key (or section) in `lines`, and that line in the message (`file:line: …`).
        func placed(in lines: ConfigLines) -> Problem {
            guard line == nil, let key, let file, let found = lines.line(of: key) else { return self }
            var placed = self
            placed.line = found
            if message.hasPrefix("\(file): ") {
                placed.message = "\(file):\(found): " + message.dropFirst(file.count + 2)
            }
            return placed
        }
    }

    /// Reads a TOML config file over the defaults. Unknown sections or keys and values of the wrong type or out of
    /// range are refused, naming the key and the file. Relative paths in it (`daemon.socket`, `plugins.dir`) are
    /// relative to the file's folder, not to the working directory (which is `/` under systemd); `~/` is the home.
    public static func load(file given: String) throws(Problem) -> DaemonConfig {
        let file = DaemonConfig.absolutePath(given)
        var config = DaemonConfig()
        config.file = file
        guard let text = FileSystem.read(file, limit: 1 << 20) else { throw Problem(message: "\(file): cannot read the config file", file: file) }
        let lines = ConfigLines(text)
        let table: TOMLTable
        do {
            table = try TOMLTable(string: text)
        } catch let error as TOMLParseError {
            // TOMLKit names the place, not the key: the key is the one whose value holds that place (a value too
            // big for 64 bits, a bad escape), none for an error outside any value (a broken header or key).
            let line = Int(error.source.begin.line)
            let key = lines.key(at: line, column: Int(error.source.begin.column))
            let named = key.map { "'\($0)': " } ?? ""
            throw Problem(message: "\(file):\(line): \(named)\(error.description)", key: key, file: file, line: line)
        } catch {
            throw Problem(message: "\(file): \(error)", file: file)
        }
        do throws(Problem) {
            try config.apply(table, file: file)
            try config.resolvePaths(relativeTo: DaemonConfig.folder(of: file), file: file)
        } catch {
            throw error.placed(in: lines)
        }
        return config
    }

    mutating func apply(_ root: TOMLTable, file: String) throws(Problem) {
        let known: [String: [String]] = [
            "daemon": ["socket", "log_level", "log_format", "spin_us", "stall_timeout_ms"],
            "plugins": ["dir", "system_dirs"],
            "engine": ["fps", "watchdog_factor", "watchdog_grace_ms", "max_duration_s", "timeline_retention",
                       "timeline_retention_bytes", "modal_default_style"],
            "lua": ["memory_limit_mb", "instruction_budget", "call_timeout_ms"],
            "limits": ["max_line_bytes", "max_connections", "max_scenes", "max_views_per_scene", "max_subscriptions"],
            "security": ["allowed_uids"],
        ]
        for section in root.keys {
            guard let keys = known[section] else {
                throw Problem(message: "\(file): unknown section [\(section)] (known: \(known.keys.sorted().joined(separator: ", ")))",
                              key: section, file: file)
            }
            guard let table = root[section]?.table else {
                throw Problem(message: "\(file): '\(section)' must be a section ([\(section)])", key: section, file: file)
            }
            for key in table.keys where !keys.contains(key) {
                throw Problem(message: "\(file): unknown key '\(section).\(key)' (known in [\(section)]: \(keys.joined(separator: ", ")))",
                              key: "\(section).\(key)", file: file)
            }
            for key in table.keys {
                guard let value = table[key] else { continue }
                try set(section: section, key: key, value: value, file: file)
            }
        }
    }

    private mutating func set(section: String, key: String, value: any TOMLValueConvertible, file: String)
        throws(Problem)
    {
        let name = "\(section).\(key)"
        func bad(_ expected: String) -> Problem {
            Problem(message: "\(file): '\(name)' must be \(expected)", key: name, file: file)
        }
        func string() throws(Problem) -> String {
            guard let s = value.string else { throw bad("a string") }
            return s
        }
        func int(_ range: ClosedRange<Int>) throws(Problem) -> Int {
            guard let i = value.int, range.contains(i) else { throw bad("an integer in \(range.lowerBound)...\(range.upperBound)") }
            return i
        }
        func double(_ range: ClosedRange<Double>) throws(Problem) -> Double {
            guard let d = value.double ?? value.int.map(Double.init), range.contains(d) else {
                throw bad("a number in \(range.lowerBound)...\(range.upperBound)")
            }
            return d
        }
        switch name {
        case "daemon.socket":
            let s = try string()
            guard !s.isEmpty else { throw bad("a path (it is empty)") }
            guard s.utf8.count < 108 else { throw bad("a path shorter than 108 bytes") }
            socketPath = s
        case "daemon.log_level":
            let s = try string()
            guard DaemonConfig.logLevels.contains(s) else { throw bad("one of \(DaemonConfig.logLevels.joined(separator: ", "))") }
            logLevel = s
        case "daemon.log_format":
            let s = try string()
            guard s == "text" || s == "json" else { throw bad("\"text\" or \"json\"") }
            logFormat = s
        case "daemon.spin_us": spinMicroseconds = try int(0...10_000)
        case "daemon.stall_timeout_ms": stallTimeoutMs = try int(100...3_600_000)
        case "plugins.dir": pluginsDir = try string()
        case "plugins.system_dirs":
            guard let array = value.array, array.count <= 16 else { throw bad("an array of at most 16 folders") }
            var dirs: [String] = []
            for element in array {
                guard let dir = element.string, !dir.isEmpty else { throw bad("an array of folder paths") }
                dirs.append(dir)
            }
            systemPluginsDirs = dirs
        case "engine.fps": engine.fps = try int(1...1000)
        case "engine.watchdog_factor": engine.watchdogFactor = try double(1...1000)
        case "engine.watchdog_grace_ms": engine.watchdogGraceMs = try int(0...3_600_000)
        case "engine.max_duration_s": engine.maxDurationS = try double(0.001...3600)
        case "engine.timeline_retention": engine.timelineRetention = try int(0...100_000)
        case "engine.timeline_retention_bytes": engine.timelineRetentionBytes = try int(0...(1 << 40))
        case "engine.modal_default_style":
            guard let text = value.string, text == "fullScreen" || text == "automatic",
                let style = PresentationStyle(rawValue: text)
            else { throw bad("\"fullScreen\" or \"automatic\"") }
            engine.modalDefaultStyle = style
        case "lua.memory_limit_mb": lua.memoryLimitBytes = try int(1...4096) << 20
        case "lua.instruction_budget": lua.instructionBudget = try int(1000...2_000_000_000)
        case "lua.call_timeout_ms": lua.callTimeoutMs = try int(1...60_000)
        case "limits.max_line_bytes": limits.maxLineBytes = try int(256...(1 << 30))
        case "limits.max_connections": limits.maxConnections = try int(1...100_000)
        case "limits.max_scenes": limits.maxScenes = try int(1...1_000_000)
        case "limits.max_views_per_scene": engine.maxViewsPerScene = try int(1...10_000_000)
        case "limits.max_subscriptions": limits.maxSubscriptions = try int(1...10_000)
        case "security.allowed_uids":
            guard let array = value.array else { throw bad("an array of uids") }
            var uids: [UInt32] = []
            for element in array {
                guard let uid = element.int, uid >= 0, uid <= Int(UInt32.max) else { throw bad("an array of uids") }
                uids.append(UInt32(uid))
            }
            allowedUIDs = uids
        default:
            throw Problem(message: "\(file): unknown key '\(name)'", key: name, file: file)
        }
    }

    public static let logLevels = ["trace", "debug", "info", "notice", "warning", "error", "critical"]
}
