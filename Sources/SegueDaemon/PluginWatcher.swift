#if canImport(Glibc)
import Glibc
#endif
import Dispatch
import SegueLua

/// Watches the plugins folder with inotify (not polling) and reports which plugin files changed, debounced.
///
/// A dedicated thread blocks in `poll` on the inotify descriptor and a stop pipe. Names of `*.lua` files that were
/// written and closed, renamed into or out of the folder, deleted or chmod'ed are collected; once no event has come
/// for `quiet` (40 ms) — or `maxDelay` (150 ms) after the first one, so a constant stream cannot starve it — the batch
/// is handed to `deliver`, which the daemon hops onto its event loop. Editors that save through a temporary file and
/// a rename (vim's default) produce one `IN_MOVED_TO` for the real name, and their temporary names are ignored.
/// `IN_Q_OVERFLOW` (the kernel dropped events) asks for a full rescan. The watcher never touches the plugin host.
public final class PluginWatcher: @unchecked Sendable {
    /// What changed: file paths, or `rescan` when the whole folder must be looked at again.
    public struct Batch: Sendable {
        public var paths: [String]
        public var rescan: Bool
    }

    public let directory: String
    private let deliver: @Sendable (Batch) -> Void
    private var inotifyFD: Int32 = -1
    private var stopPipe: (read: Int32, write: Int32) = (-1, -1)
    private let quietNs: Int64
    private let maxDelayNs: Int64
    private let done = DispatchSemaphore(value: 0)
    private var running = false

    /// Starts watching; nil (with `errno` set) when inotify cannot watch the folder.
    public init?(
        directory: String, quietMs: Int = 40, maxDelayMs: Int = 150, deliver: @escaping @Sendable (Batch) -> Void
    ) {
        self.directory = directory
        self.deliver = deliver
        self.quietNs = Int64(quietMs) * 1_000_000
        self.maxDelayNs = Int64(maxDelayMs) * 1_000_000
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, directory, PluginWatcher.mask) >= 0 else {
            close(fd)
            return nil
        }
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else {
            close(fd)
            return nil
        }
        for p in fds {
            _ = fcntl(p, F_SETFD, FD_CLOEXEC)
            _ = fcntl(p, F_SETFL, O_NONBLOCK)
        }
        inotifyFD = fd
        stopPipe = (fds[0], fds[1])
        running = true
        let thread = DispatchQueue(label: "segued.plugin-watcher")
        thread.async { [self] in
            self.run()
            self.done.signal()
        }
    }

    /// Whether the folder's entry `name` is a regular file itself (`lstat`: a link is not one).
    static func isRegularEntry(_ directory: String, _ name: [UInt8]) -> Bool {
        let path = Array(directory.utf8) + [UInt8(ascii: "/")] + name
        var st = stat()
        let found = (path + [0]).withUnsafeBufferPointer { p in
            p.withMemoryRebound(to: CChar.self) { c in c.baseAddress.map { lstat($0, &st) == 0 } ?? false }
        }
        return found && st.st_mode & S_IFMT == S_IFREG
    }

    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | IN_CREATE)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)

    /// Stops the thread and closes the descriptors; waits for the thread to end.
    public func stop() {
        guard running else { return }
        running = false
        var byte: UInt8 = 1
        _ = write(stopPipe.write, &byte, 1)
        done.wait()
        close(inotifyFD)
        close(stopPipe.read)
        close(stopPipe.write)
    }

    deinit { stop() }

    private func run() {
        var pending: [String] = []
        var rescan = false
        var firstAt: Int64 = 0
        var lastAt: Int64 = 0
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var watching = true
        while true {
            var timeout: Int32 = -1
            if !watching {
                // The folder was deleted or moved away (rm -rf and a fresh copy, a checkout): watch the new one as
                // soon as it exists, then rescan it.
                if inotify_add_watch(inotifyFD, directory, PluginWatcher.mask) >= 0 {
                    watching = true
                    rescan = true
                    if firstAt == 0 || pending.isEmpty { firstAt = FileSystem.monotonicNanoseconds() }
                    lastAt = FileSystem.monotonicNanoseconds()
                } else {
                    timeout = 200
                }
            }
            if !pending.isEmpty || rescan {
                let now = FileSystem.monotonicNanoseconds()
                let due = min(lastAt + quietNs, firstAt + maxDelayNs)
                if now >= due {
                    deliver(Batch(paths: pending, rescan: rescan))
                    pending.removeAll()
                    rescan = false
                    continue
                }
                let wait = Int32(max(1, (due - now + 999_999) / 1_000_000))
                timeout = timeout < 0 ? wait : min(timeout, wait)
            }
            var fds = [
                pollfd(fd: inotifyFD, events: Int16(POLLIN), revents: 0),
                pollfd(fd: stopPipe.read, events: Int16(POLLIN), revents: 0),
            ]
            let ready = poll(&fds, 2, timeout)
            if ready < 0 {
                if errno == EINTR { continue }
                return
            }
            if fds[1].revents != 0 { return }
            guard fds[0].revents != 0 else { continue }
            let n = buffer.withUnsafeMutableBytes { read(inotifyFD, $0.baseAddress, $0.count) }
            guard n > 0 else { continue }
            let now = FileSystem.monotonicNanoseconds()
            let wasEmpty = pending.isEmpty && !rescan
            var offset = 0
            while offset + 16 <= n {
                let mask = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 4, as: UInt32.self) }
                let length = Int(buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) })
                let nameBytes = Array(buffer[(offset + 16)..<min(offset + 16 + length, n)].prefix { $0 != 0 })
                offset += 16 + length
                var relevant = false
                if mask & UInt32(IN_Q_OVERFLOW) != 0 || mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                    rescan = true
                    relevant = true
                    if mask & UInt32(IN_DELETE_SELF | IN_MOVE_SELF) != 0 {
                        watching = false
                        if mask & UInt32(IN_MOVE_SELF) != 0 {
                            // A moved folder keeps its watch under its new name: drop it, wait for the path.
                            let wd = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset - 16 - length, as: Int32.self) }
                            inotify_rm_watch(inotifyFD, wd)
                        }
                    }
                } else if PluginHost.isPluginFileName(bytes: nameBytes) {
                    // IN_CREATE alone is a regular file still being written: IN_CLOSE_WRITE follows. A directory, a
                    // FIFO, a socket or a symbolic link gets none, so it is looked at now (lstat opens nothing).
                    if mask & UInt32(IN_CREATE) == 0 || mask & UInt32(IN_ISDIR) != 0
                        || !PluginWatcher.isRegularEntry(directory, nameBytes)
                    {
                        guard let name = FileSystem.validText(nameBytes) else {
                            // A name that is not UTF-8 has no path the host can take: it looks at the whole folder.
                            rescan = true
                            relevant = true
                            lastAt = now
                            continue
                        }
                        let path = directory + "/" + name
                        if !pending.contains(path) { pending.append(path) }
                        relevant = true
                    }
                }
                if relevant { lastAt = now }
            }
            if wasEmpty && (!pending.isEmpty || rescan) { firstAt = now }
        }
    }
}
