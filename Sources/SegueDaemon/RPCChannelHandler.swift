import NIOCore

/// Writes a connection's lines to its channel.
final class ChannelOutput: ConnectionOutput {
    let channel: any Channel

    init(channel: any Channel) { self.channel = channel }

    var isWritable: Bool { channel.isWritable }

    func send(_ line: String) {
        var buffer = channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        channel.write(buffer, promise: nil)
    }

    func flush() { channel.flush() }

    func close() {
        channel.flush()
        channel.close(promise: nil)
    }
}

/// The per-connection handler: each line goes to the daemon, the response (if any) comes back after the events
/// the request caused. Errors are caught per connection so one bad client never stops the server.
final class RPCChannelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let daemon: Daemon
    let peerUID: UInt32?
    private var connection: ClientConnection?
    var onClose: ((ClientConnection) -> Void)?

    init(daemon: Daemon, peerUID: UInt32?) {
        self.daemon = daemon
        self.peerUID = peerUID
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { register(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        register(context)
        context.fireChannelActive()
    }

    private func register(_ context: ChannelHandlerContext) {
        guard connection == nil else { return }
        connection = daemon.connect(output: ChannelOutput(channel: context.channel), peerUID: peerUID)
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let line = unwrapInboundIn(data)
        guard let connection else { return }
        let response = line.withUnsafeReadableBytes { raw in
            daemon.handle(line: raw.bindMemory(to: UInt8.self), from: connection)
        }
        if let response { connection.send(response) }
        daemon.flushAll()
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable, let connection { daemon.connectionDrained(connection) }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        if let connection {
            daemon.disconnect(connection)
            onClose?(connection)
        }
        connection = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        if let tooLong = error as? LineTooLongError {
            let rpc = RPCError.limit("line longer than \(tooLong.limit) bytes (limits.max_line_bytes); closing", limit: tooLong.limit)
            var buffer = context.channel.allocator.buffer(capacity: 256)
            buffer.writeString(Daemon.response(id: .null, error: rpc))
            buffer.writeInteger(UInt8(ascii: "\n"))
            context.writeAndFlush(NIOAny(buffer), promise: nil)
            daemon.logger.warning("closing a connection: line over limits.max_line_bytes")
        }
        context.close(promise: nil)
    }
}
