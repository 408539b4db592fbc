#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where segued looks when no flag and no config key says: the XDG base directories, as mpv and Neovim use them.
///
/// - config file: `$XDG_CONFIG_HOME/segued/segued.toml`, else `~/.config/segued/segued.toml`
/// - plugins: `$XDG_CONFIG_HOME/segued/plugins`, else `~/.config/segued/plugins` (like mpv's `scripts/`)
/// - socket: `$XDG_RUNTIME_DIR/segued.sock`, else `/tmp/segued-$UID.sock`
///
/// As the XDG specification says, a relative `XDG_CONFIG_HOME` or `XDG_RUNTIME_DIR` is ignored.
public struct XDGPaths: Sendable, Equatable {
    /// `$HOME`, or the password database's home folder when `HOME` is unset or relative (`/` without either).
    public var home: String
    /// `$XDG_CONFIG_HOME`, or `home/.config`.
    public var configHome: String
    /// `$XDG_RUNTIME_DIR`, when set to an absolute path.
    public var runtimeDirectory: String?
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
    }

    /// The paths of this process's environment.
    public static var current: XDGPaths {
        var environment: [String: String] = [:]
        for key in ["XDG_CONFIG_HOME", "XDG_RUNTIME_DIR", "HOME"] {
            if let value = getenv(key) { environment[key] = String(cString: value) }
        }
        return XDGPaths(environment: environment)
    }

    /// The config file read when `--config` is not given (if it exists).
    public var configFile: String { configHome + "/segued/segued.toml" }
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
