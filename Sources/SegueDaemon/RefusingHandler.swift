import NIOCore

/// Answers a connection the daemon will not serve (over `limits.max_connections`) with one error line, then closes.
final class RefusingHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let line: String

    init(line: String) { self.line = line }

    func channelActive(context: ChannelHandlerContext) {
        var buffer = context.channel.allocator.buffer(capacity: line.utf8.count + 1)
        buffer.writeString(line)
        buffer.writeInteger(UInt8(ascii: "\n"))
        context.writeAndFlush(NIOAny(buffer), promise: nil)
        context.close(promise: nil)
    }

    /// Whatever the peer sends is ignored.
    func channelRead(context: ChannelHandlerContext, data: NIOAny) {}
}
