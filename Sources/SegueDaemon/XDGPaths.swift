#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where segued looks when no flag and no config key says: the XDG base directories, as mpv and Neovim use them.
///
/// - config file: `$XDG_CONFIG_HOME/segued/segued.toml`, else `~/.config/segued/segued.toml`; when the user has
///   none, the first `$dir/segued/segued.toml` that exists for each `dir` of `$XDG_CONFIG_DIRS` (default
///   `/etc/xdg`): the system-wide config
/// - plugins: `$XDG_CONFIG_HOME/segued/plugins`, else `~/.config/segued/plugins` (like mpv's `scripts/`), then the
///   system folders `$dir/segued/plugins` for each `dir` of `$XDG_DATA_DIRS` (default `/usr/local/share:/usr/share`),
///   in that order of precedence
/// - socket: `$XDG_RUNTIME_DIR/segued.sock`, else `/tmp/segued-$UID.sock`
///
/// As the XDG specification says, a relative `XDG_CONFIG_HOME` or `XDG_RUNTIME_DIR` is ignored, and so is a relative
/// entry of `XDG_CONFIG_DIRS` or `XDG_DATA_DIRS`; an unset or empty list is its default.
public struct XDGPaths: Sendable, Equatable {
    /// `$HOME`, or the password database's home folder when `HOME` is unset or relative (`/` without either).
    public var home: String
    /// `$XDG_CONFIG_HOME`, or `home/.config`.
    public var configHome: String
    /// `$XDG_RUNTIME_DIR`, when set to an absolute path.
    public var runtimeDirectory: String?
    /// `$XDG_CONFIG_DIRS` (absolute entries, most important first), or `["/etc/xdg"]`.
    public var configDirectories: [String]
    /// `$XDG_DATA_DIRS` (absolute entries, most important first), or `["/usr/local/share", "/usr/share"]`.
    public var dataDirectories: [String]
    public var uid: UInt32

    /// The paths for an environment (tests pass their own; `current` reads the process's).
    public init(environment: [String: String], uid: UInt32 = getuid()) {
        self.uid = uid
        func absolute(_ key: String) -> String? {
            guard let value = environment[key], value.hasPrefix("/") else { return nil }
            return value
        }
        home = absolute("HOME") ?? XDGPaths.passwordHome(uid) ?? "/"
        configHome = absolute("XDG_CONFIG_HOME") ?? (home == "/" ? "" : home) + "/.config"
        runtimeDirectory = absolute("XDG_RUNTIME_DIR")
        func list(_ key: String, _ fallback: [String]) -> [String] {
            var seen: [String] = []
            for entry in (environment[key] ?? "").split(separator: ":") where entry.hasPrefix("/") {
                // A trailing slash would make `$dir//segued` and a second spelling of the same folder.
                var dir = String(entry)
                while dir.count > 1 && dir.hasSuffix("/") { dir.removeLast() }
                if !seen.contains(dir) { seen.append(dir) }
            }
            return seen.isEmpty ? fallback : seen
        }
        configDirectories = list("XDG_CONFIG_DIRS", ["/etc/xdg"])
        dataDirectories = list("XDG_DATA_DIRS", ["/usr/local/share", "/usr/share"])
    }

    /// The paths of this process's environment.
    public static var current: XDGPaths {
        var environment: [String: String] = [:]
        for key in ["XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "XDG_CONFIG_DIRS", "XDG_DATA_DIRS", "HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return XDGPaths(environment: environment)
    }

    /// The user's config file, read when `--config` is not given (if it exists).
    public var configFile: String { configHome + "/segued/segued.toml" }
    /// The system-wide config files, most important first (`$dir/segued/segued.toml` for each `XDG_CONFIG_DIRS`
    /// entry): the first that exists is read when the user has no config file.
    public var systemConfigFiles: [String] { configDirectories.map { $0 + "/segued/segued.toml" } }
    /// Every config file looked for, in order: the user's, then the system-wide ones.
    public var configFiles: [String] { [configFile] + systemConfigFiles }
    /// The system plugins folders, most important first (`$dir/segued/plugins` for each `XDG_DATA_DIRS` entry):
    /// read after the user's folder, which wins for a plugin of the same name.
    public var systemPluginsDirectories: [String] { dataDirectories.map { $0 + "/segued/plugins" } }
    /// The plugins folder when neither `--plugins` nor `plugins.dir` says.
    public var pluginsDirectory: String { configHome + "/segued/plugins" }
    /// The socket when neither `--socket` nor `daemon.socket` says.
    public var socketPath: String {
        if let runtimeDirectory { return runtimeDirectory + "/segued.sock" }
        return "/tmp/segued-\(uid).sock"
    }

    private static func passwordHome(_ uid: UInt32) -> String? {
        guard let entry = getpwuid(uid), let dir = entry.pointee.pw_dir else { return nil }
        let home = String(cString: dir)
        return home.hasPrefix("/") ? home : nil
    }
}
