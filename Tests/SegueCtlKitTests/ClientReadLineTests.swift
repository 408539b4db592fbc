#if canImport(Glibc)
import Glibc
#endif
import Foundation
import SegueClient
import Testing

/// `SegueClient.readLine` splits what the socket delivers into lines, whatever the reads' sizes: lines longer than
/// its buffer, many lines in one read, a line spread over many reads, multi-byte characters cut between reads.
@Suite("SegueClient.readLine")
struct ClientReadLineTests {
    /// A listening socket in a fresh folder; the peer's side of the client's connection comes from `accept`.
    final class Listener {
        let folder: URL
        let path: String
        let fd: Int32

        init() throws {
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("readline-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            path = folder.path + "/s.sock"
            fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in path.utf8.enumerated() { raw[i] = b }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                    bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
                }
            }
            guard bound == 0, listen(fd, 4) == 0 else { throw POSIXError(.EADDRINUSE) }
        }

        deinit {
            close(fd)
            try? FileManager.default.removeItem(at: folder)
        }
    }

    /// Writes `pieces` one `send` each from another thread (a slow peer: the client reads them as they come).
    static func serve(_ pieces: [[UInt8]], on peer: Int32) -> Thread {
        let thread = Thread {
            for piece in pieces {
                var offset = 0
                while offset < piece.count {
                    let n = piece[offset...].withUnsafeBytes { send(peer, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                    guard n > 0 else { return }
                    offset += n
                }
            }
        }
        thread.start()
        return thread
    }

    static func lines(received pieces: [[UInt8]], count: Int) throws -> [String] {
        let listener = try Listener()
        let client = try SegueClient(socketPath: listener.path)
        let peer = accept(listener.fd, nil, nil)
        defer { close(peer) }
        _ = serve(pieces, on: peer)
        var lines: [String] = []
        for _ in 0..<count {
            guard let line = try client.readLine(timeoutMs: 10_000) else { break }
            lines.append(line)
        }
        return lines
    }

    @Test("lines of every length come back whole and in order, however the bytes were cut")
    func wholeLines() throws {
        let long = String(repeating: "0123456789abcdef", count: 20_000)  // 320 000 bytes: several buffers
        let expected = ["first", "", long, "é ü \u{1F600}", "short", long + "x", "last"]
        let bytes = Array(expected.joined(separator: "\n").utf8) + [0x0A]
        // Cut at awkward places: one byte at a time around the emoji, big runs elsewhere.
        var pieces: [[UInt8]] = []
        var offset = 0
        let sizes = [3, 1, 1, 70_000, 65_536, 1, 200_000, 7, 1, 1, 1, 1, 1, 1, 1, 50_000]
        var i = 0
        while offset < bytes.count {
            let size = min(sizes[i % sizes.count], bytes.count - offset)
            pieces.append(Array(bytes[offset..<offset + size]))
            offset += size
            i += 1
        }
        #expect(try Self.lines(received: pieces, count: expected.count) == expected)
    }

    @Test("many lines in one read are returned one per call")
    func manyInOneRead() throws {
        let expected = (0..<5_000).map { "line \($0)" }
        let bytes = Array((expected.joined(separator: "\n") + "\n").utf8)
        #expect(try Self.lines(received: [bytes], count: expected.count) == expected)
    }

    @Test("a line can be looked at as bytes, without a String: the same lines, in order")
    func asBytes() throws {
        let expected = ["a", "", String(repeating: "z", count: 150_000), "é"]
        let bytes = Array((expected.joined(separator: "\n") + "\n").utf8)
        let listener = try Listener()
        let client = try SegueClient(socketPath: listener.path)
        let peer = accept(listener.fd, nil, nil)
        defer { close(peer) }
        _ = Self.serve([Array(bytes[..<70_000]), Array(bytes[70_000...])], on: peer)
        var seen: [[UInt8]] = []
        for _ in expected {
            guard let line = try client.readLine(timeoutMs: 10_000, { Array($0) }) else { break }
            seen.append(line)
        }
        #expect(seen == expected.map { Array($0.utf8) })
    }

    @Test("no whole line before the timeout: nil, and the partial line is kept for later")
    func partialThenTimeout() throws {
        let listener = try Listener()
        let client = try SegueClient(socketPath: listener.path)
        let peer = accept(listener.fd, nil, nil)
        defer { close(peer) }
        _ = Array("par".utf8).withUnsafeBytes { send(peer, $0.baseAddress, $0.count, 0) }
        #expect(try client.readLine(timeoutMs: 50) == nil)
        _ = Array("tial\nnext\n".utf8).withUnsafeBytes { send(peer, $0.baseAddress, $0.count, 0) }
        #expect(try client.readLine(timeoutMs: 10_000) == "partial")
        #expect(try client.readLine(timeoutMs: 10_000) == "next")
    }
}
