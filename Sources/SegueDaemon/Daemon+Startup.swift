#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the log says at start-up (and on a reload) about where things were found.
extension Daemon {
    /// Logs the plugins folder in use; one that does not exist (or is not a folder) is a warning naming it, since
    /// the daemon then serves with no Lua animators at all.
    func reportPluginsFolder() {
        let dir = config.pluginsDir
        var st = stat()
        if stat(dir, &st) != 0 {
            logger.warning("""
                the plugins folder \(dir) does not exist: no Lua animators are loaded (create it, or point \
                plugins.dir or --plugins at one)
                """,
                           metadata: ["plugins.dir": "\(dir)"])
        } else if st.st_mode & S_IFMT != S_IFDIR {
            logger.warning("the plugins folder \(dir) is not a folder: no Lua animators are loaded",
                           metadata: ["plugins.dir": "\(dir)"])
        } else {
            logger.info("plugins from \(dir)", metadata: ["plugins.dir": "\(dir)"])
        }
    }
}
