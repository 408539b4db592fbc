#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import Logging
import NIOCore
import NIOPosix
import SegueKit
import SegueLua

/// Why the server could not start.
public struct ServerError: Error, CustomStringConvertible {
    public let message: String
    public var description: String { message }
}

/// The Unix-socket server: one event loop runs the daemon, every connection and every realtime tick.
public final class Server: RealtimeDriver, @unchecked Sendable {
    public let daemon: Daemon
    let group: MultiThreadedEventLoopGroup
    let loop: any EventLoop
    private var serverChannel: (any Channel)?
    private var children: [ObjectIdentifier: any Channel] = [:]
    private var realtime: [String: (task: RepeatedTask, lastWall: Int64)] = [:]
    private var signalSources: [any DispatchSourceSignal] = []
    private let stopped = DispatchSemaphore(value: 0)
    private var stopping = false

    public init(daemon: Daemon) {
        self.daemon = daemon
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        loop = group.next()
    }

    /// Binds the socket (mode 0600 from the moment it exists), loads plugins and starts serving.
    public func start() throws(ServerError) {
        let path = daemon.config.socketPath
        guard path.utf8.count < 108 else { throw ServerError(message: "socket path is longer than 107 bytes: \(path)") }
        try Server.prepareSocketPath(path)
        let daemon = self.daemon
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 256)
            .childChannelInitializer { [weak self] channel in
                Server.peerUID(of: channel).flatMap { uid -> EventLoopFuture<Void> in
                    // Read at each connect, on the daemon's loop: a reload changes them for the next connection.
                    let maxLine = daemon.config.limits.maxLineBytes
                    if let uid, !daemon.config.allowedUIDs.contains(uid) {
                        daemon.logger.warning("refused a peer not in security.allowed_uids", metadata: ["peer.uid": "\(uid)"])
                        return channel.close()
                    }
                    if daemon.connectionCount >= daemon.config.limits.maxConnections {
                        let error = RPCError.limit(
                            "too many connections (limits.max_connections)", limit: daemon.config.limits.maxConnections)
                        // The channel is not active yet here: the refusal is written once it is.
                        daemon.logger.warning("refused a connection over limits.max_connections",
                                              metadata: ["limit": "\(daemon.config.limits.maxConnections)"])
                        do {
                            try channel.pipeline.syncOperations.addHandler(
                                RefusingHandler(line: Daemon.response(id: .null, error: error)))
                            return channel.eventLoop.makeSucceededVoidFuture()
                        } catch {
                            return channel.close()
                        }
                    }
                    let handler = RPCChannelHandler(daemon: daemon, peerUID: uid, maxLineBytes: maxLine)
                    let key = ObjectIdentifier(channel)
                    self?.children[key] = channel
                    handler.onClose = { [weak self] _ in self?.children[key] = nil }
                    do {
                        try channel.pipeline.syncOperations.addHandler(handler)
                        return channel.eventLoop.makeSucceededVoidFuture()
                    } catch {
                        return channel.eventLoop.makeFailedFuture(error)
                    }
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: false)
            .childChannelOption(
                .writeBufferWaterMark,
                value: ChannelOptions.Types.WriteBufferWaterMark(low: Daemon.highWatermark / 2, high: Daemon.highWatermark))

        // Everything a request can reach is wired and loaded before the socket exists: a client that connects
        // the instant it appears must find the plugins loaded and realtime scenes driven.
        daemon.realtimeDriver = self
        let loop = self.loop
        daemon.scheduleAfter = { nanoseconds, action in
            loop.scheduleTask(in: .nanoseconds(nanoseconds)) { action() }
        }
        daemon.onShutdownRequest = { [weak self] in self?.loop.execute { self?.shutdown() } }
        do {
            try loop.submit { daemon.start() }.wait()
        } catch {
            throw ServerError(message: "start-up failed: \(error)")
        }
        // The socket takes the umask at bind: make it 0600 from the start, never chmod after.
        let oldMask = umask(0o177)
        defer { umask(oldMask) }
        do {
            serverChannel = try bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: false).wait()
        } catch {
            throw ServerError(message: "cannot listen on \(path): \(error)")
        }
        // A SIGTERM that came while the plugins were loading has stopped the daemon already: take the socket away.
        let stoppedEarly = (try? loop.submit { [weak self] in self?.stopping ?? true }.wait()) ?? true
        if stoppedEarly {
            serverChannel?.close(promise: nil)
            unlink(path)
            return
        }
        daemon.logger.info("segued listening", metadata: ["socket": "\(path)", "plugins.dir": "\(daemon.config.pluginsDir)"])
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
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(path.utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() where i < raw.count - 1 { raw[i] = b }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        return result == 0
    }

    /// struct ucred (pid, uid, gid), which glibc declares only under _GNU_SOURCE.
    struct PeerCredentials {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// The peer's uid through SO_PEERCRED (nil when the channel cannot tell).
    static func peerUID(of channel: any Channel) -> EventLoopFuture<UInt32?> {
        guard let provider = channel as? any SocketOptionProvider else {
            return channel.eventLoop.makeSucceededFuture(nil)
        }
        let future: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(
            level: SocketOptionLevel(SOL_SOCKET), name: SocketOptionName(SO_PEERCRED))
        return future.map { Optional($0.uid) }.recover { _ in nil }
    }

    /// SIGTERM/SIGINT drain and stop; SIGHUP is `daemon.reload` (config and plugins); SIGPIPE is ignored.
    public func installSignalHandlers() {
        signal(SIGPIPE, SIG_IGN)
        for sig in [SIGTERM, SIGINT, SIGHUP] {
            signal(sig, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: sig, queue: .global())
            source.setEventHandler { [weak self] in
                guard let self else { return }
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

    /// Graceful stop, on the loop: stop accepting, complete running transitions (their events are sent), flush,
    /// close connections, remove the socket.
    func shutdown() {
        guard !stopping else { return }
        stopping = true
        serverChannel?.close(promise: nil)
        daemon.stop()
        for (_, entry) in realtime { entry.task.cancel() }
        realtime.removeAll()
        let closing = children.values.map { channel -> EventLoopFuture<Void> in
            channel.flush()
            return channel.close()
        }
        unlink(daemon.config.socketPath)
        // SPEC §4: exit within 2 s. Closing normally takes microseconds; this bounds it whatever a peer does.
        let deadline = loop.scheduleTask(in: .milliseconds(1500)) { [weak self] in
            self?.daemon.logger.warning("connections did not close within 1.5 s; stopping anyway")
            self?.signalStopped()
        }
        EventLoopFuture.andAllComplete(closing, on: loop).whenComplete { [weak self] _ in
            deadline.cancel()
            self?.signalStopped()
        }
    }

    private var stopSignalled = false

    private func signalStopped() {
        guard !stopSignalled else { return }
        stopSignalled = true
        daemon.logger.info("segued stopped")
        stopped.signal()
    }

    /// Blocks until the server has stopped, then releases the event loop.
    public func waitUntilStopped() {
        stopped.wait()
        try? group.syncShutdownGracefully()
    }

    // MARK: RealtimeDriver

    public func start(scene: Scene, daemon: Daemon) {
        let interval = Int64(1_000_000_000 / scene.fps)
        let id = scene.id
        let task = loop.scheduleRepeatedTask(initialDelay: .nanoseconds(interval), delay: .nanoseconds(interval)) {
            [weak self, weak scene] _ in
            guard let self, let scene, var entry = self.realtime[id] else { return }
            let wall = FileSystem.monotonicNanoseconds()
            let delta = Double(wall - entry.lastWall) * scene.speed
            entry.lastWall = wall
            self.realtime[id] = entry
            daemon.tickRealtime(scene, elapsedNanoseconds: scene.now + Int64(delta))
        }
        realtime[id] = (task, FileSystem.monotonicNanoseconds())
    }

    public func stop(scene: Scene) {
        realtime[scene.id]?.task.cancel()
        realtime[scene.id] = nil
    }
}
