#if canImport(Glibc)
import Glibc
#endif
import CEventLoop
import Logging
import SegueJSON

@testable import SegueDaemon
@testable import SegueTransport

let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// A daemon with the bundled plugins and one connection to it: the server's own `SocketConnection` on one end of a
/// socket pair, the test on the other, with the event loop's steps taken by hand (no thread, no listening socket).
final class Harness {
    let daemon: Daemon
    let channel: TestPeer

    convenience init(maxLineBytes: Int = 4096) throws {
        try self.init { $0.limits.maxLineBytes = maxLineBytes }
    }

    /// A daemon whose config (the bundled plugins, lines up to 4096 bytes) `configure` may change first.
    init(configure: (inout DaemonConfig) -> Void) throws {
        var config = DaemonConfig()
        config.pluginsDir = repositoryRoot + "/plugins"
        config.limits.maxLineBytes = 4096
        configure(&config)
        daemon = Daemon(config: config, logger: Logger(label: "test"))
        daemon.start()
        channel = try Harness.connect(daemon, maxLineBytes: config.limits.maxLineBytes)
    }

    /// A connection to a daemon the test made (its own config).
    init(daemon: Daemon, maxLineBytes: Int = 4096) throws {
        self.daemon = daemon
        channel = try Harness.connect(daemon, maxLineBytes: maxLineBytes)
    }

    static func connect(_ daemon: Daemon, maxLineBytes: Int = 4096) throws -> TestPeer {
        try TestPeer(daemon: daemon, maxLineBytes: maxLineBytes)
    }

    /// Sends raw text (a newline is added) and returns every line written back, parsed.
    @discardableResult
    func send(_ text: String) throws -> [JSONValue] {
        try channel.writeInbound(text + "\n")
        return try readLines()
    }

    func readLines() throws -> [JSONValue] {
        var lines: [JSONValue] = []
        while let text = channel.readOutbound() {
            for line in text.split(separator: "\n") { lines.append(try JSONParser.parse(String(line))) }
        }
        return lines
    }

    /// Calls a method and returns everything written back (events first, the response last).
    @discardableResult
    func call(_ method: String, _ params: JSONValue = [:], id: JSONValue = 1) throws -> [JSONValue] {
        let request: JSONValue = ["jsonrpc": "2.0", "id": id, "method": .string(method), "params": params]
        return try send(request.serialized())
    }

    func result(_ method: String, _ params: JSONValue = [:]) throws -> JSONValue? {
        try call(method, params).last?["result"]
    }

    func errorCode(_ method: String, _ params: JSONValue = [:]) throws -> Int? {
        try call(method, params).last?["error"]?["code"]?.intValue
    }

    /// A manual scene "main" with a custom container "tabs" of a and b, on screen.
    func setUpScene() throws {
        try call("scene.create", ["id": "main", "size": ["w": 320, "h": 480], "clock": "manual"])
        try call("vc.create", ["id": "a", "color": "#ff0000"])
        try call("vc.create", ["id": "b", "color": "#0000ff"])
        try call("container.create", ["id": "tabs", "kind": "custom", "children": ["a", "b"]])
        try call("scene.set_root", ["vc": "tabs"])
    }
}

struct PeerError: Error, CustomStringConvertible {
    let description: String
}

/// The client end of a test connection. Writing to it runs the server connection's read step (as the loop would
/// on readiness) until the bytes are consumed; what the server wrote back waits in `readOutbound()`.
final class TestPeer {
    let server: Server
    let connection: SocketConnection
    private let daemon: Daemon
    private let fd: Int32
    private var received: [UInt8] = []
    /// False: the client stops reading what the server writes (a slow reader).
    var reading = true

    init(daemon: Daemon, maxLineBytes: Int) throws {
        var fds: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &fds) == 0 else {
            throw PeerError(description: "socketpair: \(errno)")
        }
        server = try Server(daemon: daemon)
        self.daemon = daemon
        fd = fds[0]
        connection = SocketConnection(fd: fds[1], server: server, daemon: daemon, maxLineBytes: maxLineBytes)
        guard connection.open(peerUID: nil) else { throw PeerError(description: "the loop refused the socket") }
    }

    deinit {
        connection.closeNow()
        Glibc.close(fd)
    }

    /// True until the server closed its side.
    var isActive: Bool { !connection.closed }

    @discardableResult
    func writeInbound(_ text: String) throws -> Int { try writeInbound(Array(text.utf8)) }

    /// Sends the bytes, letting the server read them as they arrive; returns how many could not be sent because
    /// the server stopped reading (0 normally).
    @discardableResult
    func writeInbound<Bytes: Collection>(_ bytes: Bytes) throws -> Int where Bytes.Element == UInt8 {
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            let count = rest.withUnsafeBytes { send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if count < 0, errno != EAGAIN {
                if connection.closed { return rest.count }  // the server closed (a refused long line)
                throw PeerError(description: "send: \(errno)")
            }
            if count > 0 { rest = rest.dropFirst(count) }
            let moved = pump()
            if connection.closed || (count <= 0 && !moved) { return rest.count }
        }
        return 0
    }

    /// Closes the client's side; the server reads to the end and closes its own.
    func close() {
        shutdown(fd, Int32(SHUT_WR))
        pump()
    }

    /// Closes both directions (a client that went away): the server sees the hang-up.
    func hangUp() {
        shutdown(fd, Int32(SHUT_RDWR))
        pump()
    }

    /// Everything the server wrote since the last call (nil: nothing).
    func readOutbound() -> String? {
        pump()
        guard !received.isEmpty else { return nil }
        defer { received.removeAll() }
        return String(decoding: received, as: UTF8.self)
    }

    /// The loop's steps for this connection: write out what was queued, take what the server wrote, then give the
    /// connection the readiness epoll would (what `poll` reports for the events it watches, plus hang-up and
    /// error), until nothing moves.
    @discardableResult
    private func pump() -> Bool {
        var buffer = [UInt8](repeating: 0, count: 65536)
        var anything = false
        for _ in 0..<100_000 {
            var moved = false
            // Where the loop writes out what its last turn queued: before it polls.
            daemon.flushPending()
            let got = !reading ? 0 : buffer.withUnsafeMutableBytes { recv(fd, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if got > 0 {
                received.append(contentsOf: buffer[0..<got])
                moved = true
            }
            let events = connection.closed ? [] : TestPeer.readiness(connection)
            if !events.isEmpty {
                let before = (connection.pendingBytes, connection.watchesReads)
                connection.ready(events)
                // Readable input is always consumed; write readiness counts when bytes left.
                if !events.isDisjoint(with: [.readable, .hangUp, .error]) || connection.closed
                    || (connection.pendingBytes, connection.watchesReads) != before { moved = true }
            }
            if !moved { return anything }
            anything = true
        }
        return anything
    }

    /// What a level-triggered epoll would report for the connection now.
    static func readiness(_ connection: SocketConnection) -> LoopEvents {
        var wanted: Int16 = 0
        if connection.watchesReads { wanted |= Int16(POLLIN) }
        if connection.watchesWrites { wanted |= Int16(POLLOUT) }
        var entry = pollfd(fd: connection.fd, events: wanted, revents: 0)
        guard poll(&entry, 1, 0) == 1 else { return [] }
        var events: LoopEvents = []
        if entry.revents & Int16(POLLIN) != 0 { events.insert(.readable) }
        if entry.revents & Int16(POLLOUT) != 0 { events.insert(.writable) }
        if entry.revents & Int16(POLLHUP) != 0 { events.insert(.hangUp) }
        if entry.revents & Int16(POLLERR) != 0 { events.insert(.error) }
        return events
    }
}
