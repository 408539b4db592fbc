/// The command-line flags that override the config file (`--socket`, `--plugins`, `--log-level`, `--log-format`).
/// Kept by the daemon so that a reload reads the file again and puts the flags back on top.
public struct ConfigOverrides: Sendable, Equatable {
    public var socketPath: String?
    public var pluginsDir: String?
    public var logLevel: String?
    public var logFormat: String?

    public init(socketPath: String? = nil, pluginsDir: String? = nil, logLevel: String? = nil, logFormat: String? = nil) {
        self.socketPath = socketPath
        self.pluginsDir = pluginsDir
        self.logLevel = logLevel
        self.logFormat = logFormat
    }

    /// Why a flag was refused: the message names the flag.
    public func validate() throws(DaemonConfig.Problem) {
        if let logLevel, !DaemonConfig.logLevels.contains(logLevel) {
            throw DaemonConfig.Problem(
                message: "--log-level must be one of \(DaemonConfig.logLevels.joined(separator: ", "))", key: "--log-level")
        }
        if let logFormat, logFormat != "text", logFormat != "json" {
            throw DaemonConfig.Problem(message: "--log-format must be text or json", key: "--log-format")
        }
        if socketPath?.isEmpty == true {
            throw DaemonConfig.Problem(message: "--socket must be a path, not empty", key: "--socket")
        }
        if let socketPath, socketPath.utf8.count >= 108 {
            throw DaemonConfig.Problem(message: "--socket must be a path shorter than 108 bytes", key: "--socket")
        }
    }

    /// Puts the flags over a config read from the file (or the defaults).
    public func apply(to config: inout DaemonConfig) {
        if let socketPath { config.socketPath = socketPath }
        if let pluginsDir { config.pluginsDir = pluginsDir }
        if let logLevel { config.logLevel = logLevel }
        if let logFormat { config.logFormat = logFormat }
    }
}

extension DaemonConfig {
    /// Reads `file` (or takes the defaults when nil) and puts `overrides` on top: what start-up and every reload do.
    public static func resolve(file: String?, overrides: ConfigOverrides) throws(Problem) -> DaemonConfig {
        try overrides.validate()
        var config = DaemonConfig()
        if let file { config = try DaemonConfig.load(file: file) }
        overrides.apply(to: &config)
        return config
    }

    /// Keys that only take effect at start-up: a reload that changes them leaves them as they were (and says so).
    public static let restartOnlyKeys: Set<String> = ["daemon.socket", "plugins.dir", "plugins.system_dirs"]

    /// Every key with its value as text, in file order (for a reload to tell what changed).
    public var keyValues: [(key: String, value: String)] {
        [
            ("daemon.socket", socketPath), ("daemon.log_level", logLevel), ("daemon.log_format", logFormat),
            ("daemon.spin_us", "\(spinMicroseconds)"), ("daemon.stall_timeout_ms", "\(stallTimeoutMs)"),
            ("plugins.dir", pluginsDir), ("plugins.system_dirs", systemPluginsDirs.joined(separator: ":")),
            ("engine.fps", "\(engine.fps)"), ("engine.watchdog_factor", "\(engine.watchdogFactor)"),
            ("engine.watchdog_grace_ms", "\(engine.watchdogGraceMs)"), ("engine.max_duration_s", "\(engine.maxDurationS)"),
            ("engine.timeline_retention", "\(engine.timelineRetention)"),
            ("engine.timeline_retention_bytes", "\(engine.timelineRetentionBytes)"),
            ("engine.modal_default_style", engine.modalDefaultStyle.rawValue),
            ("lua.memory_limit_mb", "\(lua.memoryLimitBytes >> 20)"), ("lua.instruction_budget", "\(lua.instructionBudget)"),
            ("lua.call_timeout_ms", "\(lua.callTimeoutMs)"),
            ("limits.max_line_bytes", "\(limits.maxLineBytes)"), ("limits.max_connections", "\(limits.maxConnections)"),
            ("limits.max_scenes", "\(limits.maxScenes)"), ("limits.max_views_per_scene", "\(engine.maxViewsPerScene)"),
            ("limits.max_subscriptions", "\(limits.maxSubscriptions)"),
            ("security.allowed_uids", allowedUIDs.map(String.init).joined(separator: ",")),
        ]
    }
}
