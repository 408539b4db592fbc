#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import NIOCore

/// Writes a connection's lines to its channel. Lines are gathered in one buffer until the daemon flushes (after
/// a request, a tick), so a request's events and its response leave in one write, and the buffer is reused: once
/// NIO has written it out it is ours alone again, and the next request appends to it without allocating.
final class ChannelOutput: ConnectionOutput {
    let channel: any Channel
    private var pending: ByteBuffer

    init(channel: any Channel) {
        self.channel = channel
        pending = channel.allocator.buffer(capacity: 1024)
    }

    var isWritable: Bool { channel.isWritable }

    func send(_ line: String) {
        pending.writeString(line)
        pending.writeInteger(UInt8(ascii: "\n"))
    }

    func flush() {
        guard pending.readableBytes > 0 else { return }
        channel.writeAndFlush(pending, promise: nil)
        if pending.capacity > 64 << 10 {
            pending = channel.allocator.buffer(capacity: 1024)  // don't keep a burst's memory for good
        } else {
            pending.clear()  // copies only if NIO still holds the bytes (a slow reader)
        }
    }

    func close() {
        flush()
        channel.close(promise: nil)
    }
}

/// The per-connection handler: splits the byte stream into `\n`-terminated lines (a trailing `\r` is dropped), hands
/// each line to the daemon, and writes the response (if any) after the events the request caused. Errors are caught
/// per connection so one bad client never stops the server.
///
/// It frames the lines itself instead of sitting behind a `ByteToMessageHandler`: a request that arrives whole in
/// one read (nearly all of them) is handled straight from the read buffer, with no copy and one pipeline hop fewer
/// on the path every method takes. A line over `maxLineBytes` gets -32004 and the connection is closed, as soon as
/// the limit is passed, newline or not.
final class RPCChannelHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    let daemon: Daemon
    let peerUID: UInt32?
    let maxLineBytes: Int
    private var connection: ClientConnection?
    /// The start of a line whose newline has not arrived yet.
    private var partial: ByteBuffer?
    private var closing = false
    var onClose: ((ClientConnection) -> Void)?

    init(daemon: Daemon, peerUID: UInt32?, maxLineBytes: Int) {
        self.daemon = daemon
        self.peerUID = peerUID
        self.maxLineBytes = maxLineBytes
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
        guard !closing else { return }
        var buffer = unwrapInboundIn(data)
        if var pending = partial {
            partial = nil
            pending.writeBuffer(&buffer)
            buffer = pending
        }
        while !closing, let newline = RPCChannelHandler.newline(in: buffer) {
            var length = newline - buffer.readerIndex
            guard length <= maxLineBytes else { return refuseLongLine(context) }
            if length > 0, buffer.getInteger(at: newline - 1, as: UInt8.self) == UInt8(ascii: "\r") { length -= 1 }
            handleLine(buffer, at: buffer.readerIndex, length: length)
            buffer.moveReaderIndex(to: newline + 1)
        }
        if closing { return }
        if buffer.readableBytes > maxLineBytes { return refuseLongLine(context) }
        if buffer.readableBytes > 0 { partial = buffer }
        daemon.flushAll()
        // A client that sends requests and does not read the responses: stop reading its requests until it has
        // read some (over the high watermark), so its unread responses cannot grow without bound.
        if !context.channel.isWritable, !readingPaused {
            readingPaused = true
            context.channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        }
    }

    /// Set while the peer's unread output is over the high watermark and its requests are not read.
    private var readingPaused = false

    /// The index of the first `\n` in the readable bytes.
    static func newline(in buffer: ByteBuffer) -> Int? {
        buffer.withUnsafeReadableBytes { raw -> Int? in
            guard let base = raw.baseAddress, let found = memchr(base, 0x0A, raw.count) else { return nil }
            return buffer.readerIndex + (UnsafeRawPointer(found) - base)
        }
    }

    private func handleLine(_ buffer: ByteBuffer, at index: Int, length: Int) {
        guard let connection else { return }
        let response = buffer.withUnsafeReadableBytes { raw in
            let offset = index - buffer.readerIndex
            let line = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
            return daemon.handle(line: line.bindMemory(to: UInt8.self), from: connection)
        }
        if let response { connection.send(response) }
    }

    private func refuseLongLine(_ context: ChannelHandlerContext) {
        closing = true
        partial = nil
        let rpc = RPCError.limit("line longer than \(maxLineBytes) bytes (limits.max_line_bytes); closing", limit: maxLineBytes)
        var out = context.channel.allocator.buffer(capacity: 256)
        out.writeString(Daemon.response(id: .null, error: rpc))
        out.writeInteger(UInt8(ascii: "\n"))
        daemon.flushAll()
        context.writeAndFlush(NIOAny(out), promise: nil)
        daemon.logger.warning("closing a connection: line over limits.max_line_bytes",
                              metadata: ["connection.id": "\(connection?.id ?? 0)"])
        context.close(promise: nil)
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable {
            if let connection { daemon.connectionDrained(connection) }
            if readingPaused {
                readingPaused = false
                context.channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
            }
        }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        // A last line without its newline still counts (a client may write one request and shut down).
        if let pending = partial, !closing, pending.readableBytes > 0 {
            handleLine(pending, at: pending.readerIndex, length: pending.readableBytes)
        }
        partial = nil
        if let connection {
            daemon.disconnect(connection)
            onClose?(connection)
        }
        connection = nil
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        context.close(promise: nil)
    }
}
