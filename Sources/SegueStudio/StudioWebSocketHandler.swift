import NIOCore
import NIOWebSocket

/// The page's WebSocket: text messages to and from its `PageSession`; pings answered; a close answered and the
/// connection (and with it the page's daemon connection) closed.
final class StudioWebSocketHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    let socketPath: String
    let seats: SessionSeats
    private var session: PageSession?
    private var seated = false
    private var fragments: ByteBuffer?
    /// A message from the page longer than this closes the connection (requests are small).
    static let maxMessage = 1 << 20

    init(socketPath: String, seats: SessionSeats) {
        self.socketPath = socketPath
        self.seats = seats
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // Each session holds a daemon connection: past the limit a page would use up the daemon's, so it is turned
        // away at once, with the close code for "try again later" (RFC 6455 §7.4.1 and IANA's registry: 1013).
        guard seats.take() else {
            close(context, code: .unknown(1013), reason: "studio full (\(seats.limit) sessions)")
            return
        }
        seated = true
        let channel = context.channel
        let link = DaemonLink(socketPath: socketPath, eventLoop: context.eventLoop)
        let session = PageSession(link: link) { text in
            var buffer = channel.allocator.buffer(capacity: text.utf8.count)
            buffer.writeString(text)
            channel.writeAndFlush(WebSocketFrame(fin: true, opcode: .text, data: buffer), promise: nil)
        }
        self.session = session
        session.start()
    }

    func channelInactive(context: ChannelHandlerContext) {
        session?.close()
        session = nil
        if seated {
            seated = false
            seats.give()
        }
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        switch frame.opcode {
        case .text, .continuation:
            var data = frame.unmaskedData
            if frame.opcode == .text { fragments = ByteBuffer() }
            guard fragments != nil else { return }
            fragments?.writeBuffer(&data)
            if (fragments?.readableBytes ?? 0) > StudioWebSocketHandler.maxMessage {
                close(context, code: .messageTooLarge)
                return
            }
            if frame.fin, let whole = fragments {
                fragments = nil
                // The page's bytes are what the daemon gets: text that is not UTF-8 is refused, not repaired.
                guard let text = String(validating: whole.readableBytesView, as: UTF8.self) else {
                    session?.refuse(RelayPolicy.error(id: .null, code: -32700, "the message is not UTF-8"))
                    return
                }
                session?.received(text)
            }
        case .ping:
            let pong = WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)
            context.writeAndFlush(wrapOutboundOut(pong), promise: nil)
        case .connectionClose:
            close(context, code: .normalClosure)
        case .binary:
            close(context, code: .unacceptableData)
        default:
            break
        }
    }

    private func close(_ context: ChannelHandlerContext, code: WebSocketErrorCode, reason: String = "") {
        var data = context.channel.allocator.buffer(capacity: 2 + reason.utf8.count)
        data.write(webSocketErrorCode: code)
        data.writeString(reason)
        let frame = WebSocketFrame(fin: true, opcode: .connectionClose, data: data)
        let channel = context.channel
        context.writeAndFlush(wrapOutboundOut(frame)).whenComplete { _ in channel.close(promise: nil) }
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
