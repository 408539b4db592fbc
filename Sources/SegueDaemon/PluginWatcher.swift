#if canImport(Glibc)
import Glibc
#endif
import CEventLoop
import SegueLua

/// Watches the plugins folder with inotify (not polling) and reports which plugin files changed, debounced — on the
/// daemon's event loop: the inotify descriptor is one more descriptor in the loop's epoll set and the debounce is a
/// loop timer, so there is no watcher thread and `deliver` runs on the loop like every request.
///
/// Names of `*.lua` files that were written and closed, renamed into or out of the folder, deleted or chmod'ed are
/// collected; once no event has come for `quiet` (40 ms) — or `maxDelay` (150 ms) after the first one, so a constant
/// stream cannot starve it — the batch is handed to `deliver`. Editors that save through a temporary file and a
/// rename (vim's default) produce one `IN_MOVED_TO` for the real name, and their temporary names are ignored.
/// `IN_Q_OVERFLOW` (the kernel dropped events) asks for a full rescan; so does the folder coming back after it was
/// deleted or moved away (looked for every 200 ms meanwhile). The watcher never touches the plugin host.
///
/// Loop-confined: made, fed and stopped on the loop's thread (or before the loop runs).
final class PluginWatcher: LoopHandler {
    /// What changed: file paths, or `rescan` when the whole folder must be looked at again.
    struct Batch: Sendable {
        var paths: [String]
        var rescan: Bool
    }

    let directory: String
    private let loop: any DaemonLoop
    private let deliver: (Batch) -> Void
    private var inotifyFD: Int32 = -1
    private var token: UInt64 = 0
    private let quietNs: Int64
    private let maxDelayNs: Int64
    private var pending: [String] = []
    private var rescan = false
    /// When the batch's first and latest relevant events came (monotonic ns).
    private var firstAt: Int64 = 0
    private var lastAt: Int64 = 0
    /// False while the folder is gone (deleted or moved away): `rewatch` looks for it again.
    private var watching = true
    /// The debounce timer (when a batch is pending) and the timer looking for a vanished folder.
    private var deliverTimer: LoopTimer?
    private var rewatchTimer: LoopTimer?
    private var buffer = [UInt8](repeating: 0, count: 64 * 1024)

    /// Starts watching on `loop`; nil (with `errno` set) when inotify cannot watch the folder.
    init?(directory: String, loop: any DaemonLoop, quietMs: Int = 40, maxDelayMs: Int = 150,
          deliver: @escaping (Batch) -> Void) {
        self.directory = directory
        self.loop = loop
        self.deliver = deliver
        self.quietNs = Int64(quietMs) * 1_000_000
        self.maxDelayNs = Int64(maxDelayMs) * 1_000_000
        let fd = inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC))
        guard fd >= 0 else { return nil }
        guard inotify_add_watch(fd, directory, PluginWatcher.mask) >= 0 else {
            close(fd)
            return nil
        }
        inotifyFD = fd
        guard let token = loop.register(self, fd: fd, events: .readable) else {
            close(fd)
            inotifyFD = -1
            return nil
        }
        self.token = token
    }

    /// Whether the folder's entry `name` is a regular file itself (`lstat`: a link is not one).
    static func isRegularEntry(_ directory: String, _ name: [UInt8]) -> Bool {
        guard let st = FileSystem.linkStatus(pathBytes: Array(directory.utf8) + [UInt8(ascii: "/")] + name) else {
            return false
        }
        return st.st_mode & S_IFMT == S_IFREG
    }

    static let mask = UInt32(IN_CLOSE_WRITE | IN_MOVED_TO | IN_MOVED_FROM | IN_DELETE | IN_ATTRIB | IN_CREATE)
        | UInt32(IN_DELETE_SELF | IN_MOVE_SELF)

    /// Stops watching: the descriptor leaves the loop and is closed; a pending batch is dropped.
    func stop() {
        guard inotifyFD >= 0 else { return }
        loop.unregister(fd: inotifyFD, token: token)
        close(inotifyFD)
        inotifyFD = -1
        deliverTimer?.cancel()
        rewatchTimer?.cancel()
        deliverTimer = nil
        rewatchTimer = nil
        pending.removeAll()
        rescan = false
    }

    deinit { stop() }

    /// The inotify descriptor is readable: take one read's worth of events (level-triggered: more wakes us again).
    func ready(_ events: LoopEvents) {
        guard inotifyFD >= 0 else { return }
        let n = buffer.withUnsafeMutableBytes { read(inotifyFD, $0.baseAddress, $0.count) }
        guard n > 0 else { return }
        let now = FileSystem.monotonicNanoseconds()
        let wasEmpty = pending.isEmpty && !rescan
        var offset = 0
        while offset + 16 <= n {
            let mask = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 4, as: UInt32.self) }
            let length = Int(buffer.withUnsafeBytes { $0.load(fromByteOffset: offset + 12, as: UInt32.self) })
            let nameBytes = Array(buffer[(offset + 16)..<min(offset + 16 + length, n)].prefix { $0 != 0 })
            let descriptor = buffer.withUnsafeBytes { $0.load(fromByteOffset: offset, as: Int32.self) }
            offset += 16 + length
            if take(mask: mask, name: nameBytes, descriptor: descriptor) { lastAt = now }
        }
        if wasEmpty && (!pending.isEmpty || rescan) { firstAt = now }
        scheduleDelivery()
    }

    /// One inotify event: true when it matters to the plugin host.
    private func take(mask: UInt32, name: [UInt8], descriptor: Int32) -> Bool {
        let selfGone = UInt32(IN_DELETE_SELF | IN_MOVE_SELF)
        if mask & UInt32(IN_Q_OVERFLOW) != 0 || mask & selfGone != 0 {
            rescan = true
            if mask & selfGone != 0 {
                // The folder was deleted or moved away (rm -rf and a fresh copy, a checkout): watch the new one as
                // soon as it exists, then rescan it. A moved folder keeps its watch under its new name: drop it.
                if mask & UInt32(IN_MOVE_SELF) != 0 { inotify_rm_watch(inotifyFD, descriptor) }
                watching = false
                rewatch()
            }
            return true
        }
        guard PluginHost.isPluginFileName(bytes: name) else { return false }
        // IN_CREATE alone is a regular file still being written: IN_CLOSE_WRITE follows. A directory, a FIFO, a
        // socket or a symbolic link gets none, so it is looked at now (lstat opens nothing).
        guard mask & UInt32(IN_CREATE) == 0 || mask & UInt32(IN_ISDIR) != 0
            || !PluginWatcher.isRegularEntry(directory, name)
        else { return false }
        guard let text = FileSystem.validText(name) else {
            // A name that is not UTF-8 has no path the host can take: it looks at the whole folder.
            rescan = true
            return true
        }
        let path = directory + "/" + text
        if !pending.contains(path) { pending.append(path) }
        return true
    }

    /// While the folder is gone: looks for it now and every 200 ms until it is back.
    private func rewatch() {
        guard !watching, inotifyFD >= 0 else { return }
        if inotify_add_watch(inotifyFD, directory, PluginWatcher.mask) >= 0 {
            watching = true
            let now = FileSystem.monotonicNanoseconds()
            if firstAt == 0 || pending.isEmpty { firstAt = now }
            rescan = true
            lastAt = now
            scheduleDelivery()
            return
        }
        rewatchTimer?.cancel()
        rewatchTimer = loop.schedule(in: 200_000_000) { [weak self] in self?.rewatch() }
    }

    /// Points the debounce timer at when the pending batch is due: `quiet` after its latest event, at most
    /// `maxDelay` after its first.
    private func scheduleDelivery() {
        guard !pending.isEmpty || rescan else { return }
        let due = min(lastAt + quietNs, firstAt + maxDelayNs)
        deliverTimer?.cancel()
        deliverTimer = loop.schedule(in: due - FileSystem.monotonicNanoseconds()) { [weak self] in
            self?.deliverIfDue()
        }
    }

    private func deliverIfDue() {
        deliverTimer = nil
        guard !pending.isEmpty || rescan else { return }
        let due = min(lastAt + quietNs, firstAt + maxDelayNs)
        guard FileSystem.monotonicNanoseconds() >= due else { return scheduleDelivery() }
        let batch = Batch(paths: pending, rescan: rescan)
        pending.removeAll()
        rescan = false
        deliver(batch)
    }
}
