#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueLua

/// `sd_notify` without libsystemd: datagrams to the socket named by `NOTIFY_SOCKET` (a path, or `@name` for the
/// abstract namespace), as a `Type=notify` service sends them. `READY=1` once the plugins are loaded and the socket
/// serves, `RELOADING=1` … `READY=1` around a SIGHUP reload, `STOPPING=1` at shutdown, `WATCHDOG=1` from the event
/// loop when `WatchdogSec=` is set. Without `NOTIFY_SOCKET` there is no notifier and nothing is sent.
public final class SystemdNotifier: @unchecked Sendable {
    private let fd: Int32
    private let address: sockaddr_un
    private let length: socklen_t
    /// Where the datagrams go, as `NOTIFY_SOCKET` gave it.
    public let socketName: String

    /// A notifier for `NOTIFY_SOCKET` (nil when unset, empty, or neither an absolute path nor `@name`).
    public init?(socketName: String) {
        let bytes = Array(socketName.utf8)
        guard let first = bytes.first, first == UInt8(ascii: "/") || first == UInt8(ascii: "@") else { return nil }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let capacity = MemoryLayout.size(ofValue: address.sun_path)
        guard bytes.count < capacity else { return nil }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
            // The abstract namespace: a leading NUL, and the name is exactly the bytes given (no terminator).
            if first == UInt8(ascii: "@") { raw[0] = 0 }
        }
        let pathOffset = MemoryLayout<sockaddr_un>.offset(of: \.sun_path) ?? 2
        let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { return nil }
        self.fd = fd
        self.address = address
        self.length = socklen_t(pathOffset + bytes.count + (first == UInt8(ascii: "@") ? 0 : 1))
        self.socketName = socketName
    }

    deinit { close(fd) }

    /// The notifier of this process's environment (`NOTIFY_SOCKET`), if any.
    public static func fromEnvironment() -> SystemdNotifier? {
        guard let value = getenv("NOTIFY_SOCKET") else { return nil }
        return SystemdNotifier(socketName: String(cString: value))
    }

    /// Sends one notification (`READY=1`, or several `KEY=VALUE` lines). False when the datagram could not be sent
    /// (the service manager is gone): a notification is advice, never a reason to stop.
    @discardableResult
    public func send(_ state: String) -> Bool {
        let bytes = Array(state.utf8)
        let sent = withUnsafePointer(to: address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { target in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), target, length) }
            }
        }
        return sent == bytes.count
    }

    /// `RELOADING=1` with the `MONOTONIC_USEC` systemd 253 asks for (older versions ignore it).
    public static var reloadingMessage: String {
        "RELOADING=1\nMONOTONIC_USEC=\(FileSystem.monotonicNanoseconds() / 1000)"
    }

    /// How often to send `WATCHDOG=1`: half of `WATCHDOG_USEC` (as sd_watchdog_enabled advises), in nanoseconds;
    /// nil when the watchdog is off or meant for another process (`WATCHDOG_PID`).
    public static func watchdogInterval(usec: String?, pid: String?, ownPID: Int32 = getpid()) -> Int64? {
        guard let usec, let value = Int64(usec), value > 0, value < Int64.max / 1000 else { return nil }
        if let pid, Int32(pid) != ownPID { return nil }
        return value * 1000 / 2
    }

    /// `watchdogInterval` for this process's environment.
    public static var environmentWatchdogInterval: Int64? {
        watchdogInterval(usec: getenv("WATCHDOG_USEC").map { String(cString: $0) },
                         pid: getenv("WATCHDOG_PID").map { String(cString: $0) })
    }
}
