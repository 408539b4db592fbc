#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the plugin host needs, over POSIX (no Foundation in this module).
package enum FileSystem {
    /// The names of the entries of a directory, sorted; nil when it cannot be read.
    package static func list(_ path: String) -> [String]? {
        guard let dir = opendir(path) else { return nil }
        defer { closedir(dir) }
        var names: [String] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// The contents of a regular file, at most `limit` bytes; nil when it cannot be read or is larger.
    package static func read(_ path: String, limit: Int = 4 << 20) -> String? {
        guard let file = fopen(path, "rb") else { return nil }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = fread(&buffer, 1, buffer.count, file)
            if n > 0 { bytes.append(contentsOf: buffer[0..<n]) }
            if bytes.count > limit { return nil }
            if n < buffer.count { break }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The permission bits, or nil when the path cannot be stat'ed.
    package static func mode(_ path: String) -> UInt32? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return UInt32(st.st_mode)
    }

    package static func isRegularFile(_ path: String) -> Bool {
        guard let mode = mode(path) else { return false }
        return mode & UInt32(S_IFMT) == UInt32(S_IFREG)
    }

    package static func isDirectory(_ path: String) -> Bool {
        guard let mode = mode(path) else { return false }
        return mode & UInt32(S_IFMT) == UInt32(S_IFDIR)
    }

    /// Monotonic nanoseconds.
    package static func monotonicNanoseconds() -> Int64 {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Int64(ts.tv_sec) * 1_000_000_000 + Int64(ts.tv_nsec)
    }

    /// Wall-clock seconds since the epoch.
    package static func wallSeconds() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_REALTIME, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }
}
