#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the daemon is when nobody says (the same default as seguectl's).
public enum StudioDefaults {
    public static var socketPath: String {
        if let path = getenv("SEGUED_SOCKET"), path.pointee != 0 { return String(cString: path) }
        if let dir = getenv("XDG_RUNTIME_DIR"), dir.pointee != 0 { return String(cString: dir) + "/segued.sock" }
        return "/tmp/segued-\(getuid()).sock"
    }
}
