import ArgumentParser
import Foundation
import Logging
import SegueDaemon
import SegueJSON

/// The daemon's share of a `daemon.ping` round trip without the socket: what the request envelope, dispatch, stats
/// and the response cost on the event loop, step by step.
struct Dispatch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The cost of one request inside the daemon (no socket): parse, dispatch, stats, response.",
        discussion: """
            Times, per request: parsing the envelope with SegueJSON's parser; Daemon.handle(line:) for daemon.ping \
            (parse, envelope checks, method table, parameter checks, latency statistics, the response line); and \
            the same for a method with a parameter, a batch, an unknown method and a parse error. Compare with a \
            round trip of `segue-bench ping` to see how much of it is the daemon's own work. Under callgrind, \
            `--only` runs one case, so the instructions per request are the difference of two iteration counts.
            """)

    @Option(help: "Iterations per measurement.")
    var iterations: Int = 1_000_000

    @Option(help: "Run only the measurements whose name contains this text (one case at a time under callgrind).")
    var only: String?

    final class NullOutput: ConnectionOutput {
        var isWritable: Bool { true }
        var bytes = 0
        func send(_ line: String) { bytes &+= line.utf8.count }
        func flush() {}
        func close() {}
    }

    func run() throws {
        var config = DaemonConfig()
        config.pluginsDir = "/nonexistent"
        let daemon = Daemon(config: config, logger: Logger(label: "bench"))
        let output = NullOutput()
        let connection = daemon.connect(output: output)
        let ping = Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#.utf8)
        let unknown = Array(#"{"jsonrpc":"2.0","id":1,"method":"no.such"}"#.utf8)
        let garbage = Array(#"{"jsonrpc":"2.0","id":1,"method":"#.utf8)
        let withParams = Array(#"{"jsonrpc":"2.0","id":2,"method":"clock.now","params":{"scene":"s"}}"#.utf8)
        let batch = Array(
            #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"},{"jsonrpc":"2.0","id":2,"method":"daemon.ping"}]"#.utf8)
        let scene = #"{"jsonrpc":"2.0","id":1,"method":"scene.create","#
            + #""params":{"id":"s","size":{"w":10,"h":10},"clock":"manual"}}"#
        _ = daemon.handle(line: scene, from: connection)
        func measure(_ name: String, _ body: () -> Void) {
            if let only, !name.contains(only) { return }
            for _ in 0..<min(iterations, 10_000) { body() }
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<iterations { body() }
            let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(iterations)
            print(name.padding(toLength: 48, withPad: " ", startingAt: 0) + String(format: "%7.0f ns", ns))
        }
        var sink = 0
        ping.withUnsafeBufferPointer { line in
            measure("parse the envelope (SegueJSON)") {
                if case .object(let o)? = try? JSONParser.parse(bytes: line) { sink &+= o.count }
            }
            measure("daemon.ping through Daemon.handle(line:)") {
                sink &+= daemon.handle(line: line, from: connection)?.utf8.count ?? 0
            }
        }
        withParams.withUnsafeBufferPointer { line in
            measure("clock.now {scene} (a method with params)") {
                sink &+= daemon.handle(line: line, from: connection)?.utf8.count ?? 0
            }
        }
        batch.withUnsafeBufferPointer { line in
            measure("a batch of two daemon.ping") {
                sink &+= daemon.handle(line: line, from: connection)?.utf8.count ?? 0
            }
        }
        unknown.withUnsafeBufferPointer { line in
            measure("an unknown method (-32601)") { sink &+= daemon.handle(line: line, from: connection)?.utf8.count ?? 0 }
        }
        garbage.withUnsafeBufferPointer { line in
            measure("a parse error (-32700)") { sink &+= daemon.handle(line: line, from: connection)?.utf8.count ?? 0 }
        }
        let response = JSONValue.object(JSONObject([("jsonrpc", "2.0"), ("id", 1), ("result", "pong")]))
        measure("serialize a response object (SegueJSON)") { sink &+= response.serialized().utf8.count }
        if sink == 42 { print("") }  // keeps the work from being optimized away
    }
}
