#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import CEventLoop
import Logging
import SegueDaemon
import SegueKit
import SegueLua
import Synchronization

/// Why the server could not start.
public struct ServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The Unix-socket server: one `SocketLoop` thread runs the daemon, every connection and every realtime tick.
public final class Server: RealtimeDriver, LoopHandler, @unchecked Sendable {
    public let daemon: Daemon
    let loop: SocketLoop
    /// Every connection's reads land here (one read at a time on the loop), so a connection owns no read memory.
    let readBuffer: UnsafeMutableBufferPointer<UInt8>
    private var listener: Int32 = -1
    /// The socket file this server made (`st_dev`, `st_ino` of what it bound): at shutdown the path is removed only
    /// while it is still that file, never another daemon's socket made there since.
    private var bound: BoundSocket?
    private var listenerToken: UInt64 = 0
    private var children: [ObjectIdentifier: SocketConnection] = [:]
    /// Realtime scenes, one frame grid (and one loop timer) per frame rate.
    private var frameGrids: [Int: FrameGrid] = [:]
    private var signalSources: [any DispatchSourceSignal] = []
    private var stopping = false
    /// `sd_notify` to systemd (nil when `NOTIFY_SOCKET` is unset), and the timer sending `WATCHDOG=1`.
    let notifier = SystemdNotifier.fromEnvironment()
    var watchdogTimer: LoopTimer?
    /// When `WATCHDOG=1` was last sent (monotonic ns), and the watchdog's period (nil: no watchdog).
    var watchdogSentAt: Int64 = 0
    var watchdogInterval: Int64?
    /// Set from any thread as soon as a stop is asked for (a signal during start-up, before the loop runs).
    private let stopAsked = Atomic<Bool>(false)

    public init(daemon: Daemon) throws(ServerError) {
        self.daemon = daemon
        loop = try SocketLoop(confinement: daemon.confinement)
        readBuffer = .allocate(capacity: 64 << 10)
        let logger = daemon.logger
        stallDetector = StallDetector(
            heartbeat: loop.heartbeat, activity: daemon.activity, timeoutMs: Server.stallTimeout(daemon.config)
        ) { line in
            logger.critical("\(line)")
        }
        applySpin()
        // Each plugin file loaded is a turn of the loop for the stall detector (a file's load is bounded; a folder
        // of many slow ones, loaded in one turn, is not a stall).
        daemon.plugins.onFileDone = { [heartbeat = loop.heartbeat] in heartbeat.beat() }
        // The frames of a long clock.advance or clock.step are turns too, and keep systemd's watchdog fed.
        daemon.onProgress = { [weak self] in self?.progress() }
        daemon.onConfigApplied = { [weak self] in
            guard let self else { return }
            self.applySpin()
            self.stallDetector.setTimeout(milliseconds: Server.stallTimeout(self.daemon.config))
        }
    }

    /// `daemon.stall_timeout_ms`, kept below systemd's `WatchdogSec` when the unit sets one.
    static func stallTimeout(_ config: DaemonConfig) -> Int {
        StallDetector.effectiveTimeout(
            configured: config.stallTimeoutMs, watchdogPingNanoseconds: SystemdNotifier.environmentWatchdogInterval)
    }

    /// The stall detector (`daemon.stall_timeout_ms`); its thread runs once `startStallDetector()` is called (the
    /// executable does; in-process tests, which turn the loop themselves, do not).
    let stallDetector: StallDetector

    /// Starts watching the loop: call before `start()`, so loading the plugins at start-up is watched too (as one
    /// turn).
    public func startStallDetector() {
        loop.heartbeat.beat()
        stallDetector.start()
    }

    deinit {
        readBuffer.deallocate()
    }

    /// Loads plugins, then binds the socket (mode 0600 from the moment it can be reached), or takes the one systemd
    /// passed (socket activation); tells systemd it is ready (`sd_notify`); `waitUntilStopped()` serves.
    public func start() throws(ServerError) {
        let activated = try ActivatedSocket.take()
        if let activated {
            daemon.socketActivated = true
            daemon.config.socketPath = activated.path
        }
        let path = daemon.config.socketPath
        if activated == nil {
            guard path.utf8.count < 108 else {
                throw ServerError(message: "socket path is longer than 107 bytes: \(path)")
            }
            try Server.prepareSocketPath(path)
        }
        // Everything a request can reach is wired and loaded before the socket exists: a client that connects
        // the instant it appears must find the plugins loaded and realtime scenes driven. The loop thread is this
        // one until `waitUntilStopped()` runs it, so the daemon is still confined to one thread at a time.
        daemon.realtimeDriver = self
        let loop = self.loop
        daemon.pluginService.loop = loop
        daemon.scheduleAfter = { nanoseconds, action in loop.scheduleFromAnyThread(in: nanoseconds, action) }
        daemon.onShutdownRequest = { [weak self] in
            // After the response to daemon.shutdown has been written.
            self?.loop.execute { [weak self] in self?.shutdown() }
        }
        daemon.start()
        // A SIGTERM that came while the plugins were loading: never make the socket.
        if stopAsked.load(ordering: .relaxed) {
            if let activated { close(activated.fd) }
            return
        }
        if let activated {
            listener = activated.fd
        } else {
            let socket = try Server.listen(on: path)
            listener = socket.fd
            bound = socket
        }
        guard let token = loop.register(self, fd: listener, events: .readable) else {
            close(listener)
            if let bound { Server.removeSocketFile(bound) }
            throw ServerError(message: "cannot watch the socket \(path)")
        }
        listenerToken = token
        if let activated, activated.extra > 0 {
            daemon.logger.warning("socket activation passed \(activated.extra + 1) sockets; serving the first only")
        }
        daemon.logger.info("segued listening", metadata: [
            "socket": "\(path)", "plugins.dir": "\(daemon.config.pluginsDir)",
            "socket.from": "\(activated == nil ? "bound" : "systemd")",
        ])
        notifySystemd()
    }

    /// `daemon.spin_us`, except on a single CPU: there the client can only run once the loop sleeps or yields, so
    /// polling for its next request only adds system calls to every round trip.
    func applySpin() {
        let cpus = seg_cpus_allowed()
        loop.spinNanoseconds = cpus > 1 ? Int64(daemon.config.spinMicroseconds) * 1000 : 0
    }

    /// A listening socket the server made, and the identity of its file.
    struct BoundSocket {
        let fd: Int32
        let path: String
        let device: UInt64
        let inode: UInt64
    }

    /// A listening Unix socket at `path`, non-blocking, 0600 from the moment anyone can reach it — without touching
    /// the umask, which is the whole process's: a file another thread created while it was changed would get the
    /// wrong mode.
    ///
    /// How: the socket is bound inside a fresh private directory next to `path` (`mkdtemp`: 0700 and ours, so no one
    /// else can reach what is in it), made 0600 there (`fchmod` on a socket's descriptor does not change its file on
    /// Linux, so it is the file that is chmod'ed, while it is still private), and only then hard-linked to `path`.
    /// `link` fails when anything is at `path`, as `bind` would (a `rename` would silently replace it). The private
    /// name and directory are then removed: from the first moment the socket can be reached, at `path`, it is 0600.
    /// `afterBind` runs right after `bind` (tests look at the umask there).
    static func listen(on path: String, afterBind: () -> Void = {}) throws(ServerError) -> BoundSocket {
        func failure(_ what: String, _ code: Int32 = errno) -> ServerError {
            ServerError(message: "cannot listen on \(path): \(what)\(String(cString: strerror(code)))")
        }
        var template = Array((DaemonConfig.parentDirectory(of: path) + "/.segued-XXXXXX").utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ $0.baseAddress.flatMap { mkdtemp($0) } }) else {
            throw failure("cannot make a private directory next to it: ")
        }
        let privateDirectory = String(cString: made)
        defer { rmdir(privateDirectory) }
        // mkdtemp asks for 0700, which the umask may have cut: the owner needs all of it, others get nothing.
        guard chmod(privateDirectory, 0o700) == 0 else { throw failure("cannot use a private directory next to it: ") }
        let directory = open(privateDirectory, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NOFOLLOW)
        guard directory >= 0 else { throw failure("cannot open a private directory next to it: ") }
        defer {
            unlinkat(directory, "s", 0)
            close(directory)
        }
        // A long path leaves no room for the private one in sun_path: reach the directory through its descriptor.
        var bindPath = privateDirectory + "/s"
        if bindPath.utf8.count >= 108 { bindPath = "/proc/self/fd/\(directory)/s" }
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("") }
        var address = Server.address(bindPath)
        let bindResult = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bindResult == 0 else {
            let code = errno
            close(fd)
            throw failure("", code)
        }
        afterBind()
        var st = stat()
        guard fchmodat(directory, "s", 0o600, 0) == 0, fstatat(directory, "s", &st, AT_SYMLINK_NOFOLLOW) == 0,
            Glibc.listen(fd, 256) == 0
        else {
            let code = errno
            close(fd)
            throw failure("", code)
        }
        guard linkat(directory, "s", AT_FDCWD, path, 0) == 0 else {
            let code = errno
            close(fd)
            if code == EEXIST {
                throw ServerError(message: "cannot listen on \(path): something else was made there meanwhile")
            }
            throw failure("", code)
        }
        return BoundSocket(fd: fd, path: path, device: UInt64(st.st_dev), inode: UInt64(st.st_ino))
    }

    /// Removes the socket file at `socket.path` if it is still the one this server bound. (Between the look and the
    /// unlink another daemon could take the path; no call removes a name only if it is a given file, so that window
    /// stays — a few microseconds at shutdown, instead of "always".)
    @discardableResult
    static func removeSocketFile(_ socket: BoundSocket) -> Bool {
        var st = stat()
        guard lstat(socket.path, &st) == 0, UInt64(st.st_dev) == socket.device, UInt64(st.st_ino) == socket.inode
        else { return false }
        return unlink(socket.path) == 0
    }

    static func address(_ path: String) -> sockaddr_un {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        return address
    }

    // MARK: Accepting

    /// The listening socket is readable: accept what is waiting (up to 64 a round, so requests keep flowing).
    package func ready(_ events: LoopEvents) {
        var reaped = false
        for _ in 0..<64 {
            let fd = seg_accept(listener)
            if fd >= 0 {
                accept(fd, reaped: &reaped)
                continue
            }
            switch errno {
            case EINTR, ECONNABORTED: continue
            case EAGAIN, EWOULDBLOCK: return  // nothing more waiting
            default: return pauseAccepting()  // out of descriptors or memory, or stranger: never spin on it
            }
        }
    }

    /// Out of descriptors: the waiting connection cannot be taken, and the level-triggered listener would wake the
    /// loop again at once, forever. Stop watching it for 100 ms; clients wait in the backlog meanwhile.
    private func pauseAccepting() {
        let reason = String(cString: strerror(errno))
        daemon.logger.warning("cannot accept a connection (\(reason)); accepting again in 100 ms",
                              metadata: ["connections": "\(daemon.connectionCount)"])
        loop.update(fd: listener, token: listenerToken, events: [])
        loop.schedule(in: 100_000_000) { [weak self] in
            guard let self, self.listener >= 0 else { return }
            self.loop.update(fd: self.listener, token: self.listenerToken, events: .readable)
        }
    }

    /// Takes one accepted socket, or refuses it. `reaped`: hung-up peers were already reaped this round.
    private func accept(_ fd: Int32, reaped: inout Bool) {
        let rawUID = seg_peer_uid(fd)
        guard rawUID >= 0 else {
            // docs/DESIGN.md §4 checks every peer: one whose credentials cannot be read is not let in.
            daemon.logger.warning("refused a peer whose credentials (SO_PEERCRED) could not be read")
            close(fd)
            return
        }
        let uid = UInt32(truncatingIfNeeded: rawUID)
        // Read at each connect: a reload changes them for the next connection.
        if !daemon.config.allowedUIDs.contains(uid) {
            daemon.logger.warning("refused a peer not in security.allowed_uids", metadata: ["peer.uid": "\(uid)"])
            close(fd)
            return
        }
        let limit = daemon.config.limits.maxConnections
        if daemon.connectionCount >= limit, !reaped {
            reaped = true
            reapHungUpPeers()
        }
        if daemon.connectionCount >= limit {
            daemon.logger.warning("refused a connection over limits.max_connections", metadata: ["limit": "\(limit)"])
            let error = RPCError.limit("too many connections (limits.max_connections)", limit: limit)
            // A fresh socket's buffer takes one line: the refusal is written whole, then the connection closed.
            let line = Array((Daemon.refusal(error) + "\n").utf8)
            _ = line.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            close(fd)
            return
        }
        let child = SocketConnection(fd: fd, server: self, daemon: daemon, maxLineBytes: daemon.config.limits.maxLineBytes)
        guard child.open(peerUID: uid) else {
            close(fd)
            return
        }
        children[ObjectIdentifier(child)] = child
    }

    /// At the connection limit: peers that have hung up but whose end of file this round has not reached yet still
    /// hold a slot (a client that probes the socket and closes, then connects for real). Let them finish first.
    /// Only children whose requests are being read (not behind backpressure).
    private func reapHungUpPeers() {
        for child in Array(children.values) where child.watchesReads && seg_peer_gone(child.fd) == 1 {
            for _ in 0..<64 where child.watchesReads { child.ready(.readable) }
        }
    }

    func connectionClosed(_ child: SocketConnection) {
        children[ObjectIdentifier(child)] = nil
        if stopping, children.isEmpty { finishStopping() }
    }

    /// A live daemon on the path refuses the start; a stale socket file is removed; anything else is an error.
    static func prepareSocketPath(_ path: String) throws(ServerError) {
        var st = stat()
        guard lstat(path, &st) == 0 else { return }
        guard st.st_mode & S_IFMT == S_IFSOCK else {
            throw ServerError(message: "\(path) exists and is not a socket; refusing to replace it")
        }
        if socketAcceptsConnections(path) {
            throw ServerError(message: "another segued is already listening on \(path)")
        }
        unlink(path)
    }

    static func socketAcceptsConnections(_ path: String) -> Bool {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var address = Server.address(path)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    /// SIGTERM/SIGINT drain and stop; SIGHUP is `daemon.reload` (config and plugins); SIGPIPE is ignored.
    public func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
                if sig != SIGHUP { self.stopAsked.store(true, ordering: .relaxed) }
                self.loop.execute {
                    if sig == SIGHUP {
                        self.notifier?.send(SystemdNotifier.reloadingMessage)
                        self.daemon.reloadFromSignal()
                        self.notifier?.send("READY=1")
                    } else {
                        self.daemon.logger.info("signal \(sig): draining")
                        self.shutdown()
                    }
                }
            }
            source.resume()
            signalSources.append(source)
        }
    }

    /// Graceful stop, on the loop: stop accepting, complete running transitions (their events are sent), write
    /// out what each connection has queued and close it, remove the socket. Peers that do not read get 1.5 s.
    func shutdown() {
        guard !stopping else { return }
        stopping = true
        stopAsked.store(true, ordering: .relaxed)
        notifier?.send("STOPPING=1")
        watchdogTimer?.cancel()
        if listener >= 0 {
            loop.unregister(fd: listener, token: listenerToken)
            close(listener)
            listener = -1
            // Only a socket this server bound, and only while the path is still it: a socket systemd passed
            // belongs to its socket unit (kept for the next activation), and another daemon may have bound the path
            // since.
            if let bound { Server.removeSocketFile(bound) }
        }
        daemon.stop()
        for (_, grid) in frameGrids { grid.timer?.cancel() }
        frameGrids.removeAll()
        for child in Array(children.values) { child.closeAfterWriting() }
        if children.isEmpty { return finishStopping() }
        // docs/DESIGN.md §4: exit within 2 s. Closing normally takes microseconds; this bounds it whatever a peer does.
        loop.schedule(in: 1_500_000_000) { [weak self] in
            guard let self, !self.children.isEmpty else { return }
            self.daemon.logger.warning("connections did not close within 1.5 s; stopping anyway")
            for child in Array(self.children.values) { child.closeNow() }
        }
    }

    private var stopSignalled = false

    private func finishStopping() {
        guard !stopSignalled else { return }
        stopSignalled = true
        daemon.logger.info("segued stopped")
        loop.stop()
    }

    /// Serves on the calling thread until the server has stopped (SIGTERM, SIGINT, daemon.shutdown).
    public func waitUntilStopped() {
        if stopAsked.load(ordering: .relaxed), listener < 0 {
            // Stopped during start-up: the daemon still drains on the way out.
            shutdown()
            stallDetector.stop()
            return
        }
        daemon.confinement.bindToCurrentThread()  // from here the daemon is touched on this thread only
        loop.flushOutput = { [daemon] in daemon.flushPending() }  // where the bytes go out
        loop.run()
        stallDetector.stop()
    }

    // MARK: RealtimeDriver

    /// Ticks a realtime scene on its frame rate's grid (`FrameGrid`), like a display link: one loop timer per frame
    /// rate whatever the number of scenes; each tick advances every scene on the grid to the last frame boundary
    /// the wall clock (times the scene's speed) has passed — one `frame` event per frame, and after a late wake-up
    /// one per frame missed, never an extra one between frames. Their output goes out at the loop's one flush point.
    public func start(scene: Scene, daemon: Daemon) {
        let now = FileSystem.monotonicNanoseconds()
        let grid: FrameGrid
        if let existing = frameGrids[scene.fps] {
            grid = existing
        } else {
            grid = FrameGrid(fps: scene.fps, now: now)
            frameGrids[scene.fps] = grid
            grid.timer = loop.schedule(in: grid.interval, every: grid.interval) { [weak grid, weak daemon] in
                guard let grid, let daemon else { return }
                grid.tick(wall: grid.gridTime(at: FileSystem.monotonicNanoseconds()), sleepWhenIdle: true) { scene, frame in
                    daemon.tickRealtime(scene, elapsedNanoseconds: frame)
                }
            }
        }
        grid.add(scene, now: now)
    }

    public func wake(scene: Scene) {
        guard let grid = frameGrids[scene.fps], grid.hasSleepers else { return }
        grid.wake(scene, wall: grid.gridTime(at: FileSystem.monotonicNanoseconds()))
    }

    /// Every grid goes at once (the daemon stopped): its timer cancelled, its entries dropped whole.
    public func stopAll(_ scenes: [Scene]) {
        for (_, grid) in frameGrids { grid.timer?.cancel() }
        frameGrids.removeAll()
    }

    public func stop(scene: Scene) {
        guard let grid = frameGrids[scene.fps] else { return }
        grid.remove(id: scene.id)
        if grid.isEmpty {
            grid.timer?.cancel()
            frameGrids[scene.fps] = nil
        }
    }
}
