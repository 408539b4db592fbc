#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import CEventLoop

/// The listening socket systemd passed (socket activation, `sd_listen_fds` without libsystemd): `LISTEN_PID` is this
/// process and `LISTEN_FDS` ≥ 1, so descriptor 3 is the socket unit's `ListenStream=`. The unit owns the path and
/// its mode: segued neither binds nor removes it.
public struct ActivatedSocket: Sendable {
    /// Descriptor 3, made non-blocking and close-on-exec.
    public let fd: Int32
    /// The path it is bound to (from `getsockname`), for the log and `daemon.info`.
    public let path: String
    /// Descriptors passed beyond the first, which segued does not use.
    public let extra: Int

    /// The first descriptor systemd passes.
    static let firstDescriptor: Int32 = 3

    /// Takes the passed socket if there is one (nil when `LISTEN_PID`/`LISTEN_FDS` do not say so), and unsets the
    /// variables so nothing started later believes they are meant for it. Refuses a descriptor that is not a
    /// listening Unix stream socket.
    public static func take() throws(ServerError) -> ActivatedSocket? {
        let pid = getenv("LISTEN_PID").map { String(cString: $0) }
        let fds = getenv("LISTEN_FDS").map { String(cString: $0) }
        unsetenv("LISTEN_PID")
        unsetenv("LISTEN_FDS")
        unsetenv("LISTEN_FDNAMES")
        guard let pid, Int32(pid) == getpid() else { return nil }
        guard let fds, let count = Int(fds), count >= 1 else {
            throw ServerError(message: "LISTEN_FDS=\(fds ?? "") names no socket (socket activation needs 1)")
        }
        let fd = firstDescriptor
        try check(fd)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
        return ActivatedSocket(fd: fd, path: boundPath(fd) ?? "(fd 3)", extra: count - 1)
    }

    /// A Unix stream socket, listening: what `ListenStream=` with a path gives.
    static func check(_ fd: Int32) throws(ServerError) {
        var st = stat()
        guard fstat(fd, &st) == 0, st.st_mode & S_IFMT == S_IFSOCK else {
            throw ServerError(message: "socket activation: descriptor \(fd) is not a socket")
        }
        func option(_ name: Int32) -> Int32? {
            var value: Int32 = 0
            var size = socklen_t(MemoryLayout<Int32>.size)
            return getsockopt(fd, SOL_SOCKET, name, &value, &size) == 0 ? value : nil
        }
        guard option(SO_DOMAIN) == AF_UNIX else {
            throw ServerError(
                message: "socket activation: descriptor \(fd) is not a Unix socket (use ListenStream=/path)")
        }
        guard option(SO_TYPE) == Int32(SOCK_STREAM.rawValue) else {
            throw ServerError(message: "socket activation: descriptor \(fd) is not a stream socket (use ListenStream=)")
        }
        guard option(SO_ACCEPTCONN) == 1 else {
            throw ServerError(message: "socket activation: descriptor \(fd) is not listening (Accept=no is needed)")
        }
    }

    /// The path a Unix socket is bound to; nil for an unnamed or abstract one.
    static func boundPath(_ fd: Int32) -> String? {
        var address = sockaddr_un()
        var size = socklen_t(MemoryLayout<sockaddr_un>.size)
        let got = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &size) }
        }
        guard got == 0 else { return nil }
        let path = withUnsafeBytes(of: address.sun_path) { raw in
            Array(raw.prefix { $0 != 0 })
        }
        guard !path.isEmpty else { return nil }
        return String(decoding: path, as: UTF8.self)
    }
}
