#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Paths in a config file: relative to the file's folder, so the same file works whatever the working directory
/// (`/` under systemd, the checkout for `scripts/start`).
extension DaemonConfig {
    /// The config file read when `--config` is not given: `$XDG_CONFIG_HOME/segued/segued.toml` (else
    /// `~/.config/segued/segued.toml`) if it exists, else the first `$dir/segued/segued.toml` of `XDG_CONFIG_DIRS`
    /// (default `/etc/xdg`) that exists; nil means the built-in defaults. One file is read, never a merge: a user
    /// who writes a config of their own has said everything.
    public static func discoverFile(_ paths: XDGPaths = .current) -> String? {
        paths.configFiles.first { access($0, F_OK) == 0 }
    }

    /// Makes `daemon.socket` and `plugins.dir` absolute: `~/…` from the home folder, a relative path from `folder`.
    mutating func resolvePaths(relativeTo folder: String, file: String) throws(Problem) {
        pluginsDir = DaemonConfig.resolve(pluginsDir, relativeTo: folder)
        systemPluginsDirs = systemPluginsDirs.map { DaemonConfig.resolve($0, relativeTo: folder) }
        socketPath = DaemonConfig.resolve(socketPath, relativeTo: folder)
        guard socketPath.utf8.count < 108 else {
            throw Problem(
                message: "\(file): 'daemon.socket' must be a path shorter than 108 bytes (it is \(socketPath))",
                key: "daemon.socket", file: file)
        }
    }

    /// `path` as an absolute path: unchanged when absolute, from the home folder for `~` and `~/…`, else from
    /// `folder`; `.` and empty components dropped, `..` taken off the folder.
    public static func resolve(_ path: String, relativeTo folder: String) -> String {
        if path.hasPrefix("/") { return normalize(path) }
        if path == "~" || path.hasPrefix("~/") { return normalize(XDGPaths.current.home + path.dropFirst()) }
        return normalize(folder + "/" + path)
    }

    /// The absolute path of a file named on the command line (relative to the working directory).
    static func absolutePath(_ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return path }
        let cwd = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return normalize(cwd + "/" + path)
    }

    /// The directory a path is in ("." for a bare name, "/" for one at the root).
    package static func parentDirectory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// The folder a config file is in, with symbolic links resolved (so `..` in a path inside it means what the
    /// kernel would make of it); the file's own folder as written when it cannot be resolved.
    static func folder(of file: String) -> String {
        let folder = DaemonConfig.parentDirectory(of: file)
        guard let real = realpath(folder, nil) else { return folder }
        defer { free(real) }
        return String(cString: real)
    }

    /// Drops `.` and empty components and applies `..` lexically.
    static func normalize(_ path: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/", omittingEmptySubsequences: true) {
            switch part {
            case ".": continue
            case "..": if !parts.isEmpty { parts.removeLast() }
            default: parts.append(part)
            }
        }
        return "/" + parts.joined(separator: "/")
    }
}
