import CAllocCount
import Foundation
import Logging
import SegueDaemon
import SegueKit

/// `segue-allocs`: heap allocations per unit of steady-state work, as JSON — the deterministic counts the CI guard
/// (Tests/IntegrationTests/AllocationCountTests.swift) holds under ceilings. Counts, not times: the same build
/// gives the same numbers on any machine and under any load.
///
/// Linked with CAllocCount, which defines malloc & co. for this process only; nothing else links it. Each figure
/// is the allocations made on this thread during the measured calls, divided by the number of calls, after a
/// warm-up (caches, buffers and tables reach their steady size first).
///
/// - `engine.frame`: one `Scene.step(frames: 1)` of a manual scene at 120 fps with 100 custom containers all
///   running the built-in default transition (4 animated properties each), no event sink.
/// - `engine.select`: one `Scene.select` starting a default transition in a scene of 50 containers.
/// - `daemon.ping`: one `daemon.ping` through `Daemon.serve(line:from:)`, the request path the socket
///   connection calls (parse, dispatch, stats, the response line).
/// - `daemon.frame`: one `clock.step` request of one frame through `Daemon.serve(line:from:)` on a scene of 100
///   running transitions, with a connection subscribed to its frame events (the event is built, encoded and
///   queued to the subscriber's output).
@main
enum SegueAllocs {
    static let fps = 120
    static let transitions = 100

    static func main() throws {
        guard segue_allocs_interposed() != 0 else {
            FileHandle.standardError.write(Data("segue-allocs: malloc is not interposed; counts would be 0\n".utf8))
            exit(2)
        }
        let counts: [(String, Double)] = [
            ("engine.frame", try engineFrame()),
            ("engine.select", try engineSelect()),
            ("daemon.ping", daemonPing()),
            ("daemon.frame", try daemonFrame()),
        ]
        let fields = counts.map { "\"\($0.0)\":" + String(format: "%.2f", $0.1) }
        print("{" + fields.joined(separator: ",") + "}")
    }

    /// Allocations per call of `body` over `calls` calls.
    static func count(calls: Int, _ body: () throws -> Void) rethrows -> Double {
        segue_allocs_begin()
        for _ in 0..<calls { try body() }
        return Double(segue_allocs_end()) / Double(calls)
    }

    static func scene(containers: Int) throws -> (Scene, [ContainerViewController]) {
        let scene = Scene(id: "allocs", size: Size(w: 320, h: 480), clock: .manual, fps: fps)
        var list: [ContainerViewController] = []
        for i in 0..<containers {
            let a = try scene.createViewController(id: "a\(i)", title: nil, color: nil)
            let b = try scene.createViewController(id: "b\(i)", title: nil, color: nil)
            list.append(try scene.createContainer(id: "c\(i)", kind: .custom, items: [a, b]))
        }
        return (scene, list)
    }

    static func engineFrame() throws -> Double {
        let (scene, containers) = try scene(containers: transitions)
        // A first round to its end (warms every path), then the measured round: 10 frames in, 60 frames counted
        // (the default transition lasts 1 s = 120 frames, so every animation runs throughout).
        for c in containers { _ = try scene.select(c, index: 1) }
        scene.step(frames: fps * 2)
        for c in containers { _ = try scene.select(c, index: 0) }
        scene.step(frames: 10)
        guard scene.runningAnimationCount == transitions * 4 else { throw Failure("engine.frame: animations not running") }
        return count(calls: 60) { scene.step(frames: 1) }
    }

    static func engineSelect() throws -> Double {
        let (scene, containers) = try scene(containers: 50)
        var index = 1
        var total = 0.0
        for round in 0..<4 {
            let perSelect = try count(calls: 1) {
                for c in containers { _ = try scene.select(c, index: index) }
            } / Double(containers.count)
            guard scene.runningAnimationCount == containers.count * 4 else {
                throw Failure("engine.select: the selects started no transition")
            }
            scene.step(frames: fps * 2)
            index = 1 - index
            if round > 0 { total += perSelect }  // round 0 is the warm-up
        }
        return total / 3
    }

    /// Receives the daemon's output and drops it.
    final class NullOutput: ConnectionOutput {
        var isWritable: Bool { true }
        var bytes = 0
        func send(_ line: String) { bytes &+= line.utf8.count }
        /// As the socket takes a line of bytes: no `String` made of it (the protocol's default makes one).
        func send(bytes line: UnsafeBufferPointer<UInt8>) { bytes &+= line.count }
        func flush() {}
        func close() {}
    }

    static func daemon() -> Daemon {
        var config = DaemonConfig()
        config.pluginsDir = "/nonexistent"
        return Daemon(config: config, logger: Logger(label: "segue-allocs"))
    }

    /// What the socket connection does with a line (`Daemon.serve`: the response queued on the connection), then
    /// the flush.
    static func request(_ line: UnsafeBufferPointer<UInt8>, _ daemon: Daemon, _ connection: ClientConnection,
                        _ output: NullOutput)
    {
        daemon.serve(line: line, from: connection)
        daemon.flushPending()
    }

    static func daemonPing() -> Double {
        let daemon = daemon()
        let output = NullOutput()
        let connection = daemon.connect(output: output)
        let ping = Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#.utf8)
        return ping.withUnsafeBufferPointer { line in
            for _ in 0..<1000 { request(line, daemon, connection, output) }
            return count(calls: 1000) { request(line, daemon, connection, output) }
        }
    }

    static func daemonFrame() throws -> Double {
        let daemon = daemon()
        let output = NullOutput()
        let connection = daemon.connect(output: output)
        func call(_ method: String, _ params: String) throws {
            let line = #"{"jsonrpc":"2.0","id":1,"method":""# + method + #"","params":"# + params + "}"
            let reply = daemon.handle(line: line, from: connection) ?? ""
            guard reply.contains("\"result\"") else { throw Failure("daemon.frame: \(method) answered \(reply)") }
        }
        try call("scene.create", #"{"id":"s","size":{"w":320,"h":480},"clock":"manual","fps":\#(fps)}"#)
        for i in 0..<transitions {
            try call("vc.create", #"{"id":"a\#(i)"}"#)
            try call("vc.create", #"{"id":"b\#(i)"}"#)
            try call("container.create", #"{"id":"c\#(i)","kind":"custom","children":["a\#(i)","b\#(i)"]}"#)
        }
        try call("events.subscribe", #"{"types":["frame"]}"#)
        for index in [1, 0] {
            for i in 0..<transitions { try call("container.select", #"{"container":"c\#(i)","index":\#(index)}"#) }
            try call("clock.step", #"{"frames":\#(index == 1 ? fps * 2 : 10)}"#)
        }
        let step = Array(#"{"jsonrpc":"2.0","id":1,"method":"clock.step","params":{"frames":1}}"#.utf8)
        let before = output.bytes
        let perStep = step.withUnsafeBufferPointer { line in
            // Warm up the measured path itself (the request with its flush, which `call` skips): what the Swift
            // runtime makes once on a path's first run (generic metadata, witness tables, in the debug build) is
            // then not counted as the frames' — which of those fell in the window depended on what code ran before.
            for _ in 0..<5 { request(line, daemon, connection, output) }
            return count(calls: 60) { request(line, daemon, connection, output) }
        }
        guard output.bytes - before > 60 * 1000 else { throw Failure("daemon.frame: the subscriber got no frames") }
        return perStep
    }

    struct Failure: Error, CustomStringConvertible {
        let description: String
        init(_ description: String) { self.description = description }
    }
}
