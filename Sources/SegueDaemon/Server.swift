#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import CEventLoop
import Logging
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
    private var listenerToken: UInt64 = 0
    private var children: [ObjectIdentifier: SocketConnection] = [:]
    /// Realtime scenes' tick timers, the wall time of the last tick, and the scene time the wall clock has reached.
    private var realtime: [String: (timer: LoopTimer, lastWall: Int64, target: Double)] = [:]
    private var signalSources: [any DispatchSourceSignal] = []
    private var stopping = false
    /// Set from any thread as soon as a stop is asked for (a signal during start-up, before the loop runs).
    private let stopAsked = Atomic<Bool>(false)

    public init(daemon: Daemon) throws(ServerError) {
        self.daemon = daemon
        loop = try SocketLoop()
        readBuffer = .allocate(capacity: 64 << 10)
        let logger = daemon.logger
        stallDetector = StallDetector(
            heartbeat: loop.heartbeat, activity: daemon.activity, timeoutMs: daemon.config.stallTimeoutMs
        ) { line in
            logger.critical("\(line)")
        }
        applySpin()
        daemon.onConfigApplied = { [weak self] in
            guard let self else { return }
            self.applySpin()
            self.stallDetector.setTimeout(milliseconds: self.daemon.config.stallTimeoutMs)
        }
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

    /// Loads plugins, then binds the socket (mode 0600 from the moment it exists); `waitUntilStopped()` serves.
    public func start() throws(ServerError) {
        let path = daemon.config.socketPath
        guard path.utf8.count < 108 else { throw ServerError(message: "socket path is longer than 107 bytes: \(path)") }
        try Server.prepareSocketPath(path)
        // Everything a request can reach is wired and loaded before the socket exists: a client that connects
        // the instant it appears must find the plugins loaded and realtime scenes driven. The loop thread is this
        // one until `waitUntilStopped()` runs it, so the daemon is still confined to one thread at a time.
        daemon.realtimeDriver = self
        let loop = self.loop
        daemon.scheduleAfter = { nanoseconds, action in loop.scheduleFromAnyThread(in: nanoseconds, action) }
        daemon.onShutdownRequest = { [weak self] in
            // After the response to daemon.shutdown has been written.
            self?.loop.execute { [weak self] in self?.shutdown() }
        }
        daemon.start()
        // A SIGTERM that came while the plugins were loading: never make the socket.
        if stopAsked.load(ordering: .relaxed) { return }
        listener = try Server.listen(on: path)
        guard let token = loop.register(self, fd: listener, events: UInt32(SEG_EV_IN)) else {
            close(listener)
            unlink(path)
            throw ServerError(message: "cannot watch the socket \(path)")
        }
        listenerToken = token
        daemon.logger.info("segued listening", metadata: ["socket": "\(path)", "plugins.dir": "\(daemon.config.pluginsDir)"])
    }

    /// `daemon.spin_us`, except on a single CPU: there the client can only run once the loop sleeps or yields, so
    /// polling for its next request only adds system calls to every round trip.
    func applySpin() {
        let cpus = seg_cpus_allowed()
        loop.spinNanoseconds = cpus > 1 ? Int64(daemon.config.spinMicroseconds) * 1000 : 0
    }

    /// A listening Unix socket at `path`, non-blocking; the umask makes it 0600 at bind, never chmod after.
    static func listen(on path: String) throws(ServerError) -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw ServerError(message: "cannot listen on \(path): \(String(cString: strerror(errno)))") }
        var address = Server.address(path)
        let oldMask = umask(0o177)
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        umask(oldMask)
        guard bound == 0, Glibc.listen(fd, 256) == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw ServerError(message: "cannot listen on \(path): \(reason)")
        }
        return fd
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
    func ready(_ events: UInt32) {
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
        loop.update(fd: listener, token: listenerToken, events: 0)
        loop.schedule(in: 100_000_000) { [weak self] in
            guard let self, self.listener >= 0 else { return }
            self.loop.update(fd: self.listener, token: self.listenerToken, events: UInt32(SEG_EV_IN))
        }
    }

    /// Takes one accepted socket, or refuses it. `reaped`: hung-up peers were already reaped this round.
    private func accept(_ fd: Int32, reaped: inout Bool) {
        let rawUID = seg_peer_uid(fd)
        guard rawUID >= 0 else {
            // SPEC §4 checks every peer: one whose credentials cannot be read is not let in.
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
            let line = Array((Daemon.response(id: .null, error: error) + "\n").utf8)
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
            for _ in 0..<64 where child.watchesReads { child.ready(UInt32(SEG_EV_IN)) }
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
                        self.daemon.reloadFromSignal()
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
        if listener >= 0 {
            loop.unregister(fd: listener, token: listenerToken)
            close(listener)
            listener = -1
            unlink(daemon.config.socketPath)
        }
        daemon.stop()
        for (_, entry) in realtime { entry.timer.cancel() }
        realtime.removeAll()
        for child in Array(children.values) { child.closeAfterWriting() }
        if children.isEmpty { return finishStopping() }
        // SPEC §4: exit within 2 s. Closing normally takes microseconds; this bounds it whatever a peer does.
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
        loop.run()
        stallDetector.stop()
    }

    // MARK: RealtimeDriver

    /// Ticks a realtime scene on its frame grid, like a display link: each tick advances the scene to the last frame
    /// boundary the wall clock (times the scene's speed) has passed — one `frame` event per frame, and after a late
    /// wake-up one per frame missed, never an extra one between frames.
    public func start(scene: Scene, daemon: Daemon) {
        let interval = Int64(1_000_000_000 / scene.fps)
        let id = scene.id
        let timer = loop.schedule(in: interval, every: interval) { [weak self, weak scene] in
            guard let self, let scene, var entry = self.realtime[id] else { return }
            let wall = FileSystem.monotonicNanoseconds()
            entry.target += Double(wall - entry.lastWall) * scene.speed
            entry.lastWall = wall
            self.realtime[id] = entry
            let frame = scene.frameTime(Int64((entry.target * Double(scene.fps) / 1e9).rounded(.down)))
            if frame > scene.now { daemon.tickRealtime(scene, elapsedNanoseconds: frame) }
        }
        realtime[id] = (timer, FileSystem.monotonicNanoseconds(), Double(scene.now))
    }

    public func stop(scene: Scene) {
        realtime[scene.id]?.timer.cancel()
        realtime[scene.id] = nil
    }
}
