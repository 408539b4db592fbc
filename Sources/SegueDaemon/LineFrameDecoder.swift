import NIOCore

/// A line longer than `limits.max_line_bytes`.
public struct LineTooLongError: Error, Sendable {
    public let limit: Int
}

/// Splits the byte stream into `\n`-terminated lines (a trailing `\r` is dropped), refusing lines over a limit.
public struct LineFrameDecoder: ByteToMessageDecoder {
    public typealias InboundOut = ByteBuffer

    public let maxLength: Int
    /// How far the current buffer has been searched for a newline already.
    private var scanned = 0

    public init(maxLength: Int) { self.maxLength = maxLength }

    public mutating func decode(context: ChannelHandlerContext, buffer: inout ByteBuffer) throws -> DecodingState {
        let view = buffer.readableBytesView
        let start = view.index(view.startIndex, offsetBy: min(scanned, view.count))
        guard let newline = view[start...].firstIndex(of: UInt8(ascii: "\n")) else {
            scanned = view.count
            if view.count > maxLength { throw LineTooLongError(limit: maxLength) }
            return .needMoreData
        }
        scanned = 0
        var length = newline - view.startIndex
        if length > maxLength { throw LineTooLongError(limit: maxLength) }
        if length > 0, view[newline - 1] == UInt8(ascii: "\r") { length -= 1 }
        let line = buffer.getSlice(at: buffer.readerIndex, length: length) ?? ByteBuffer()
        buffer.moveReaderIndex(forwardBy: newline - view.startIndex + 1)
        context.fireChannelRead(wrapInboundOut(line))
        return .continue
    }

    public mutating func decodeLast(context: ChannelHandlerContext, buffer: inout ByteBuffer, seenEOF: Bool) throws
        -> DecodingState
    {
        while try decode(context: context, buffer: &buffer) == .continue {}
        // A last line without its newline still counts.
        if buffer.readableBytes > 0 {
            let line = buffer.readSlice(length: buffer.readableBytes) ?? ByteBuffer()
            context.fireChannelRead(wrapInboundOut(line))
        }
        return .needMoreData
    }
}
