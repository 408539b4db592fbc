import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// The studio's HTTP + WebSocket server on 127.0.0.1 (never any other address): the page at `/?token=…`, its
/// WebSocket at `/ws?token=…`, both behind the `RequestGate`. One event loop thread runs everything; each page gets
/// its own connection to the daemon's socket.
public final class StudioServer: Sendable {
    public let port: Int
    public let token: String
    private let group: MultiThreadedEventLoopGroup
    private let channel: any Channel

    /// Binds 127.0.0.1:`port` (0: a free one) and starts serving, at most `maxSessions` pages at once.
    public init(socketPath: String, port: Int, token: String, maxSessions: Int = SessionSeats.defaultLimit,
                log: @escaping @Sendable (String) -> Void) throws {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        // Counted on the one event loop every connection runs on.
        let seats = SessionSeats(limit: maxSessions)
        let movies = MovieJobs()
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .childChannelInitializer { channel in
                // The port is known only after binding (port 0): each connection reads it from its own address.
                let gate = RequestGate(token: token, port: channel.localAddress?.port ?? port)
                let upgrader = NIOWebSocketServerUpgrader(
                    maxFrameSize: StudioWebSocketHandler.maxMessage,
                    automaticErrorHandling: true,
                    // The HTTP handler in front has checked the gate: only allowed upgrades of /ws reach here.
                    shouldUpgrade: { channel, _ in channel.eventLoop.makeSucceededFuture(HTTPHeaders()) },
                    upgradePipelineHandler: { channel, _ in
                        channel.eventLoop.makeCompletedFuture {
                            try channel.pipeline.syncOperations.addHandler(StudioWebSocketHandler(socketPath: socketPath, seats: seats))
                        }
                    })
                return channel.eventLoop.makeCompletedFuture {
                    // Built by hand (not configureHTTPServerPipeline) so that the gate answers before the upgrader
                    // sees a request: a refused upgrade gets its 403 like any other request.
                    let encoder = HTTPResponseEncoder()
                    let decoder = ByteToMessageHandler(HTTPRequestDecoder(leftOverBytesStrategy: .forwardBytes))
                    let http = StudioHTTPHandler(gate: gate, page: StudioPage.html, socketPath: socketPath,
                                                 movies: movies, log: log)
                    let upgrade = HTTPServerUpgradeHandler(
                        upgraders: [upgrader], httpEncoder: encoder, extraHTTPHandlers: [decoder, http],
                        upgradeCompletionHandler: { _ in })
                    try channel.pipeline.syncOperations.addHandlers([encoder, decoder, http, upgrade])
                }
            }
        let channel: any Channel
        do {
            channel = try bootstrap.bind(host: "127.0.0.1", port: port).wait()
        } catch {
            try? group.syncShutdownGracefully()
            throw error
        }
        self.port = channel.localAddress?.port ?? port
        self.token = token
        self.group = group
        self.channel = channel
    }

    /// The page's address, token included.
    public var url: String { "http://127.0.0.1:\(port)/?token=\(token)" }

    /// Serves until the server is closed (Ctrl-C ends the process).
    public func wait() throws {
        try channel.closeFuture.wait()
    }

    public func close() {
        channel.close(promise: nil)
        try? group.syncShutdownGracefully()
    }
}
