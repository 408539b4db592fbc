import Logging
import NIOCore
import NIOEmbedded
import SegueJSON

@testable import SegueDaemon

let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// A daemon with the bundled plugins and one EmbeddedChannel connection to it.
final class Harness {
    let daemon: Daemon
    let channel: EmbeddedChannel

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

    static func connect(_ daemon: Daemon, maxLineBytes: Int = 4096) throws -> EmbeddedChannel {
        let channel = EmbeddedChannel()
        try channel.pipeline.syncOperations.addHandler(
            RPCChannelHandler(daemon: daemon, peerUID: nil, maxLineBytes: maxLineBytes))
        try channel.connect(to: SocketAddress(unixDomainSocketPath: "/tmp/embedded.sock")).wait()
        return channel
    }

    /// Sends raw text (a newline is added) and returns every line written back, parsed.
    @discardableResult
    func send(_ text: String) throws -> [JSONValue] {
        try channel.writeInbound(ByteBuffer(string: text + "\n"))
        return try readLines()
    }

    func readLines() throws -> [JSONValue] {
        var lines: [JSONValue] = []
        while let buffer = try channel.readOutbound(as: ByteBuffer.self) {
            let text = String(buffer: buffer)
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
