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
            the same for a method with a parameter, a batch, an unknown method and a parse error; then, with the \
            repository's plugins (run from its folder), container.select through Daemon.handle(line:) with the dt-slide \
            Lua animator and with the built-in one, alternating with daemon.ping (p50 of each, every reply checked). \
            Compare with a \
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
        try selects(sink: &sink)
        let response = JSONValue.object(JSONObject([("jsonrpc", "2.0"), ("id", 1), ("result", "pong")]))
        measure("serialize a response object (SegueJSON)") { sink &+= response.serialized().utf8.count }
        if sink == 42 { print("") }  // keeps the work from being optimized away
    }

    /// container.select through `Daemon.handle(line:)` on a two-page custom container, alternating the dt-slide Lua
    /// animator and the built-in one with a daemon.ping between (the clock advanced past each transition's end,
    /// untimed); every reply checked. p50 of each: the daemon's whole share of the `lua` benchmark's select/ping.
    func selects(sink: inout Int) throws {
        let name = "container.select through Daemon.handle(line:)"
        if let only, !name.contains(only) { return }
        var config = DaemonConfig()
        config.pluginsDir = FileManager.default.currentDirectoryPath + "/plugins"
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let daemon = Daemon(config: config, logger: logger)
        daemon.start()
        let connection = daemon.connect(output: NullOutput())
        for line in [#"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"size":{"w":320,"h":480},"clock":"manual"}}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"vc.create","params":{"id":"a"}}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"vc.create","params":{"id":"b"}}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"container.create","params":{"id":"c","kind":"custom","children":["a","b"]}}"#,
                     #"{"jsonrpc":"2.0","id":1,"method":"scene.set_root","params":{"vc":"c"}}"#] {
            guard daemon.handle(line: line, from: connection)?.contains("\"result\"") == true else {
                throw ValidationError("setup failed: \(line)")
            }
        }
        let lua = #"{"jsonrpc":"2.0","id":1,"method":"container.select","params":{"container":"c","index":1,"animator":"dt-slide"}}"#
        let swift = #"{"jsonrpc":"2.0","id":4,"method":"container.select","params":{"container":"c","index":0}}"#
        let ping = #"{"jsonrpc":"2.0","id":2,"method":"daemon.ping"}"#
        let advance = #"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"ms":1100}}"#
        var times: [[UInt64]] = [[], [], []]
        func timed(_ line: String, _ slot: Int, check: String) throws {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let reply = daemon.handle(line: line, from: connection)
            times[slot].append(DispatchTime.now().uptimeNanoseconds - t0)
            guard let reply, reply.contains(check) else { throw ValidationError("unexpected reply: \(reply ?? "none")") }
            sink &+= reply.utf8.count
        }
        for _ in 0..<20_000 {
            try timed(lua, 0, check: #""animator":"dt-slide""#)
            try timed(ping, 1, check: "pong")
            _ = daemon.handle(line: advance, from: connection)
            try timed(swift, 2, check: #""animator":"default-slide""#)
            _ = daemon.handle(line: advance, from: connection)
        }
        let p50 = times.map { Double($0.sorted()[$0.count / 2]) / 1000 }
        print(String(format: "%@: dt-slide p50 %.2f µs; built-in %.2f µs; daemon.ping %.2f µs", name, p50[0], p50[2], p50[1]))
    }
}
