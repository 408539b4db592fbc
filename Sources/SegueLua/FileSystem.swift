#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The few file operations the plugin host needs, over POSIX (no Foundation in this module).
package enum FileSystem {
    /// The names of the entries of a directory, sorted; nil when it cannot be read. A name that is not valid UTF-8
    /// comes back with each invalid byte as `\xHH` (see `entryNames` for the bytes themselves).
    package static func list(_ path: String) -> [String]? {
        entryNames(path)?.map { displayText($0) }.sorted()
    }

    /// The names of the entries of a directory as the bytes the kernel gave (a name need not be UTF-8), in byte
    /// order; nil when it cannot be read.
    package static func entryNames(_ path: String) -> [[UInt8]]? { readDirectory(path)?.names }

    /// A directory's `fstat` and entry names (as `entryNames` gives them), both from one descriptor: what is
    /// checked is what is listed, whatever replaces the path meanwhile. Nil when it cannot be opened as a directory
    /// (`O_DIRECTORY`: a FIFO at the path is refused, never waited on).
    package static func readDirectory(_ path: String) -> (status: stat, names: [[UInt8]])? {
        let fd = open(path, O_RDONLY | O_DIRECTORY | O_NONBLOCK | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        var st = stat()
        guard fstat(fd, &st) == 0, let dir = fdopendir(fd) else {
            close(fd)
            return nil
        }
        defer { closedir(dir) }  // closes fd
        var names: [[UInt8]] = []
        while let entry = readdir(dir) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        return (st, names.sorted { $0.lexicographicallyPrecedes($1) })
    }

    /// Text as UTF-8 when it is, else nil.
    package static func validText(_ bytes: some Collection<UInt8>) -> String? {
        String(validating: bytes, as: UTF8.self)
    }

    /// Bytes shown as text: valid UTF-8 as it is, each byte that is not part of a valid UTF-8 sequence as `\xHH`
    /// (so a file name or a message that holds one stays readable, and valid JSON once written).
    package static func displayText(_ bytes: some Collection<UInt8>) -> String {
        let bytes = Array(bytes)
        if let text = String(validating: bytes, as: UTF8.self) { return text }
        var out = ""
        var i = 0
        while i < bytes.count {
            let length = validSequenceLength(bytes, at: i)
            if length > 0 {
                out += String(decoding: bytes[i..<(i + length)], as: UTF8.self)
                i += length
            } else {
                let hex = String(bytes[i], radix: 16, uppercase: true)
                out += "\\x" + (hex.count == 1 ? "0" + hex : hex)
                i += 1
            }
        }
        return out
    }

    /// The length of the valid UTF-8 sequence that starts at `i` (RFC 3629: no overlongs, no surrogates, at most
    /// U+10FFFF), or 0 when the byte there does not start one.
    private static func validSequenceLength(_ b: [UInt8], at i: Int) -> Int {
        let first = b[i]
        func continuation(_ k: Int, _ range: ClosedRange<UInt8> = 0x80...0xBF) -> Bool {
            i + k < b.count && range.contains(b[i + k])
        }
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return continuation(1) ? 2 : 0
        case 0xE0: return continuation(1, 0xA0...0xBF) && continuation(2) ? 3 : 0
        case 0xE1...0xEC, 0xEE...0xEF: return continuation(1) && continuation(2) ? 3 : 0
        case 0xED: return continuation(1, 0x80...0x9F) && continuation(2) ? 3 : 0
        case 0xF0: return continuation(1, 0x90...0xBF) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF1...0xF3: return continuation(1) && continuation(2) && continuation(3) ? 4 : 0
        case 0xF4: return continuation(1, 0x80...0x8F) && continuation(2) && continuation(3) ? 4 : 0
        default: return 0
        }
    }

    /// The contents of a regular file, at most `limit` bytes; nil when it cannot be read, is not a regular file or
    /// is larger. Never blocks: see `readRegularFile`.
    package static func read(_ path: String, limit: Int = 4 << 20) -> String? {
        guard case .success(let opened) = readRegularFile(path, limit: limit) else { return nil }
        return String(decoding: opened.bytes, as: UTF8.self)
    }

    /// A regular file's bytes, read through a descriptor opened without blocking (`O_NONBLOCK`: opening a FIFO
    /// waits for a writer otherwise, and reading one waits for data) and checked with `fstat` before anything is
    /// read, so what is checked is what is read — no stat-then-open race. At most `limit` bytes are read.
    /// `check` may refuse the opened file (its `stat`) before a byte of it is read.
    package static func readRegularFile(
        _ path: String, limit: Int, check: (stat) -> String? = { _ in nil }
    ) -> Result<OpenedFile, FileProblem> {
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        guard fd >= 0 else {
            let code = errno
            if code == ENOENT || code == ENOTDIR { return .failure(.gone) }
            // A socket cannot be opened (ENXIO): it is not a regular file either.
            if code == ENXIO { return .failure(.refused("not a regular file (it is a socket)")) }
            return .failure(.refused("cannot open the file: \(String(cString: strerror(code)))"))
        }
        defer { close(fd) }
        var st = stat()
        guard fstat(fd, &st) == 0 else {
            return .failure(.refused("cannot read the file: \(String(cString: strerror(errno)))"))
        }
        guard st.st_mode & S_IFMT == S_IFREG else {
            return .failure(.refused("not a regular file (it is \(FileSystem.kind(st.st_mode)))"))
        }
        if let problem = check(st) { return .failure(.refused(problem)) }
        guard Int(st.st_size) <= limit else { return .failure(.refused("the file is over \(limit >> 20) MiB")) }
        var bytes = [UInt8](repeating: 0, count: min(limit + 1, Int(st.st_size) + 1))
        var used = 0
        while used <= limit {
            if used == bytes.count { bytes.append(contentsOf: repeatElement(0, count: min(limit + 1 - used, 65536))) }
            let n = bytes.withUnsafeMutableBytes { systemRead(fd, $0.baseAddress.map { $0 + used }, $0.count - used) }
            if n < 0 {
                if errno == EINTR { continue }
                return .failure(.refused("cannot read the file: \(String(cString: strerror(errno)))"))
            }
            if n == 0 { break }
            used += n
        }
        // It grew past the limit while being read.
        guard used <= limit else { return .failure(.refused("the file is over \(limit >> 20) MiB")) }
        bytes.removeSubrange(used...)
        return .success(OpenedFile(bytes: bytes, status: st))
    }

    /// What a file type is, in words (for "not a regular file (it is a FIFO)").
    package static func kind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFDIR: "a directory"
        case S_IFIFO: "a FIFO"
        case S_IFSOCK: "a socket"
        case S_IFCHR: "a character device"
        case S_IFBLK: "a block device"
        case S_IFLNK: "a symbolic link"
        default: "not a regular file"
        }
    }

    /// The permission bits, or nil when the path cannot be stat'ed.
    package static func mode(_ path: String) -> UInt32? {
        var st = stat()
        guard stat(path, &st) == 0 else { return nil }
        return UInt32(st.st_mode)
    }

    /// The `stat` of a path (following links), or nil.
    package static func status(_ path: String) -> stat? {
        var st = stat()
        return stat(path, &st) == 0 ? st : nil
    }

    /// The `lstat` of a path (a symbolic link itself, not what it leads to), or nil.
    package static func linkStatus(_ path: String) -> stat? {
        var st = stat()
        return lstat(path, &st) == 0 ? st : nil
    }

    /// Where a symbolic link leads (its text, shown as `displayText`), or nil when `path` is no link.
    package static func linkTarget(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink(path, &buffer, buffer.count)
        guard n >= 0 else { return nil }
        return displayText(buffer[..<n].map { UInt8(bitPattern: $0) })
    }

    /// Whether anything (a link included, followed or not) is at the path given as bytes.
    package static func exists(pathBytes: [UInt8]) -> Bool {
        var st = stat()
        return (pathBytes + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { c in c.baseAddress.map { lstat($0, &st) == 0 } ?? false }
        }
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

/// A file read whole by `FileSystem.readRegularFile`: its bytes and the `fstat` of the descriptor they came from.
package struct OpenedFile {
    package let bytes: [UInt8]
    package let status: stat
}

/// Why `FileSystem.readRegularFile` read nothing: the path is gone, or the file was refused (the reason, in words
/// that never quote the file's content).
package enum FileProblem: Error, Equatable {
    case gone
    case refused(String)
}

/// `read(2)`, by a name the `FileSystem.read` above does not hide.
private func systemRead(_ fd: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(fd, buffer, count)
}
