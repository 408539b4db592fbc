import ArgumentParser
import CEngineReference
import CMeasuredRegion
import Foundation
import Logging
import SegueDaemon
import SegueKit

/// `segue-bench instructions CASE`: one unit of work, `--iterations` times, each inside `segue_measured_region`,
/// for callgrind to count (scripts/instructions runs it under `valgrind --tool=callgrind
/// --toggle-collect=segue_measured_region` and divides by the iterations). Fixed inputs and no timing: the same
/// build gives the same counts on any machine and under any load.
struct Instructions: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "One unit of work N times inside the region callgrind counts (scripts/instructions, the CI guard).",
        discussion: """
            Cases (each after a warm-up outside the region; every reply checked):
              daemon.ping        one daemon.ping through Daemon.handle(line:from:) and the flush
              daemon.select      one container.select with the dt-slide Lua animator through Daemon.handle (a real \
            transition: the reply must name dt-slide and a transition; the clock is advanced past its end between \
            units, outside the region), the bundled plugins loaded from ./plugins
              daemon.select.completion   the same selects, counting instead a 15 ms clock.advance across each \
            one's end (advanced to 270 ms of its 280 outside the region): its last frame, the plugin's completion block \
            through Lua, ended and the end bookkeeping (informational: not in the guarded set)
              daemon.frame       one clock.step of one frame through Daemon.handle on a manual scene of 100 \
            running default transitions (400 animated properties), no subscriber
              engine.frame       the same frame without the request: one Scene.step(frames: 1) of daemon.frame's \
            scene, called in process (the tick, the animation walk, the changed-view list dropped as nobody listens); \
            daemon.frame minus it is the clock.step request's own cost, which is per frame, not per property
              daemon.frame.subscribed   the same with one connection subscribed to the scene's frames
              daemon.frame.subscribed2  the same with two connections subscribed (minus the one-subscriber case: \
            what a further subscriber costs — the frame is encoded once, its bytes handed to each)
              reference.frame    the C reference (CEngineReference) ticking the same 100 transitions once
              reference.frame.printed   the C reference ticking them and writing the frame event a subscriber gets, \
            with the daemon's number printer (CDtoa): each frame's bytes held equal to the engine's frame line at the \
            same time (daemon.frame.subscribed's scene, stepped outside the region)
              daemon.frame.keyframes        one clock.step of one frame of a transition animating 100 views' \
            centers with 4 keyframes each (segue.keyframes, linear; a bench-only animator from a temporary folder)
              daemon.frame.keyframes.plain  the same 100 centers animated by one linear segue.animate block: a \
            keyframed property per frame ÷ a plainly animated one (scripts/instructions prints the ratio)
            """)

    @Argument(help: "The case: daemon.ping, daemon.select, daemon.frame, daemon.frame.subscribed, daemon.frame.subscribed2, engine.frame, reference.frame, reference.frame.printed.")
    var name: String

    @Option(help: "Units of work counted (the count is divided by it).")
    var iterations: Int = 100

    @Option(help: """
        How a request line is handed to the daemon: serve (Daemon.serve, the socket's path: the response queued on \
        the connection from the dispatcher's bytes, then the flush), handle (Daemon.handle's String sent on the \
        connection: the socket's path before serve) or output (Daemon.handle's String given straight to the \
        output, skipping the connection's flush list: what this bench counted before serve).
        """)
    var path: String = "serve"

    /// `--path`, read once (a String compared per request would be counted with it).
    enum RequestPath { case serve, handle, output }
    var requestPath: RequestPath { path == "handle" ? .handle : path == "output" ? .output : .serve }

    func run() throws {
        guard iterations >= 1 else { throw ValidationError("--iterations must be ≥ 1") }
        guard ["serve", "handle", "output"].contains(path) else { throw ValidationError("--path: serve, handle or output") }
        switch name {
        case "daemon.ping": try ping()
        case "daemon.select": try select()
        case "daemon.select.completion": try select(measuringCompletion: true)
        case "daemon.frame": try frame(subscribers: 0)
        case "daemon.frame.subscribed": try frame(subscribers: 1)
        case "daemon.frame.subscribed2": try frame(subscribers: 2)
        case "engine.frame": try engineFrame()
        case "reference.frame": reference()
        case "reference.frame.printed": try printedReference()
        case "daemon.frame.keyframes": try keyframeFrame(animator: "bench-keyframes")
        case "daemon.frame.keyframes.plain": try keyframeFrame(animator: "bench-plain")
        default: throw ValidationError("unknown case \(name)")
        }
        print("\(name): \(iterations) units counted")
    }

    static let transitions = 100
    static let fps = 120

    /// Runs `body` inside the counted region.
    func measured(_ body: () throws -> Void) rethrows {
        try withoutActuallyEscaping(body) { body in
            var failure: (any Error)?
            var box = (body, failure)
            withUnsafeMutablePointer(to: &box) { pointer in
                segue_measured_region({ raw in
                    let p = raw!.assumingMemoryBound(to: ((() throws -> Void), (any Error)?).self)
                    do { try p.pointee.0() } catch { p.pointee.1 = error }
                }, pointer)
            }
            failure = box.1
            if let failure { throw failure }
        }
    }

    func daemon(plugins: String = "/nonexistent") -> Daemon {
        var config = DaemonConfig()
        config.pluginsDir = plugins
        // Under callgrind everything runs ~50× slower: the wall-clock backstop must not stop the plugins' calls.
        config.lua.callTimeoutMs = 60_000
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let daemon = Daemon(config: config, logger: logger)
        daemon.start()
        return daemon
    }

    /// What the socket connection does with a line (`Daemon.serve`: the response queued on the connection), then
    /// the flush.
    func request(_ line: UnsafeBufferPointer<UInt8>, _ daemon: Daemon, _ connection: ClientConnection,
                 _ output: KeptOutput, path: RequestPath) -> Bool
    {
        var answered: Bool
        switch path {
        case .handle:
            let response = daemon.handle(line: line, from: connection)
            if let response { connection.send(response) }
            answered = response != nil
        case .output:
            let response = daemon.handle(line: line, from: connection)
            if let response { output.send(response) }
            answered = response != nil
        case .serve:
            answered = daemon.serve(line: line, from: connection)
        }
        daemon.flushPending()
        return answered
    }

    func call(_ daemon: Daemon, _ connection: ClientConnection, _ method: String, _ params: String) throws {
        let line = #"{"jsonrpc":"2.0","id":1,"method":""# + method + #"","params":"# + params + "}"
        let reply = daemon.handle(line: line, from: connection) ?? ""
        guard reply.contains("\"result\"") else { throw ValidationError("\(method) answered \(reply)") }
    }

    func ping() throws {
        let how = requestPath
        let daemon = daemon()
        let output = KeptOutput()
        let connection = daemon.connect(output: output)
        let ping = Array(#"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#.utf8)
        try ping.withUnsafeBufferPointer { line in
            for _ in 0..<1000 { _ = request(line, daemon, connection, output, path: how) }
            for _ in 0..<iterations {
                output.bytes.removeAll(keepingCapacity: true)
                var answered = false
                measured { answered = request(line, daemon, connection, output, path: how) }
                guard answered, String(decoding: output.bytes, as: UTF8.self).contains("pong") else {
                    throw ValidationError("daemon.ping was not answered pong")
                }
            }
        }
    }

    static func advance(_ ms: Int) -> String {
        #"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"ms":\#(ms)}}"#
    }

    /// `measuringCompletion`: the counted unit is a clock.advance across each transition's end instead (its last
    /// frame, the plugin's completion block through Lua, `ended`, the transition's end bookkeeping), the transition
    /// checked completed after it.
    func select(measuringCompletion: Bool = false) throws {
        let how = requestPath
        let daemon = daemon(plugins: FileManager.default.currentDirectoryPath + "/plugins")
        let output = KeptOutput()
        let connection = daemon.connect(output: output)
        try call(daemon, connection, "scene.create", #"{"size":{"w":320,"h":480},"clock":"manual"}"#)
        try call(daemon, connection, "vc.create", #"{"id":"a"}"#)
        try call(daemon, connection, "vc.create", #"{"id":"b"}"#)
        try call(daemon, connection, "container.create", #"{"id":"c","kind":"custom","children":["a","b"]}"#)
        try call(daemon, connection, "scene.set_root", #"{"vc":"c"}"#)
        let selects = [1, 0].map {
            Array(#"{"jsonrpc":"2.0","id":1,"method":"container.select","params":{"container":"c","index":\#($0),"animator":"dt-slide"}}"#.utf8)
        }
        let advance = #"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"ms":1100}}"#
        for unit in 0..<(iterations + 50) {
            let line = selects[unit % 2]
            output.bytes.removeAll(keepingCapacity: true)
            var answered = false
            var started = ""
            try line.withUnsafeBufferPointer { line in
                if unit < 50 || measuringCompletion {
                    answered = request(line, daemon, connection, output, path: how)  // the warm-up
                } else {
                    measured { answered = request(line, daemon, connection, output, path: how) }
                }
                let reply = String(decoding: output.bytes, as: UTF8.self)
                guard answered, reply.contains(#""animator":"dt-slide""#), reply.contains(#""transition":"#) else {
                    throw ValidationError("the select started no dt-slide transition: \(reply)")
                }
                started = reply
            }
            var advanced = false
            if measuringCompletion && unit >= 50 {
                // Up to just before the transition's end (0.28 s) outside the region, the 15 ms across it inside (two
                // frames at the scene's 120 fps: the last one, then the completion), the rest outside.
                advanced = daemon.handle(line: Instructions.advance(270), from: connection)?.contains("\"result\"") == true
                daemon.flushPending()
                guard let id = started.split(separator: "\"").drop(while: { $0 != "transition" }).dropFirst(2).first else {
                    throw ValidationError("no transition id in \(started)")
                }
                let get = #"{"jsonrpc":"2.0","id":4,"method":"transition.get","params":{"transition":"\#(id)"}}"#
                guard daemon.handle(line: get, from: connection)?.contains(#""state":"animating""#) == true else {
                    throw ValidationError("the transition was not animating 270 ms in")
                }
                try Instructions.advance(15).utf8CString.withUnsafeBufferPointer { raw in
                    try raw.withMemoryRebound(to: UInt8.self) { bytes in
                        let line = UnsafeBufferPointer(rebasing: bytes[0..<(bytes.count - 1)])
                        output.bytes.removeAll(keepingCapacity: true)
                        var answered = false
                        measured { answered = request(line, daemon, connection, output, path: how) }
                        advanced = advanced && answered && String(decoding: output.bytes, as: UTF8.self).contains("\"result\"")
                    }
                }
                // The transition ended inside the counted advance.
                guard daemon.handle(line: get, from: connection)?.contains(#""state":"completed""#) == true else {
                    throw ValidationError("the transition did not complete inside the counted clock.advance")
                }
                advanced = advanced && daemon.handle(line: Instructions.advance(815), from: connection)?.contains("\"result\"") == true
                daemon.flushPending()
            } else {
                advanced = daemon.handle(line: advance, from: connection)?.contains("\"result\"") == true
                daemon.flushPending()
            }
            guard advanced else { throw ValidationError("clock.advance failed") }
        }
    }

    func frame(subscribers: Int) throws {
        let how = requestPath
        let (daemon, connection, output, listeners) = try frameScene(subscribers: subscribers)
        let step = Array(#"{"jsonrpc":"2.0","id":1,"method":"clock.step","params":{"frames":1}}"#.utf8)
        try step.withUnsafeBufferPointer { line in
            for _ in 0..<iterations {
                output.bytes.removeAll(keepingCapacity: true)
                for listener in listeners {
                    listener.bytes.removeAll(keepingCapacity: true)
                    listener.lines = 0
                }
                var answered = false
                measured { answered = request(line, daemon, connection, output, path: how) }
                guard answered else { throw ValidationError("clock.step was not answered") }
                for listener in listeners {
                    guard listener.lines == 1, listener.bytes.count > 100 * 2 * 50, listener.bytes == listeners[0].bytes else {
                        throw ValidationError("a subscriber got \(listener.lines) lines, not the one frame")
                    }
                }
            }
        }
    }

    /// daemon.frame's unit without its request: the scene stepped one frame in process (`Scene.step`, what the
    /// clock.step handler calls), each step checked to have moved the scene's time and counted a frame of changes.
    func engineFrame() throws {
        let (daemon, _, _, _) = try frameScene(subscribers: 0)
        guard let scene = daemon.scenes["s"] else { throw ValidationError("the daemon.frame scene is missing") }
        for _ in 0..<iterations {
            let before = scene.time
            let framesBefore = scene.framesEvaluated
            measured { scene.step(frames: 1) }
            guard scene.time > before, scene.framesEvaluated == framesBefore + 1 else {
                throw ValidationError("Scene.step did not move one frame of changes (\(before) -> \(scene.time))")
            }
        }
        daemon.flushPending()
    }

    /// The daemon.frame scene: 100 running default transitions on a manual scene at 120 fps, `subscribers`
    /// connections subscribed to its frames, 10 frames into the second round (begun at 2 s: frame 240).
    func frameScene(subscribers: Int) throws -> (Daemon, ClientConnection, KeptOutput, [KeptOutput]) {
        let daemon = daemon()
        let output = KeptOutput()
        let connection = daemon.connect(output: output)
        let n = Instructions.transitions
        try call(daemon, connection, "scene.create", #"{"id":"s","size":{"w":320,"h":480},"clock":"manual","fps":\#(Instructions.fps)}"#)
        for i in 0..<n {
            try call(daemon, connection, "vc.create", #"{"id":"a\#(i)"}"#)
            try call(daemon, connection, "vc.create", #"{"id":"b\#(i)"}"#)
            try call(daemon, connection, "container.create", #"{"id":"c\#(i)","kind":"custom","children":["a\#(i)","b\#(i)"]}"#)
        }
        let listeners = (0..<subscribers).map { _ in KeptOutput() }
        for listener in listeners {
            let other = daemon.connect(output: listener)
            try call(daemon, other, "events.subscribe", #"{"scene":"s","types":["frame"]}"#)
        }
        // A first round to its end (every path warm), then the counted frames inside the second round: the
        // default transition lasts 1 s = 120 frames, 10 + the counted ones stay inside it.
        guard iterations <= 100 else { throw ValidationError("daemon.frame counts at most 100 frames") }
        for index in [1, 0] {
            for i in 0..<n { try call(daemon, connection, "container.select", #"{"container":"c\#(i)","index":\#(index)}"#) }
            try call(daemon, connection, "clock.step", #"{"frames":\#(index == 1 ? Instructions.fps * 2 : 10)}"#)
        }
        daemon.flushPending()
        return (daemon, connection, output, listeners)
    }

    /// The C reference ticking the daemon.frame transitions and writing their frame event (`ref_tick_printed`),
    /// each frame's bytes held equal to the engine's line for the same frame: the daemon's scene is stepped outside
    /// the region, the C reference inside it.
    func printedReference() throws {
        let (daemon, connection, output, listeners) = try frameScene(subscribers: 1)
        let n = Instructions.transitions
        // The second round's selects (of the first items) began at frame 240 = 2 s; 10 frames have run since.
        let printed = PrintedReference(transitions: n, begin: 2_000_000_000, duration: 1, scene: "s",
                                       ids: (0..<n).map { ("a\($0).view", "b\($0).view") }, toFirst: true)
        let step = #"{"jsonrpc":"2.0","id":1,"method":"clock.step","params":{"frames":1}}"#
        for k in 0..<iterations {
            listeners[0].bytes.removeAll(keepingCapacity: true)
            output.bytes.removeAll(keepingCapacity: true)
            guard daemon.handle(line: step, from: connection)?.contains("\"result\"") == true else {
                throw ValidationError("clock.step was not answered")
            }
            daemon.flushPending()
            let line = listeners[0].bytes[...]
            guard let seq = PrintedReference.seq(of: line) else { throw ValidationError("the subscriber got no frame") }
            let now = Int64(Instructions.fps * 2 + 11 + k) * 1_000_000_000 / Int64(Instructions.fps)
            measured { printed.tick(at: now, seq: seq) }
            try printed.check(against: line)
        }
    }

    func reference() {
        let frame = Int64(1_000_000_000 / Instructions.fps)
        let views = ReferenceViews(transitions: Instructions.transitions, begin: 0, duration: 1)
        for i in 1...10 { _ = views.run([Int64(i) * frame]) }
        for i in 0..<iterations {
            let time = Int64(11 + i % 100) * frame
            views.transitions.withUnsafeMutableBufferPointer { buffer in
                measured { ref_tick(buffer.baseAddress, Int32(buffer.count), time) }
            }
        }
    }
}

extension Instructions {
    /// The bench-only animators of the keyframe cases: each adds 100 views to the container and animates their
    /// centers over 1 s, `bench-keyframes` with 4 keyframes (segue.keyframes, linear), `bench-plain` with one
    /// linear `segue.animate` block to the same end.
    static let keyframePlugins = """
        -- segue-bench instructions only (daemon.frame.keyframes, daemon.frame.keyframes.plain).
        local function views(ctx)
          local made = {}
          for i = 1, 100 do
            local v = segue.view { frame = { x = 0, y = i, w = 10, h = 10 } }
            ctx.container:add(v)
            made[i] = v
          end
          return made
        end
        local keyframed = segue.animator {
          name = "bench-keyframes", version = "1.0.0", api = 1,
          duration = function(ctx) return 1 end,
          animate = function(ctx)
            local made = views(ctx)
            segue.keyframes({ duration = 1, curve = "linear" }, function(add)
              for k = 0, 3 do
                add(k * 0.25, 0.25, function()
                  for i = 1, 100 do made[i].center = { x = 10 * (k + 1), y = i + 5 * k } end
                end)
              end
            end, function()
              for i = 1, 100 do made[i]:remove() end
              ctx:complete(true)
            end)
          end,
        }
        local plain = segue.animator {
          name = "bench-plain", version = "1.0.0", api = 1,
          duration = function(ctx) return 1 end,
          animate = function(ctx)
            local made = views(ctx)
            segue.animate({ duration = 1, curve = "linear" }, function()
              for i = 1, 100 do made[i].center = { x = 40, y = i + 15 } end
            end, function()
              for i = 1, 100 do made[i]:remove() end
              ctx:complete(true)
            end)
          end,
        }
        return { keyframed, plain }
        """

    /// One frame of a transition animating 100 views' centers, keyframed (4 keyframes each) or plainly: what a
    /// keyframed property costs per frame against a plainly animated one (issue 24: ≤ 2×).
    func keyframeFrame(animator: String) throws {
        let how = requestPath
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-bench-keyframes-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        try Instructions.keyframePlugins.write(to: folder.appendingPathComponent("bench-keyframes.lua"), atomically: true,
                                               encoding: .utf8)
        let daemon = daemon(plugins: folder.path)
        let output = KeptOutput()
        let connection = daemon.connect(output: output)
        try call(daemon, connection, "scene.create", #"{"id":"s","size":{"w":320,"h":480},"clock":"manual","fps":\#(Instructions.fps)}"#)
        try call(daemon, connection, "vc.create", #"{"id":"a"}"#)
        try call(daemon, connection, "vc.create", #"{"id":"b"}"#)
        try call(daemon, connection, "container.create", #"{"id":"c","kind":"custom","children":["a","b"]}"#)
        try call(daemon, connection, "scene.set_root", #"{"vc":"c"}"#)
        guard iterations <= 100 else { throw ValidationError("the keyframe cases count at most 100 frames") }
        // A first transition to its end (every path warm), then the counted frames inside the second one.
        for index in [1, 0] {
            try call(daemon, connection, "container.select", #"{"container":"c","index":\#(index),"animator":"\#(animator)"}"#)
            try call(daemon, connection, "clock.step", #"{"frames":\#(index == 1 ? Instructions.fps * 2 : 10)}"#)
        }
        daemon.flushPending()
        let step = Array(#"{"jsonrpc":"2.0","id":1,"method":"clock.step","params":{"frames":1}}"#.utf8)
        try step.withUnsafeBufferPointer { line in
            for _ in 0..<iterations {
                output.bytes.removeAll(keepingCapacity: true)
                var answered = false
                measured { answered = request(line, daemon, connection, output, path: how) }
                guard answered else { throw ValidationError("clock.step was not answered") }
            }
        }
    }
}
