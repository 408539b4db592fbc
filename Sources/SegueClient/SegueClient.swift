#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueJSON

/// What went wrong talking to the daemon.
public enum ClientError: Error, CustomStringConvertible, Sendable {
    /// The daemon answered with a JSON-RPC error.
    case rpc(code: Int, message: String, data: JSONValue?)
    /// The socket could not be reached, or broke.
    case connection(String)
    /// The daemon said something that is not a JSON-RPC message.
    case protocolError(String)
    case timeout

    public var description: String {
        switch self {
        case .rpc(let code, let message, let data):
            return "error \(code): \(message)" + (data.map { " \($0.serialized())" } ?? "")
        case .connection(let m): return "connection: \(m)"
        case .protocolError(let m): return "protocol: \(m)"
        case .timeout: return "timed out waiting for the daemon"
        }
    }
}

/// A blocking JSON-RPC client over the daemon's Unix socket, one line per message. Events that arrive while it
/// waits for a response are kept, in order, in `events`.
public final class SegueClient {
    /// The socket a client uses: `given` (a `--socket` flag), else `SEGUED_SOCKET` when set and not empty, else
    /// `defaultSocketPath`.
    public static func socketPath(
        given: String?, environment: String? = getenv("SEGUED_SOCKET").map { String(cString: $0) }
    ) -> String {
        if let given { return given }
        if let environment, !environment.isEmpty { return environment }
        return defaultSocketPath
    }

    /// The daemon's default socket, as the daemon itself places it (`XDGPaths.socketPath`).
    public static var defaultSocketPath: String {
        defaultSocketPath(runtimeDirectory: getenv("XDG_RUNTIME_DIR").map { String(cString: $0) }, uid: getuid())
    }

    /// `$XDG_RUNTIME_DIR/segued.sock`, else `/tmp/segued-UID.sock`. A relative `XDG_RUNTIME_DIR` is ignored, as the
    /// XDG specification says and as the daemon does: otherwise the two would look in different places.
    public static func defaultSocketPath(runtimeDirectory: String?, uid: UInt32) -> String {
        if let runtimeDirectory, runtimeDirectory.hasPrefix("/") { return runtimeDirectory + "/segued.sock" }
        return "/tmp/segued-\(uid).sock"
    }

    private let fd: Int32
    /// Bytes received: `buffer[head..<filled]` is not yet returned, and `head..<scanned` of it holds no newline (a
    /// long line arriving over many reads is searched once, not from its start after every read).
    private var buffer = [UInt8](repeating: 0, count: 65536)
    private var head = 0
    private var scanned = 0
    private var filled = 0
    private var nextID = 1
    /// Event notifications received and not yet taken, oldest first.
    public private(set) var events: [JSONValue] = []

    public init(socketPath: String) throws(ClientError) {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        guard fd >= 0 else { throw .connection("socket(): \(String(cString: strerror(errno)))") }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let bytes = Array(socketPath.utf8)
        guard !bytes.isEmpty else {
            close(fd)
            throw .connection("the socket path is empty: give --socket a path")
        }
        guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else {
            close(fd)
            throw .connection("socket path too long: \(socketPath)")
        }
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in bytes.enumerated() { raw[i] = b }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size))
            }
        }
        guard result == 0 else {
            let reason = String(cString: strerror(errno))
            close(fd)
            throw .connection("cannot connect to \(socketPath): \(reason) (is segued running?)")
        }
        self.fd = fd
    }

    deinit { close(fd) }

    /// Sends one raw line (a newline is added).
    public func send(line: String) throws(ClientError) {
        var bytes = Array(line.utf8)
        bytes.append(UInt8(ascii: "\n"))
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if n < 0 {
                if errno == EINTR { continue }
                throw .connection("write: \(String(cString: strerror(errno)))")
            }
            offset += n
        }
    }

    /// Reads the next line; nil when the timeout (ms, -1 = forever) passes first.
    public func readLine(timeoutMs: Int32 = -1) throws(ClientError) -> String? {
        try nextLine(timeoutMs: timeoutMs) {
            String(decoding: $0, as: UTF8.self)
        }
    }

    /// Reads the next line and hands its bytes (valid during the call, no newline) to `body`, without making a
    /// String of them: a reader that only looks at a line (its length, a prefix) skips decoding a 240 KB frame.
    /// Nil when the timeout (ms, -1 = forever) passes first.
    public func readLine<R>(timeoutMs: Int32 = -1, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws(ClientError) -> R? {
        try nextLine(timeoutMs: timeoutMs, body)
    }

    private func nextLine<R>(timeoutMs: Int32, _ body: (UnsafeBufferPointer<UInt8>) -> R) throws(ClientError) -> R? {
        while true {
            if let line = bufferedLine(body) { return line }
            if timeoutMs >= 0 {
                var pfd = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
                let ready = poll(&pfd, 1, timeoutMs)
                if ready < 0 {
                    if errno == EINTR { continue }
                    throw .connection("poll: \(String(cString: strerror(errno)))")
                }
                if ready == 0 { return nil }
            }
            makeRoom()
            let n = buffer.withUnsafeMutableBytes { raw in
                recv(fd, raw.baseAddress.map { $0 + filled }, raw.count - filled, 0)
            }
            if n < 0 {
                if errno == EINTR { continue }
                throw .connection("read: \(String(cString: strerror(errno)))")
            }
            if n == 0 { throw .connection("the daemon closed the connection") }
            filled += n
        }
    }

    /// The next whole line already received, if any, given to `body`: searched with `memchr` from where the last
    /// search stopped.
    private func bufferedLine<R>(_ body: (UnsafeBufferPointer<UInt8>) -> R) -> R? {
        buffer.withUnsafeBufferPointer { bytes -> R? in
            guard let base = bytes.baseAddress, scanned < filled,
                let found = memchr(base + scanned, 0x0A, filled - scanned)
            else {
                scanned = filled
                return nil
            }
            let newline = UnsafeRawPointer(found).assumingMemoryBound(to: UInt8.self) - base
            let line = body(UnsafeBufferPointer(start: base + head, count: newline - head))
            head = newline + 1
            scanned = head
            if head == filled { (head, scanned, filled) = (0, 0, 0) }
            return line
        }
    }

    /// At least 16 KiB free after the received bytes: the unread ones moved to the front, the buffer doubled if
    /// that is not enough.
    private func makeRoom() {
        let room = 16 << 10
        guard buffer.count - filled < room else { return }
        if head > 0 {
            buffer.withUnsafeMutableBufferPointer { bytes in
                guard let base = bytes.baseAddress else { return }
                _ = memmove(base, base + head, filled - head)
            }
            (filled, scanned, head) = (filled - head, scanned - head, 0)
        }
        if buffer.count - filled < room { buffer.append(contentsOf: repeatElement(0, count: buffer.count)) }
    }

    /// Calls a method and returns its result; events that arrive first are kept in `events`.
    public func call(_ method: String, _ params: JSONObject? = nil, timeoutMs: Int32 = 30_000) throws(ClientError)
        -> JSONValue
    {
        let id = nextID
        nextID += 1
        var request = JSONObject([("jsonrpc", "2.0"), ("id", .number(Double(id))), ("method", .string(method))])
        if let params { request["params"] = .object(params) }
        try send(line: JSONValue.object(request).serialized())
        while true {
            guard let line = try readLine(timeoutMs: timeoutMs) else { throw .timeout }
            let message: JSONValue
            do throws(JSONParseError) {
                message = try JSONParser.parse(line)
            } catch {
                throw .protocolError("unparsable line from the daemon: \(error)")
            }
            if message["method"]?.stringValue == "event" {
                events.append(message["params"] ?? .null)
                continue
            }
            guard message["id"]?.intValue == id || message["id"] == .null else { continue }
            if let error = message["error"] {
                throw .rpc(code: error["code"]?.intValue ?? 0, message: error["message"]?.stringValue ?? "",
                           data: error["data"])
            }
            return message["result"] ?? .null
        }
    }

    /// Takes the events received so far.
    public func takeEvents() -> [JSONValue] {
        defer { events.removeAll() }
        return events
    }

    /// Waits for the next event (kept ones first); nil on timeout.
    public func nextEvent(timeoutMs: Int32 = -1) throws(ClientError) -> JSONValue? {
        if !events.isEmpty { return events.removeFirst() }
        while true {
            guard let line = try readLine(timeoutMs: timeoutMs) else { return nil }
            guard let message = try? JSONParser.parse(line) else { continue }
            if message["method"]?.stringValue == "event" { return message["params"] ?? .null }
        }
    }
}
