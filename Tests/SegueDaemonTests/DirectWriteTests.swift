#if canImport(Glibc)
import Glibc
#endif
import Testing

@testable import SegueDaemon
@testable import SegueTransport

/// A long line (a frame event of a big scene) with nothing queued before it is written from the sender's buffer at
/// once; whatever the socket does not take is queued, and the connection's lines still arrive whole and in order.
@Suite("SocketConnection: long lines written directly")
struct DirectWriteTests {
    static func line(_ count: Int, _ fill: UInt8) -> [UInt8] { [UInt8](repeating: fill, count: count) }

    /// Sends a line as the event bus does: through the daemon's connection, which queues itself for the flush.
    static func send(_ bytes: [UInt8], to connection: SocketConnection) {
        guard let client = connection.connection else { return }
        bytes.withUnsafeBufferPointer { client.send(bytes: $0) }
    }

    @Test("a long line that the socket takes whole leaves nothing queued, before any flush")
    func takenWhole() throws {
        let h = try Harness()
        let connection = h.channel.connection
        Self.send(Self.line(SocketConnection.directWriteBytes, 0x61), to: connection)
        #expect(connection.pendingBytes == 0)
        let text = try #require(h.channel.readOutbound())
        #expect(text == String(repeating: "a", count: SocketConnection.directWriteBytes) + "\n")
    }

    @Test("what a reader that does not read leaves over is queued, and lines sent after it follow it")
    func restQueued() throws {
        let h = try Harness()
        h.channel.reading = false
        let connection = h.channel.connection
        let big = Self.line(3 << 20, 0x62)  // more than any socket buffer takes
        Self.send(big, to: connection)
        #expect(connection.pendingBytes > 0)
        #expect(connection.pendingBytes < big.count + 1)  // some of it went out directly
        Self.send(Array("after".utf8), to: connection)
        Self.send(Self.line(20_000, 0x63), to: connection)  // long, but queued: something is before it
        h.channel.reading = true
        let text = try #require(h.channel.readOutbound())
        #expect(text.utf8.count == big.count + 1 + 6 + 20_001)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count == 4)
        #expect(lines[0] == Substring(String(repeating: "b", count: big.count)))
        #expect(lines[1] == "after")
        #expect(lines[2] == Substring(String(repeating: "c", count: 20_000)))
        #expect(lines[3] == "")
    }

    @Test("a long line after a short one still queued waits its turn")
    func afterQueued() throws {
        let h = try Harness()
        let connection = h.channel.connection
        Self.send(Array("first".utf8), to: connection)
        Self.send(Self.line(40_000, 0x64), to: connection)
        #expect(connection.pendingBytes == 6 + 40_001)  // nothing written before the flush
        let text = try #require(h.channel.readOutbound())
        #expect(text == "first\n" + String(repeating: "d", count: 40_000) + "\n")
    }
}
