import SegueLua
import Logging
import SegueJSON

/// `daemon.reload` and SIGHUP: read the config file again, put the flags back on top, apply what can change while
/// the daemon runs, and rescan the plugins folder.
///
/// A reload applies whole or not at all: a file that cannot be read, or has an unknown key or a bad value, is
/// reported (the request's error, a log line for SIGHUP) and the config in force stays as it was, plugins included.
///
/// When each key takes effect:
/// - `daemon.log_level`, `daemon.log_format`: at once, for every log line after the reload.
/// - `daemon.spin_us`, `daemon.stall_timeout_ms`: at once.
/// - `limits.max_connections`, `limits.max_scenes`, `limits.max_subscriptions`, `security.allowed_uids`: at once,
///   checked at the next connect, `scene.create` or `events.subscribe`; nothing already there is closed or removed.
/// - `limits.max_line_bytes`: for connections made after the reload.
/// - `engine.*` and `limits.max_views_per_scene`: for scenes created after the reload (a scene keeps the config it
///   was made with, so a running test never changes under it).
/// - `lua.*`: for Lua states created after the reload (a plugin's state is made on its first use in a scene, and
///   the rescan reloads the plugins with the new limits).
/// - `daemon.socket`, `plugins.dir`: only at start-up. A reload that changes them keeps the old values, logs a
///   warning and lists them under `restart_required`.
extension Daemon {
    /// What a reload did.
    struct ReloadOutcome {
        var file: String?
        var changed: [String] = []
        var restartRequired: [String] = []
        var plugins: [PluginEventSummary] = []

        struct PluginEventSummary {
            let kind: PluginEvent.Kind
            let name: String
        }

        var json: JSONValue {
            var loaded = 0, failed = 0
            for event in plugins {
                switch event.kind {
                case .loaded: loaded += 1
                case .failed: failed += 1
                case .unloaded, .warning: break
                }
            }
            return .object(JSONObject([
                ("reloaded", true), ("file", file.map { .string($0) } ?? .null),
                ("changed", .array(changed.map { .string($0) })),
                ("restart_required", .array(restartRequired.map { .string($0) })),
                ("plugins", .object(JSONObject([("loaded", .number(Double(loaded))), ("failed", .number(Double(failed)))]))),
            ]))
        }
    }

    /// Reads the config again and applies it; on a bad file nothing changes and the error names the key and file.
    func reload() throws(RPCError) -> ReloadOutcome {
        confinement.check()
        let file = config.file
        var next: DaemonConfig
        do throws(DaemonConfig.Problem) {
            next = try DaemonConfig.resolve(file: file, overrides: overrides)
        } catch {
            lastReloadError = error.message
            logger.error("config not reloaded; the old config stays in force: \(error.message)",
                         metadata: ["config.file": "\(error.file ?? file ?? "")", "config.key": "\(error.key ?? "")",
                                   "config.line": "\(error.line.map(String.init) ?? "")"])
            let data = JSONObject([
                ("kind", "invalid_state"), ("file", (error.file ?? file).map { .string($0) } ?? .null),
                ("line", error.line.map { .number(Double($0)) } ?? .null), ("key", error.key.map { .string($0) } ?? .null),
            ])
            throw RPCError(code: -32002, message: "config not reloaded (the old config stays in force): \(error.message)",
                           data: data)
        }
        next.file = file
        var outcome = ReloadOutcome(file: file)
        // Keys that need a restart keep their running values.
        if socketActivated {
            next.socketPath = config.socketPath
        } else if next.socketPath != config.socketPath {
            outcome.restartRequired.append("daemon.socket")
            next.socketPath = config.socketPath
        }
        if next.pluginsDir != config.pluginsDir {
            outcome.restartRequired.append("plugins.dir")
            next.pluginsDir = config.pluginsDir
        }
        if next.systemPluginsDirs != config.systemPluginsDirs {
            outcome.restartRequired.append("plugins.system_dirs")
            next.systemPluginsDirs = config.systemPluginsDirs
        }
        let before = Dictionary(config.keyValues.map { ($0.key, $0.value) }, uniquingKeysWith: { a, _ in a })
        outcome.changed = next.keyValues.filter { before[$0.key] != $0.value }.map(\.key)

        config = next
        reloads += 1
        lastReloadError = nil
        plugins.settings = next.lua
        logControl?.set(level: Logger.Level(rawValue: next.logLevel) ?? .info, json: next.logFormat == "json")
        onConfigApplied?()
        if !outcome.restartRequired.isEmpty {
            logger.warning("config keys that only apply at start-up were changed; restart segued for them",
                           metadata: ["config.keys": "\(outcome.restartRequired.joined(separator: ","))"])
        }
        logger.info("config reloaded", metadata: Daemon.metadata([
            "config.file": file ?? "(none: defaults and flags)",
            "config.changed": outcome.changed.joined(separator: ","),
        ]))
        pluginService.reportFolder(config.pluginsDir)
        outcome.plugins = pluginService.loadAll().map { .init(kind: $0.kind, name: $0.name) }
        return outcome
    }

    /// SIGHUP: the same as `daemon.reload`, reported in the log.
    public func reloadFromSignal() {
        logger.info("SIGHUP: reloading the config and rescanning plugins")
        _ = try? reload()
    }
}

extension Daemon {
    /// `daemon.info`'s `config`: the file, how many reloads applied, and why the last one was refused (if it was).
    var configInfo: JSONValue {
        .object(JSONObject([
            ("file", config.file.map { .string($0) } ?? .null), ("reloads", .number(Double(reloads))),
            ("last_reload_error", lastReloadError.map { .string($0) } ?? .null),
        ]))
    }
}
