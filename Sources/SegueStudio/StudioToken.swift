#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The studio's secret: 128 random bits from /dev/urandom as 32 hex digits. Every request must carry it
/// (`?token=`), so another local user who finds the port cannot use the page.
public enum StudioToken {
    /// A new token, or nil when /dev/urandom cannot be read (the studio then refuses to start).
    public static func make() -> String? {
        let fd = open("/dev/urandom", O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes = [UInt8](repeating: 0, count: 16)
        var filled = 0
        while filled < bytes.count {
            let n = bytes[filled...].withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return nil }
            filled += n
        }
        let digits = Array("0123456789abcdef")
        return String(bytes.flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 15)]] })
    }

    /// Compares in time that does not depend on where the strings differ.
    public static func matches(_ given: String, _ token: String) -> Bool {
        let a = Array(given.utf8), b = Array(token.utf8)
        guard a.count == b.count else { return false }
        var difference: UInt8 = 0
        for i in a.indices { difference |= a[i] ^ b[i] }
        return difference == 0
    }
}
