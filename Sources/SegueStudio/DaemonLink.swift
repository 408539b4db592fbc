import NIOCore
import NIOPosix

/// One page's connection to the daemon's Unix socket, on the studio's event loop: lines in, lines out, and when
/// the daemon goes away (a restart), a new connection every quarter second until it is back. Confined to its event
/// loop (hence `@unchecked Sendable`: NIO's callbacks all run there).
final class DaemonLink: @unchecked Sendable {
    let socketPath: String
    let eventLoop: any EventLoop
    /// A line from the daemon (a response or an event).
    var onLine: (String) -> Void = { _ in }
    /// Connected (true) or lost (false); each connect after the first is a new daemon session.
    var onState: (Bool) -> Void = { _ in }

    private var channel: (any Channel)?
    private var stopped = false
    /// The state last reported through `onState` (nil before the first).
    private var reported: Bool?
    static let retryDelay = TimeAmount.milliseconds(250)

    init(socketPath: String, eventLoop: any EventLoop) {
        self.socketPath = socketPath
        self.eventLoop = eventLoop
    }

    var isConnected: Bool { channel != nil }

    func start() { connect() }

    /// Sends `lines` (when connected), then closes the connection and stops reconnecting (the page went away).
    func stop(sending lines: [String] = []) {
        stopped = true
        guard let channel else { return }
        self.channel = nil
        for line in lines {
            var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
            buffer.writeString(line)
            buffer.writeInteger(UInt8(ascii: "\n"))
            channel.write(buffer, promise: nil)
        }
        channel.writeAndFlush(channel.allocator.buffer(capacity: 0)).whenComplete { _ in channel.close(promise: nil) }
    }

    /// Sends one line (a newline is added); false when not connected.
    @discardableResult
    func send(_ line: String) -> Bool {
        guard let channel else { return false }
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        channel.writeAndFlush(buffer, promise: nil)
        return true
    }

    private func connect() {
        guard !stopped else { return }
        let link = self
        ClientBootstrap(group: eventLoop)
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(LineReader(link: link))
                }
            }
            .connect(unixDomainSocketPath: socketPath)
            .whenComplete { result in
                switch result {
                case .success(let channel):
                    if link.stopped {
                        channel.close(promise: nil)
                        return
                    }
                    link.channel = channel
                    link.report(true)
                case .failure:
                    // Said once (the page shows that no daemon answers), then retried quietly.
                    link.report(false)
                    link.retry()
                }
            }
    }

    private func report(_ connected: Bool) {
        guard reported != connected else { return }
        reported = connected
        onState(connected)
    }

    private func retry() {
        guard !stopped else { return }
        let link = self
        eventLoop.scheduleTask(in: DaemonLink.retryDelay) { link.connect() }
    }

    /// The daemon closed the connection (or broke it).
    fileprivate func lost() {
        guard channel != nil else { return }
        channel = nil
        report(false)
        retry()
    }

    /// Splits the daemon's bytes into lines.
    private final class LineReader: ChannelInboundHandler {
        typealias InboundIn = ByteBuffer
        let link: DaemonLink
        private var pending = ByteBuffer()
        /// A line longer than this (the daemon's pictures are a few MB) breaks the connection.
        static let maxLine = 64 << 20

        init(link: DaemonLink) { self.link = link }

        func channelRead(context: ChannelHandlerContext, data: NIOAny) {
            var incoming = unwrapInboundIn(data)
            pending.writeBuffer(&incoming)
            while let newline = pending.readableBytesView.firstIndex(of: UInt8(ascii: "\n")) {
                let length = newline - pending.readerIndex
                let line = pending.readString(length: length) ?? ""
                pending.moveReaderIndex(forwardBy: 1)
                link.onLine(line)
            }
            if pending.readableBytes > LineReader.maxLine {
                context.close(promise: nil)
            }
            pending.discardReadBytes()
        }

        func channelInactive(context: ChannelHandlerContext) {
            link.lost()
            context.fireChannelInactive()
        }

        func errorCaught(context: ChannelHandlerContext, error: any Error) {
            context.close(promise: nil)
        }
    }
}
