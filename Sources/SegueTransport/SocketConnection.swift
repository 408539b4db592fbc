#if canImport(Glibc)
import Glibc
#endif
import CEventLoop
import SegueDaemon

/// One client's socket on the `SocketLoop`: splits what it reads into `\n`-terminated lines (a trailing `\r` is
/// dropped) for the daemon, and writes what the daemon sends back.
///
/// Reading: one `read` per readiness into the loop's shared buffer (the loop is level-triggered, so a peer that
/// sent more is read on the next round, after the other ready connections). Lines that arrive whole are handled
/// straight from that buffer; only the start of an unfinished line is copied. A line over `maxLineBytes` gets
/// -32004 and the connection is closed, as soon as the limit is passed, newline or not.
///
/// Writing: lines are gathered in one buffer until the daemon flushes (`Daemon.flushPending`, once per turn of the
/// loop, before it polls), so a request's events and its response leave in one `write` — except a line of
/// `directWriteBytes` or more with nothing queued before it, written at once from the sender's buffer (a frame of a
/// big scene would otherwise be copied whole). What the peer does not take yet stays queued and goes out when the
/// socket is writable again. Over `Daemon.highWatermark` unwritten bytes the connection is not writable (the daemon
/// coalesces frames and stops reading its requests) until it is back under half of that, when the daemon is told
/// (`connectionDrained`).
///
/// Its state is touched only on the loop thread, so its hot fields skip Swift's dynamic exclusivity checks (they were
/// a tenth of the server's own CPU per request).
final class SocketConnection: ConnectionOutput, LoopHandler {
    let fd: Int32
    private unowned(unsafe) let server: Server  // the server owns its connections and outlives them
    private let daemon: Daemon
    private let maxLineBytes: Int
    private var token: UInt64 = 0
    @exclusivity(unchecked) private(set) var connection: ClientConnection?
    /// The start of a line whose newline has not arrived yet.
    @exclusivity(unchecked) private var partial: [UInt8] = []
    /// Queued output; bytes before `written` have been written.
    @exclusivity(unchecked) private var output: [UInt8] = []
    @exclusivity(unchecked) private var written = 0
    @exclusivity(unchecked) private var waitingForWritable = false
    @exclusivity(unchecked) private var readingPaused = false
    @exclusivity(unchecked) private var writable = true
    @exclusivity(unchecked) private var interest: LoopEvents = []
    /// Set while the daemon is being told the connection drained (it writes to it then).
    @exclusivity(unchecked) private var notifying = false
    /// Close once everything queued is written (a graceful shutdown).
    @exclusivity(unchecked) private var closeWhenWritten = false
    @exclusivity(unchecked) private(set) var closed = false

    init(fd: Int32, server: Server, daemon: Daemon, maxLineBytes: Int) {
        self.fd = fd
        self.server = server
        self.daemon = daemon
        self.maxLineBytes = maxLineBytes
        output.reserveCapacity(1024)
    }

    /// Starts watching the socket and makes it a daemon connection; false when the loop would not take it.
    func open(peerUID: UInt32?) -> Bool {
        interest = .readable
        guard let token = server.loop.register(self, fd: fd, events: interest) else { return false }
        self.token = token
        connection = daemon.connect(output: self, peerUID: peerUID)
        return true
    }

    var pendingBytes: Int { output.count - written }
    /// False while its requests are not read (its output is over the high watermark, or it is closing).
    var watchesReads: Bool { !readingPaused && !closed }
    /// True while queued output waits for the socket to take it.
    var watchesWrites: Bool { waitingForWritable && !closed }

    // MARK: ConnectionOutput

    var isWritable: Bool { writable }

    func send(_ line: String) {
        guard !closed else { return }
        var line = line
        line.withUTF8 { output.append(contentsOf: $0) }
        output.append(UInt8(ascii: "\n"))
        if writable, pendingBytes > Daemon.highWatermark { writable = false }
    }

    func send(bytes line: UnsafeBufferPointer<UInt8>) {
        guard !closed else { return }
        var line = line
        if line.count >= SocketConnection.directWriteBytes, pendingBytes == 0, !waitingForWritable {
            // A long line with nothing queued before it (a frame event of a big scene) goes to the socket at once,
            // from the caller's buffer: copying it into `output` first cost a memmove of the whole line, and its
            // storage, per frame. What the socket does not take is queued as usual (the flush writes it later).
            let sent = writeDirect(line)
            if sent > line.count { return }
            line = UnsafeBufferPointer(rebasing: line[sent...])
        }
        output.append(contentsOf: line)
        output.append(UInt8(ascii: "\n"))
        if writable, pendingBytes > Daemon.highWatermark { writable = false }
    }

    /// Lines at least this long are written straight from the sender's buffer when nothing is queued before them.
    static let directWriteBytes = 16 << 10

    /// Writes `line` and its newline with one `sendmsg`, without blocking; returns how many of the line's bytes
    /// (newline included) went out: 0 when none did or the write failed (the flush that follows meets the error).
    private func writeDirect(_ line: UnsafeBufferPointer<UInt8>) -> Int {
        guard let base = line.baseAddress else { return 0 }
        var newline = UInt8(ascii: "\n")
        return withUnsafeMutablePointer(to: &newline) { newlinePointer in
            var parts = (iovec(iov_base: UnsafeMutableRawPointer(mutating: base), iov_len: line.count),
                         iovec(iov_base: UnsafeMutableRawPointer(newlinePointer), iov_len: 1))
            return withUnsafeMutableBytes(of: &parts) { raw in
                var message = msghdr()
                message.msg_iov = raw.baseAddress?.assumingMemoryBound(to: iovec.self)
                message.msg_iovlen = 2
                while true {
                    let count = sendmsg(fd, &message, Int32(MSG_NOSIGNAL | MSG_DONTWAIT))
                    if count >= 0 { return count }
                    if errno != EINTR { return 0 }
                }
            }
        }
    }

    func flush() {
        guard !closed, pendingBytes > 0, !waitingForWritable else { return }
        writeOut()
        afterWrite()
    }

    func close() {
        flush()
        closeNow()
    }

    // MARK: Readiness

    func ready(_ events: LoopEvents) {
        if events.contains(.writable), !closed {
            writeOut()
            afterWrite()
        }
        guard !closed else { return }
        if events.contains(.readable) {
            readOnce()
        } else if !events.isDisjoint(with: [.hangUp, .error]) {
            // Gone while its requests were not being read (it was not reading its output either): nothing to save.
            closeNow()
        }
    }

    private func readOnce() {
        let buffer = server.readBuffer
        let count = read(fd, buffer.baseAddress, buffer.count)
        if count > 0 {
            received(UnsafeBufferPointer(rebasing: buffer[0..<count]))
            return
        }
        if count < 0, errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR { return }
        guard count == 0, let connection else { return closeNow() }  // a reset: nobody to answer
        // End of file: the client shut down its side (socat does after its input) and may still read. A last line
        // without its newline still counts; answers still queued, and transition.wait answers still to come, are
        // written before the connection closes — for up to `halfCloseLimit` (a full close ends it at once).
        if !partial.isEmpty {
            let line = partial
            partial.removeAll()
            line.withUnsafeBufferPointer { handleLine($0, connection) }
        }
        guard !closed else { return }
        readingPaused = true
        closeWhenWritten = true
        updateInterest()
        if readyToClose { return closeNow() }
        server.loop.schedule(in: SocketConnection.halfCloseLimit) { [weak self] in self?.closeNow() }
    }

    /// How long a client that shut down its sending side is kept for the answers it is owed.
    static let halfCloseLimit: Int64 = 60_000_000_000

    /// Nothing queued and no transition.wait of this connection pending.
    private var readyToClose: Bool {
        guard pendingBytes == 0 else { return false }
        guard let connection else { return true }
        return connection.owedAnswers == 0
    }

    /// Frames and handles the bytes just read (the read buffer's, valid during the call).
    func received(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard !closed, let connection else { return }
        if partial.isEmpty {
            let rest = handleLines(in: bytes, connection)
            guard !closed else { return }
            if rest.count > maxLineBytes { return refuseLongLine() }
            if !rest.isEmpty { partial.append(contentsOf: rest) }
        } else {
            partial.append(contentsOf: bytes)
            // The held part has no newline: unless the new bytes bring one, there is nothing to handle (a line sent
            // a byte at a time is searched once, not once per read from its start).
            if let base = bytes.baseAddress, memchr(base, 0x0A, bytes.count) == nil {
                if partial.count > maxLineBytes { refuseLongLine() }
                return
            }
            let data = partial
            let consumed = data.withUnsafeBufferPointer { all in all.count - handleLines(in: all, connection).count }
            guard !closed else { return }
            partial.removeFirst(consumed)
            if partial.count > maxLineBytes { return refuseLongLine() }
        }
        // A client that sends requests and does not read the responses: stop reading its requests until it has
        // read some (over the high watermark), so its unread responses cannot grow without bound.
        if !writable, !readingPaused, !closed {
            readingPaused = true
            updateInterest()
        }
    }

    /// Handles every complete line in `bytes`; returns the unfinished rest (empty when it ended with a newline).
    private func handleLines(in bytes: UnsafeBufferPointer<UInt8>, _ connection: ClientConnection) -> UnsafeBufferPointer<UInt8> {
        guard let base = bytes.baseAddress else { return bytes }
        var start = 0
        while !closed, start < bytes.count,
              let found = memchr(base + start, 0x0A, bytes.count - start) {
            let newline = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            var length = newline - start
            guard length <= maxLineBytes else {
                refuseLongLine()
                return UnsafeBufferPointer(start: base + newline, count: 0)
            }
            if length > 0, base[newline - 1] == UInt8(ascii: "\r") { length -= 1 }
            handleLine(UnsafeBufferPointer(start: base + start, count: length), connection)
            start = newline + 1
        }
        return UnsafeBufferPointer(rebasing: bytes[start...])
    }

    private func handleLine(_ line: UnsafeBufferPointer<UInt8>, _ connection: ClientConnection) {
        daemon.serve(line: line, from: connection)
    }

    private func refuseLongLine() {
        guard !closed else { return }
        partial.removeAll()
        let rpc = RPCError.limit("line longer than \(maxLineBytes) bytes (limits.max_line_bytes); closing", limit: maxLineBytes)
        send(Daemon.refusal(rpc))
        daemon.logger.warning("closing a connection: line over limits.max_line_bytes",
                              metadata: ["connection.id": "\(connection?.id ?? 0)"])
        close()
    }

    // MARK: Writing

    private func writeOut() {
        while written < output.count {
            let count = output.withUnsafeBytes { raw in
                Glibc.send(fd, raw.baseAddress.map { $0 + written }, raw.count - written, Int32(MSG_NOSIGNAL))
            }
            if count > 0 {
                written += count
            } else if count < 0, errno == EINTR {
                continue
            } else if count < 0, errno == EAGAIN || errno == EWOULDBLOCK {
                break
            } else {
                closeNow()  // the peer is gone (EPIPE, ECONNRESET)
                return
            }
        }
        if written == output.count {
            written = 0
            if output.capacity > 64 << 10 {
                output = []  // don't keep a burst's memory for good
                output.reserveCapacity(1024)
            } else {
                output.removeAll(keepingCapacity: true)
            }
        } else if written > 64 << 10, written * 2 > output.count {
            output.removeFirst(written)
            written = 0
        }
        let blocked = pendingBytes > 0
        if blocked != waitingForWritable {
            waitingForWritable = blocked
            updateInterest()
        }
    }

    /// After bytes left: back under the low watermark, the daemon sends what it held back and reading resumes;
    /// a connection closing gracefully closes once all is written.
    private func afterWrite() {
        guard !closed, !notifying else { return }
        if closeWhenWritten {
            if readyToClose { closeNow() }
            return  // closing: no more reading, and nothing held back is owed any more
        }
        // The daemon may queue past the high watermark again while it is told, and that may all go out at once:
        // ask again until the connection stays writable or really has a backlog (EPOLLOUT then comes back here).
        while !closed, !writable, pendingBytes <= Daemon.highWatermark / 2 {
            writable = true
            notifying = true
            if let connection { daemon.connectionDrained(connection) }
            notifying = false
        }
        if writable, readingPaused, !closed {
            readingPaused = false
            updateInterest()
        }
    }

    private func updateInterest() {
        guard !closed else { return }
        var wanted: LoopEvents = []
        if !readingPaused { wanted.insert(.readable) }
        if waitingForWritable { wanted.insert(.writable) }
        guard wanted != interest else { return }
        interest = wanted
        server.loop.update(fd: fd, token: token, events: wanted)
    }

    // MARK: Closing

    /// Writes what is queued, then closes (at once when it all went out; else once it has, or the shutdown deadline).
    func closeAfterWriting() {
        flush()
        guard !closed else { return }
        if pendingBytes == 0 { return closeNow() }
        closeWhenWritten = true
        readingPaused = true
        updateInterest()
    }

    /// Closes the socket and ends the daemon connection (its subscriptions die with it).
    func closeNow() {
        guard !closed else { return }
        closed = true
        server.loop.unregister(fd: fd, token: token)
        Glibc.close(fd)
        output = []
        partial = []
        if let connection { daemon.disconnect(connection) }
        connection = nil
        server.connectionClosed(self)
    }
}
