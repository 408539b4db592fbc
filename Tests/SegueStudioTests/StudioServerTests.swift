import Foundation
import SegueJSON
import Testing

@testable import SegueStudio

#if canImport(Glibc)
import Glibc
#endif

/// The real server on 127.0.0.1, spoken to with plain sockets, in front of a stand-in daemon on a Unix socket that
/// answers every line with `{"jsonrpc": "2.0", "id": <its id>, "result": "pong"}` and can hang up (a daemon restart).
@Suite("The studio's server over real sockets")
struct StudioServerTests {
    @Test("403 without the token or with a foreign Origin; the page with it; 404 elsewhere; 400 for /ws without upgrade")
    func http() throws {
        let daemon = try FakeDaemon()
        let server = try StudioServer(socketPath: daemon.path, port: 0, token: "t0k3n", log: { _ in })
        defer { server.close() }
        let host = "127.0.0.1:\(server.port)"
        #expect(try Raw.get(server.port, "/", host: host).hasPrefix("HTTP/1.1 403"))
        #expect(try Raw.get(server.port, "/?token=nope", host: host).hasPrefix("HTTP/1.1 403"))
        #expect(try Raw.get(server.port, "/?token=t0k3n", host: "attacker.example:\(server.port)").hasPrefix("HTTP/1.1 403"))
        #expect(try Raw.get(server.port, "/?token=t0k3n", host: host, origin: "http://attacker.example")
                .hasPrefix("HTTP/1.1 403"))
        let page = try Raw.get(server.port, "/?token=t0k3n", host: host)
        #expect(page.hasPrefix("HTTP/1.1 200"))
        #expect(page.contains("Content-Security-Policy: default-src 'none'"))
        #expect(page.contains("<title>segued studio</title>"))
        #expect(try Raw.get(server.port, "/other?token=t0k3n", host: host).hasPrefix("HTTP/1.1 404"))
        #expect(try Raw.get(server.port, "/ws?token=t0k3n", host: host).hasPrefix("HTTP/1.1 400"))
        #expect(try Raw.get(server.port, "/ws", host: host, upgrade: true).hasPrefix("HTTP/1.1 403"))
        #expect(server.url == "http://127.0.0.1:\(server.port)/?token=t0k3n")
    }

    @Test("the WebSocket relays requests and answers, refuses what the policy refuses, and follows a daemon restart")
    func relay() throws {
        let daemon = try FakeDaemon()
        let server = try StudioServer(socketPath: daemon.path, port: 0, token: "t0k3n", log: { _ in })
        defer { server.close() }
        let ws = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: "localhost:\(server.port)")
        defer { close(ws.fd) }
        let hello = try ws.receive()
        #expect(hello["method"] == "studio.daemon" && hello["params"]?["connected"] == true
                && hello["params"]?["session"] == 1)
        try ws.send(#"{"jsonrpc":"2.0","id":7,"method":"daemon.ping"}"#)
        #expect(try ws.receive() == ["jsonrpc": "2.0", "id": 7, "result": "pong"])
        try ws.send(#"{"jsonrpc":"2.0","id":8,"method":"daemon.shutdown"}"#)
        let refused = try ws.receive()
        #expect(refused["id"] == 8 && refused["error"]?["code"] == -32601)
        #expect(daemon.lines == [#"{"jsonrpc":"2.0","id":7,"method":"daemon.ping"}"#])

        daemon.hangUp()
        let lost = try ws.receive()
        #expect(lost["method"] == "studio.daemon" && lost["params"]?["connected"] == false)
        let back = try ws.receive()
        #expect(back["params"]?["connected"] == true && back["params"]?["session"] == 2)
        try ws.send(#"{"jsonrpc":"2.0","id":9,"method":"daemon.ping"}"#)
        #expect(try ws.receive() == ["jsonrpc": "2.0", "id": 9, "result": "pong"])
    }

    @Test("with no daemon yet, the page is told so once, and connected when one appears")
    func noDaemonYet() throws {
        let path = NSTemporaryDirectory() + "nd-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock"
        let server = try StudioServer(socketPath: path, port: 0, token: "t0k3n", log: { _ in })
        defer { server.close() }
        let ws = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: "127.0.0.1:\(server.port)")
        defer { close(ws.fd) }
        let down = try ws.receive()
        #expect(down["method"] == "studio.daemon" && down["params"]?["connected"] == false
                && down["params"]?["session"] == 0)
        try ws.send(#"{"jsonrpc":"2.0","id":3,"method":"daemon.ping"}"#)
        let refused = try ws.receive()
        #expect(refused["id"] == 3 && refused["error"]?["code"] == -32000)
        let daemon = try FakeDaemon(path: path)
        let up = try ws.receive()
        #expect(up["params"]?["connected"] == true && up["params"]?["session"] == 1)
        try ws.send(#"{"jsonrpc":"2.0","id":4,"method":"daemon.ping"}"#)
        #expect(try ws.receive() == ["jsonrpc": "2.0", "id": 4, "result": "pong"])
        _ = daemon
    }

    @Test("when the page goes away, the scenes it created are destroyed and its daemon connection closes")
    func cleanup() throws {
        let daemon = try FakeDaemon()
        let server = try StudioServer(socketPath: daemon.path, port: 0, token: "t0k3n", log: { _ in })
        defer { server.close() }
        let ws = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: "127.0.0.1:\(server.port)")
        _ = try ws.receive()
        try ws.send(#"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"id":"studio-b"}}"#)
        _ = try ws.receive()
        try ws.send(#"{"jsonrpc":"2.0","id":2,"method":"scene.create","params":{"id":"studio-a"}}"#)
        _ = try ws.receive()
        close(ws.fd)
        #expect(daemon.waitForHangUp())
        #expect(daemon.lines.dropFirst(2) == [
            #"{"jsonrpc":"2.0","id":"studio-close-0","method":"scene.destroy","params":{"scene":"studio-a"}}"#,
            #"{"jsonrpc":"2.0","id":"studio-close-1","method":"scene.destroy","params":{"scene":"studio-b"}}"#,
        ])
    }

    @Test("a page that goes away with a scene.create unanswered: the connection waits for the answer, destroys the scene if it was made, then closes")
    func cleanupPendingCreate() throws {
        for refused in [false, true] {
            let daemon = try FakeDaemon()
            let server = try StudioServer(socketPath: daemon.path, port: 0, token: "t0k3n", log: { _ in })
            defer { server.close() }
            let ws = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: "127.0.0.1:\(server.port)")
            _ = try ws.receive()
            try ws.send(#"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"id":"studio-a"}}"#)
            _ = try ws.receive()
            daemon.holdAnswers(refusing: refused)
            try ws.send(#"{"jsonrpc":"2.0","id":2,"method":"scene.create","params":{"id":"studio-b"}}"#)
            #expect(daemon.waitForLines(2))
            close(ws.fd)
            // The owned scene is destroyed at once; the connection stays for the pending create's answer.
            #expect(daemon.waitForLines(3))
            usleep(100_000)
            #expect(daemon.hangUpCount == 0)
            daemon.releaseAnswers()
            #expect(daemon.waitForHangUp())
            var expected = [#"{"jsonrpc":"2.0","id":"studio-close-0","method":"scene.destroy","params":{"scene":"studio-a"}}"#]
            // A refused create (the id was another page's scene) is not this page's to destroy.
            if !refused {
                expected.append(#"{"jsonrpc":"2.0","id":"studio-close-1","method":"scene.destroy","params":{"scene":"studio-b"}}"#)
            }
            #expect(Array(daemon.lines.dropFirst(2)) == expected, "refused: \(refused)")
        }
    }
}

@Suite("The studio's server against hostile pages, over real sockets")
struct StudioServerHostileTests {
    @Test("a repeated Host, Origin, Upgrade, Sec-WebSocket-Key or Sec-WebSocket-Version line is answered 400",
          arguments: [
              ["Host: 127.0.0.1:PORT"], ["host: attacker.example"], ["HOST: 127.0.0.1:PORT"],
              ["Origin: http://127.0.0.1:PORT", "Origin: http://attacker.example"],
              ["origin: http://127.0.0.1:PORT", "ORIGIN: http://127.0.0.1:PORT"],
              ["Upgrade: websocket"], ["upgrade: WebSocket"], ["Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ=="],
              ["sec-websocket-key: AAAAAAAAAAAAAAAAAAAAAA=="], ["Sec-WebSocket-Version: 13"],
              ["SEC-WEBSOCKET-VERSION: 8"],
          ])
    func repeatedHeaders(_ extra: [String]) throws {
        let daemon = try FakeDaemon()
        let server = try StudioServer(socketPath: daemon.path, port: 0, token: "t0k3n", log: { _ in })
        defer { server.close() }
        let host = "127.0.0.1:\(server.port)"
        let lines = extra.map { $0.replacingOccurrences(of: "PORT", with: String(server.port)) }
        let upgradeLines = lines.filter { !$0.lowercased().hasPrefix("origin") }
        let origin = lines.count == upgradeLines.count ? "http://\(host)" : nil
        // On the WebSocket upgrade (which already has one of each) and, for Host and Origin, on the page.
        let ws = try Raw.get(server.port, "/ws?token=t0k3n", host: host, origin: origin, upgrade: true, extra: lines)
        #expect(ws.hasPrefix("HTTP/1.1 400"), "\(ws.prefix(40))")
        if lines.allSatisfy({ $0.lowercased().hasPrefix("host") || $0.lowercased().hasPrefix("origin") }) {
            let page = try Raw.get(server.port, "/?token=t0k3n", host: host, extra: lines)
            #expect(page.hasPrefix("HTTP/1.1 400"), "\(page.prefix(40))")
        }
        #expect(daemon.lines.isEmpty)
    }

    @Test("headers given once each, and other headers given twice, still upgrade")
    func singleHeaders() throws {
        let daemon = try FakeDaemon()
        let server = try StudioServer(socketPath: daemon.path, port: 0, token: "t0k3n", log: { _ in })
        defer { server.close() }
        let host = "127.0.0.1:\(server.port)"
        let page = try Raw.get(server.port, "/?token=t0k3n", host: host, extra: ["Accept: a", "Accept: b", "X-Host: x"])
        #expect(page.hasPrefix("HTTP/1.1 200"))
        let ws = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: host)
        close(ws.fd)
    }

    @Test("one message holding two requests on two lines reaches the daemon as neither")
    func rawLineBreak() throws {
        let daemon = try FakeDaemon()
        let server = try StudioServer(socketPath: daemon.path, port: 0, token: "t0k3n", log: { _ in })
        defer { server.close() }
        let ws = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: "127.0.0.1:\(server.port)")
        defer { close(ws.fd) }
        _ = try ws.receive()
        try ws.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"daemon.ping\",\"params\":\n{\"jsonrpc\":\"2.0\",\"id\":2,"
            + "\"method\":\"daemon.shutdown\"}\n}")
        let refused = try ws.receive()
        #expect(refused["id"] == 1 && refused["error"]?["code"] == -32600
                && refused["error"]?["message"] == "raw line break in message")
        try ws.send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"daemon.ping\"}\r{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"daemon.ping\"}")
        #expect(try ws.receive()["error"]?["code"] == -32600)
        // What does go through is the page's own bytes, a big id included.
        let big = #"{"jsonrpc":"2.0","id":9007199254740993,  "method":"daemon.ping"}"#
        try ws.send(big)
        _ = try ws.receive()
        #expect(daemon.lines == [big])
    }

    @Test("daemon.info is answered by the studio with version and api; the daemon never sees it")
    func info() throws {
        let daemon = try FakeDaemon()
        let server = try StudioServer(socketPath: daemon.path, port: 0, token: "t0k3n", log: { _ in })
        defer { server.close() }
        let ws = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: "127.0.0.1:\(server.port)")
        defer { close(ws.fd) }
        _ = try ws.receive()
        try ws.send(#"{"jsonrpc":"2.0","id":"i","method":"daemon.info"}"#)
        let answer = try ws.receive()
        #expect(answer["id"] == "i" && answer["result"]?.objectValue?.keys == ["version", "api"])
        #expect(daemon.lines.isEmpty)
    }

    @Test("past --max-sessions, a page is closed right after the upgrade with 1013 'studio full (N sessions)'")
    func maxSessions() throws {
        let daemon = try FakeDaemon()
        let server = try StudioServer(socketPath: daemon.path, port: 0, token: "t0k3n", maxSessions: 2, log: { _ in })
        defer { server.close() }
        let host = "127.0.0.1:\(server.port)"
        let first = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: host)
        _ = try first.receive()
        let second = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: host)
        _ = try second.receive()
        let third = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: host)
        let (opcode, payload) = try third.frame()
        #expect(opcode == 8)
        #expect(payload.count >= 2 && Int(payload[0]) << 8 | Int(payload[1]) == 1013)
        #expect(String(decoding: payload.dropFirst(2), as: UTF8.self) == "studio full (2 sessions)")
        close(third.fd)
        // A page that leaves frees its seat.
        close(first.fd)
        var seated: WebSocketPeer?
        for _ in 0..<200 {
            let next = try Raw.webSocket(server.port, "/ws?token=t0k3n", host: host)
            let (code, _) = try next.frame()
            if code == 1 {
                seated = next
                break
            }
            close(next.fd)
            usleep(20_000)
        }
        #expect(seated != nil)
        if let seated { close(seated.fd) }
        close(second.fd)
    }
}

/// A stand-in daemon: one connection at a time, each line answered with pong under its id.
final class FakeDaemon: @unchecked Sendable {
    let path: String
    private let listener: Int32
    private let lock = NSLock()
    private var received: [String] = []
    private var current: Int32 = -1

    var lines: [String] { lock.withLock { received } }

    init(path: String = NSTemporaryDirectory() + "fd-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).sock") throws {
        self.path = path
        listener = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in path.utf8.enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, listen(listener, 4) == 0 else { throw RawError("cannot listen on \(path)") }
        let me = self
        Thread.detachNewThread { me.serve() }
    }

    deinit {
        close(listener)
        unlink(path)
    }

    private var hangUps = 0
    /// While set, answers are kept back (and, with `refusing`, will be errors) until `releaseAnswers`.
    private var held: [[UInt8]]?
    private var refusing = false

    var hangUpCount: Int { lock.withLock { hangUps } }

    func holdAnswers(refusing: Bool = false) {
        lock.withLock {
            held = []
            self.refusing = refusing
        }
    }

    /// Sends the answers kept back, and answers at once from now on.
    func releaseAnswers() {
        lock.withLock {
            for answer in held ?? [] where current >= 0 {
                _ = answer.withUnsafeBytes { send(current, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            }
            held = nil
        }
    }

    /// Waits (up to 10 s) until `count` lines have come; false if they did not.
    func waitForLines(_ count: Int) -> Bool {
        for _ in 0..<1000 {
            if lines.count >= count { return true }
            usleep(10_000)
        }
        return false
    }

    /// Waits (up to 10 s) until a client has closed a connection; false if none did.
    func waitForHangUp() -> Bool {
        for _ in 0..<1000 {
            if lock.withLock({ hangUps }) > 0 { return true }
            usleep(10_000)
        }
        return false
    }

    /// Closes the current connection; the next one is served as before.
    func hangUp() {
        lock.withLock {
            if current >= 0 { shutdown(current, Int32(SHUT_RDWR)) }
        }
    }

    private func serve() {
        while true {
            let fd = accept(listener, nil, nil)
            guard fd >= 0 else { return }
            lock.withLock { current = fd }
            var pending: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 4096)
            while true {
                let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
                guard n > 0 else { break }
                pending += chunk[0..<n]
                while let newline = pending.firstIndex(of: 10) {
                    let line = String(decoding: pending[..<newline], as: UTF8.self)
                    pending.removeSubrange(...newline)
                    lock.withLock { received.append(line) }
                    let id = (try? JSONParser.parse(line))?["id"] ?? .null
                    let kept: Bool = lock.withLock {
                        guard held != nil else { return false }
                        let body = refusing ? #""error":{"code":-32602,"message":"taken"}"# : #""result":"pong""#
                        held?.append(Array((#"{"jsonrpc":"2.0","id":\#(id.serialized()),\#(body)}"# + "\n").utf8))
                        return true
                    }
                    if kept { continue }
                    let answer = Array((#"{"jsonrpc":"2.0","id":\#(id.serialized()),"result":"pong"}"# + "\n").utf8)
                    // A client that has hung up gets no answer; the lines it sent before are still all read.
                    _ = answer.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                }
            }
            lock.withLock {
                current = -1
                hangUps += 1
            }
            close(fd)
        }
    }
}

struct RawError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// Plain-socket HTTP and a minimal WebSocket client (masked text frames out, unmasked text frames in).
enum Raw {
    static func connect(_ port: Int) throws -> Int32 {
        let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = UInt16(port).bigEndian
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard result == 0 else { throw RawError("cannot connect to port \(port)") }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        return fd
    }

    static func write(_ fd: Int32, _ bytes: [UInt8]) throws {
        guard bytes.withUnsafeBytes({ send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }) == bytes.count else {
            throw RawError("short write")
        }
    }

    static func read(_ fd: Int32, _ count: Int) throws -> [UInt8] {
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: count)
        while out.count < count {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, count - out.count, 0) }
            guard n > 0 else { throw RawError("connection closed or timed out") }
            out += chunk[0..<n]
        }
        return out
    }

    static func request(_ path: String, host: String, origin: String? = nil, upgrade: Bool = false,
                        extra: [String] = []) -> [UInt8] {
        var text = "GET \(path) HTTP/1.1\r\nHost: \(host)\r\n"
        for line in extra { text += line + "\r\n" }
        if let origin { text += "Origin: \(origin)\r\n" }
        if upgrade {
            text += "Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Version: 13\r\n"
                + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
        }
        return Array((text + "\r\n").utf8)
    }

    /// The whole response (the server closes after each).
    static func get(_ port: Int, _ path: String, host: String, origin: String? = nil, upgrade: Bool = false,
                    extra: [String] = []) throws -> String
    {
        let fd = try connect(port)
        defer { close(fd) }
        try write(fd, request(path, host: host, origin: origin, upgrade: upgrade, extra: extra))
        var out: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = chunk.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, 0) }
            if n <= 0 { break }
            out += chunk[0..<n]
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func webSocket(_ port: Int, _ path: String, host: String) throws -> WebSocketPeer {
        let fd = try connect(port)
        try write(fd, request(path, host: host, origin: "http://\(host)", upgrade: true))
        var head: [UInt8] = []
        while !(head.count >= 4 && Array(head.suffix(4)) == [13, 10, 13, 10]) { head += try read(fd, 1) }
        let text = String(decoding: head, as: UTF8.self)
        guard text.hasPrefix("HTTP/1.1 101") else { throw RawError("no upgrade: \(text)") }
        return WebSocketPeer(fd: fd)
    }
}

struct WebSocketPeer {
    let fd: Int32

    func send(_ text: String) throws {
        let payload = Array(text.utf8)
        var frame: [UInt8] = [0x81]
        if payload.count < 126 {
            frame.append(0x80 | UInt8(payload.count))
        } else {
            frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xff)]
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try Raw.write(fd, frame)
    }

    /// The next frame: its opcode and payload.
    func frame() throws -> (opcode: UInt8, payload: [UInt8]) {
        let head = try Raw.read(fd, 2)
        var length = Int(head[1] & 0x7f)
        if length == 126 {
            let more = try Raw.read(fd, 2)
            length = Int(more[0]) << 8 | Int(more[1])
        }
        return (head[0] & 0x0f, try Raw.read(fd, length))
    }

    /// The next text message as its text.
    func receiveText() throws -> String {
        let (opcode, payload) = try frame()
        guard opcode == 1 else { throw RawError("not a text frame: opcode \(opcode)") }
        return String(decoding: payload, as: UTF8.self)
    }

    /// The next text message, parsed.
    func receive() throws -> JSONValue {
        let head = try Raw.read(fd, 2)
        var length = Int(head[1] & 0x7f)
        if length == 126 {
            let more = try Raw.read(fd, 2)
            length = Int(more[0]) << 8 | Int(more[1])
        } else if length == 127 {
            let more = try Raw.read(fd, 8)
            length = more.reduce(0) { $0 << 8 | Int($1) }
        }
        let payload = try Raw.read(fd, length)
        guard head[0] & 0x0f == 1 else { throw RawError("not a text frame: opcode \(head[0] & 0x0f)") }
        return try JSONParser.parse(String(decoding: payload, as: UTF8.self))
    }
}
