import ArgumentParser
import Foundation
import Logging
import SegueDaemon

/// `segue-bench scaling`: how a transition start and a `container.create` scale with the scene around them
/// (issue 24): a 2-view transition in a scene holding 10 000 views ÷ the same in a scene of 10, and one
/// `container.create` with 6 000 containers in the scene ÷ with 1 000. In process (`Daemon.handle`, the daemon's
/// whole request path without the socket), the two scenes alternated so both see the same machine load, every
/// reply checked.
struct Scaling: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Transition start and container.create against the size of the scene (ratios, in process).",
        discussion: """
            start: a custom container of two view controllers is the root of a manual scene; container.select \
            switches between them (the dt-slide Lua animator, then the built-in one), the clock advanced past the \
            end between selects, untimed. The small scene holds 10 views; the large one --views (default 10 000): \
            `off screen`, the other views are view controllers' views off screen (vc.create, 3 per custom \
            container of two); `in the container`, a plugin put them into the container's view beside the two \
            the transition moves (a bench-only animator, bench-fill, from a temporary plugin folder). Printed: the \
            p50 of each select and the ratio large ÷ small (target ≤ 1.2×: the start is proportional to the views \
            the transition touches); and the whole transition's p50 — the select, the clock.advance past its end \
            and a select in a fourth small scene that pays whatever the end left for the next request — large ÷ \
            small.

            frame: in the 10-view scene and the one with the views in the container, a dt-slide select, then 10 \
            frames each after a vc.set of an off-screen view controller's colour (a value set outside an \
            animation: every running transition's timeline samples its container at that tick); \
            printed: the p50 of the clock.step, large ÷ small (the sample is a patch on the transition's first \
            one, the views changed since: docs/DESIGN.md §3, crowdsample).

            create: container.create of a custom container with two new view controllers, timed when the scene \
            holds 1 000 and 6 000 containers (p50 of 200 creates at each size, each undone by container-less \
            view controllers kept apart so the count stays put: the creates go into separate scenes of each \
            size). Printed: both p50s, the ratio and the log-log slope (0: a create costs the same whatever the \
            number of containers; 1: linear in it).
            """)

    @Option(help: "Views in the large scene of the start measure.")
    var views: Int = 10_000

    @Option(help: "Timed selects per scene and animator.")
    var selects: Int = 300

    @Option(help: "Run only `start`, `frame` or `create` (or `debt`: what a crowded end leaves for the next request).")
    var only: String?

    final class Sink: ConnectionOutput {
        var isWritable: Bool { true }
        func send(_ line: String) {}
        func flush() {}
        func close() {}
    }

    /// A daemon with the repository's plugins and the bench's fill animator, limits raised for the large scenes.
    static func daemon(pluginsDir: String) -> Daemon {
        var config = DaemonConfig()
        config.pluginsDir = pluginsDir
        config.engine.maxViewsPerScene = 1_000_000
        config.lua.instructionBudget = 2_000_000_000
        config.lua.callTimeoutMs = 60_000
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let daemon = Daemon(config: config, logger: logger)
        daemon.start()
        return daemon
    }

    static let fill = """
        -- segue-bench scaling only: puts `ctx.info.views` new views into the container's view and completes.
        return segue.animator {
          name = "bench-fill", version = "1.0.0", api = 1,
          duration = function(ctx) return 0.01 end,
          animate = function(ctx)
            local n = (ctx.info and ctx.info.views) or 0
            for i = 1, n do
              ctx.container:add(segue.view { frame = { x = i % 300, y = i % 400, w = 10, h = 10 } })
            end
            ctx:complete(true)
          end,
        }
        """

    func run() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("segue-bench-scaling-\(getpid())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let plugins = FileManager.default.currentDirectoryPath + "/plugins"
        for name in try FileManager.default.contentsOfDirectory(atPath: plugins) where name.hasSuffix(".lua") {
            try FileManager.default.copyItem(atPath: plugins + "/" + name, toPath: folder.path + "/" + name)
        }
        try Scaling.fill.write(to: folder.appendingPathComponent("bench-fill.lua"), atomically: true, encoding: .utf8)
        let daemon = Scaling.daemon(pluginsDir: folder.path)
        let connection = daemon.connect(output: Sink())
        func call(_ method: String, _ params: String) throws {
            let line = #"{"jsonrpc":"2.0","id":1,"method":""# + method + #"","params":"# + params + "}"
            guard let reply = daemon.handle(line: line, from: connection), reply.contains("\"result\"") else {
                throw ValidationError("\(method) \(params) failed")
            }
            daemon.flushPending()
        }
        if only == nil || only == "start" || only == "frame" || only == "debt" { try start(daemon, connection, call) }
        if only == nil || only == "create" { try create(daemon, connection, call) }
    }

    static func median(_ values: [UInt64]) -> Double { Double(values.sorted()[values.count / 2]) }

    func start(_ daemon: Daemon, _ connection: ClientConnection, _ call: (String, String) throws -> Void) throws {
        // Scenes: s10 (10 views), off (the views off screen), in (the views in the container's view).
        func scene(_ id: String) throws {
            try call("scene.create", #"{"id":"\#(id)","size":{"w":320,"h":480},"clock":"manual"}"#)
            try call("vc.create", #"{"scene":"\#(id)","id":"a"}"#)
            try call("vc.create", #"{"scene":"\#(id)","id":"b"}"#)
            try call("container.create", #"{"scene":"\#(id)","id":"c","kind":"custom","children":["a","b"]}"#)
            try call("scene.set_root", #"{"scene":"\#(id)","vc":"c"}"#)
        }
        let base = 5  // window, the container's view, a's, b's, and one more below
        try scene("s10")
        for i in 0..<(10 - base) { try call("vc.create", #"{"scene":"s10","id":"x\#(i)"}"#) }
        try scene("off")
        var made = base - 1
        var k = 0
        while made + 3 <= views {
            try call("vc.create", #"{"scene":"off","id":"p\#(k)"}"#)
            try call("vc.create", #"{"scene":"off","id":"q\#(k)"}"#)
            try call("container.create", #"{"scene":"off","id":"r\#(k)","kind":"custom","children":["p\#(k)","q\#(k)"]}"#)
            made += 3
            k += 1
        }
        while made < views {
            try call("vc.create", #"{"scene":"off","id":"y\#(made)"}"#)
            made += 1
        }
        try scene("in")
        var left = views - (base - 1)
        var index = 1
        while left > 0 {
            let n = min(left, 1000)
            try call("container.select", #"{"scene":"in","container":"c","index":\#(index),"animator":"bench-fill","info":{"views":\#(n)}}"#)
            try call("clock.advance", #"{"scene":"in","ms":100}"#)
            left -= n
            index = 1 - index
        }
        if index == 0 {  // back on a
            try call("container.select", #"{"scene":"in","container":"c","index":0,"animator":"bench-fill"}"#)
            try call("clock.advance", #"{"scene":"in","ms":100}"#)
        }
        // A fourth small scene takes a select after each measured scene's transition: work a transition's end
        // leaves for the next request (measured: a select after the crowded scene's end paid ~100 µs of it) is
        // paid there, inside the measured transition's whole time and never in another scene's start, and every
        // timed select follows the same request (the sink's clock.advance).
        try scene("sink")
        let scenes = ["s10", "off", "in"]
        for animator in only == "frame" || only == "debt" ? [] : ["dt-slide", "built-in"] {
            var times: [String: [UInt64]] = [:]
            var whole: [String: [UInt64]] = [:]
            var index = 1
            var sinkIndex = 1
            let named = animator == "built-in" ? "" : #","animator":"\#(animator)""#
            func select(_ id: String, _ index: Int) throws -> UInt64 {
                let line = #"{"jsonrpc":"2.0","id":1,"method":"container.select","params":{"scene":"\#(id)","container":"c","index":\#(index)\#(named)}}"#
                let t0 = DispatchTime.now().uptimeNanoseconds
                let reply = daemon.handle(line: line, from: connection)
                let t1 = DispatchTime.now().uptimeNanoseconds
                daemon.flushPending()
                guard let reply, reply.contains(#""transition":"t-"#) else {
                    throw ValidationError("the select in \(id) started no transition: \(reply ?? "no reply")")
                }
                return t1 - t0
            }
            for round in 0..<(selects + 20) {
                // Each round in another order, so no scene is always measured first.
                for k in 0..<scenes.count {
                    let id = scenes[(round + k) % scenes.count]
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    let start = try select(id, index)
                    try call("clock.advance", #"{"scene":"\#(id)","ms":1100}"#)
                    _ = try select("sink", sinkIndex)
                    let t1 = DispatchTime.now().uptimeNanoseconds
                    sinkIndex = 1 - sinkIndex
                    try call("clock.advance", #"{"scene":"sink","ms":1100}"#)
                    if round >= 20 {
                        times[id, default: []].append(start)
                        whole[id, default: []].append(t1 - t0)
                    }
                }
                index = 1 - index
            }
            let small = Scaling.median(times["s10"] ?? [1])
            let smallWhole = Scaling.median(whole["s10"] ?? [1])
            for (id, label) in [("off", "off screen"), ("in", "in the container")] {
                let large = Scaling.median(times[id] ?? [1])
                print(String(format: "start %@: %d views %@ ÷ 10, p50: %.2f×  (%.1f µs ÷ %.1f µs)",
                             animator, views, label, large / small, large / 1000, small / 1000))
                let largeWhole = Scaling.median(whole[id] ?? [1])
                print(String(format: "transition %@: %d views %@ ÷ 10, p50: %.2f×  (%.1f µs ÷ %.1f µs: the select, the clock.advance past its end, the next select elsewhere)",
                             animator, views, label, largeWhole / smallWhole, largeWhole / 1000, smallWhole / 1000))
            }
        }
        if only == nil || only == "frame" { try frame(daemon, connection, call) }
        if only == "debt" { try debt(daemon, connection, call) }
    }

    /// `--only debt` (issue 24: what a crowded transition's end leaves for the next request): the p50 of a select
    /// in the small `sink` scene right after a dt-slide transition ended (the `clock.advance` past its end, untimed)
    /// in the 10-view scene or in the crowded container, and after the small scene's end followed by a walk over
    /// 32 MB (evicting the caches as the crowded end's samples do) or after the crowded end followed by
    /// `malloc_trim(0)` (glibc's free lists handed back).
    func debt(_ daemon: Daemon, _ connection: ClientConnection, _ call: (String, String) throws -> Void) throws {
        var buffer = [UInt8](repeating: 1, count: 32 << 20)
        var sum = 0
        var times: [String: [UInt64]] = [:]
        var index = 1, sinkIndex = 1
        let cases = [("s10", "after the 10-view end"), ("in", "after the crowded end"),
                     ("s10+flush", "after the 10-view end, then 32 MB walked"),
                     ("in+trim", "after the crowded end, then malloc_trim(0)")]
        for round in 0..<(selects + 20) {
            for (name, _) in cases {
                let id = name.hasPrefix("in") ? "in" : "s10"
                try call("container.select", #"{"scene":"\#(id)","container":"c","index":\#(index),"animator":"dt-slide"}"#)
                try call("clock.advance", #"{"scene":"\#(id)","ms":1100}"#)
                if name.hasSuffix("flush") {
                    for i in stride(from: 0, to: buffer.count, by: 64) { buffer[i] &+= 1; sum &+= Int(buffer[i]) }
                }
                if name.hasSuffix("trim") { _ = scalingMallocTrim(0) }
                let line = #"{"jsonrpc":"2.0","id":1,"method":"container.select","params":{"scene":"sink","container":"c","index":\#(sinkIndex),"animator":"dt-slide"}}"#
                let t0 = DispatchTime.now().uptimeNanoseconds
                let reply = daemon.handle(line: line, from: connection)
                let t1 = DispatchTime.now().uptimeNanoseconds
                daemon.flushPending()
                guard let reply, reply.contains(#""transition":"t-"#) else {
                    throw ValidationError("the select in sink started no transition: \(reply ?? "no reply")")
                }
                sinkIndex = 1 - sinkIndex
                try call("clock.advance", #"{"scene":"sink","ms":1100}"#)
                if round >= 20 { times[name, default: []].append(t1 - t0) }
            }
            index = 1 - index
        }
        for (name, label) in cases {
            print(String(format: "debt: the next select %@, p50: %.1f µs", label, Scaling.median(times[name] ?? [1]) / 1000))
        }
        if sum == 42 { print("") }
    }

    /// A frame of a running transition on which a client set a value outside an animation (`vc.set` of a view
    /// off screen: the scene's values changed, so each running transition's timeline samples its container again):
    /// with 10 000 views in the container ÷ with 10 in the scene, p50 of the `clock.step`.
    func frame(_ daemon: Daemon, _ connection: ClientConnection, _ call: (String, String) throws -> Void) throws {
        for id in ["s10", "in"] { try call("vc.create", #"{"scene":"\#(id)","id":"w"}"#) }
        var times: [String: [UInt64]] = [:]
        var index = 1
        for round in 0..<(selects / 10 + 4) {
            for id in ["s10", "in"] {
                try call("container.select", #"{"scene":"\#(id)","container":"c","index":\#(index),"animator":"dt-slide"}"#)
                for k in 0..<10 {
                    try call("vc.set", #"{"scene":"\#(id)","vc":"w","color":"\#(k % 2 == 0 ? "#102030" : "#203040")"}"#)
                    let line = #"{"jsonrpc":"2.0","id":1,"method":"clock.step","params":{"scene":"\#(id)","frames":1}}"#
                    let t0 = DispatchTime.now().uptimeNanoseconds
                    let reply = daemon.handle(line: line, from: connection)
                    let t1 = DispatchTime.now().uptimeNanoseconds
                    daemon.flushPending()
                    guard let reply, reply.contains("\"result\"") else {
                        throw ValidationError("clock.step in \(id) failed: \(reply ?? "no reply")")
                    }
                    if round >= 4 { times[id, default: []].append(t1 - t0) }
                }
                try call("clock.advance", #"{"scene":"\#(id)","ms":1100}"#)
            }
            index = 1 - index
        }
        let small = Scaling.median(times["s10"] ?? [1]), large = Scaling.median(times["in"] ?? [1])
        print(String(format: "frame dt-slide after a write: %d views in the container ÷ 10, p50: %.2f×  (%.1f µs ÷ %.1f µs)",
                     views, large / small, large / 1000, small / 1000))
    }

    func create(_ daemon: Daemon, _ connection: ClientConnection, _ call: (String, String) throws -> Void) throws {
        let sizes = [1_000, 6_000]
        let timedCreates = 200
        for size in sizes {
            try call("scene.create", #"{"id":"k\#(size)","size":{"w":320,"h":480},"clock":"manual"}"#)
            for i in 0..<size {
                try call("vc.create", #"{"scene":"k\#(size)","id":"a\#(i)"}"#)
                try call("vc.create", #"{"scene":"k\#(size)","id":"b\#(i)"}"#)
                try call("container.create", #"{"scene":"k\#(size)","id":"c\#(i)","kind":"custom","children":["a\#(i)","b\#(i)"]}"#)
            }
            for i in 0..<timedCreates {
                try call("vc.create", #"{"scene":"k\#(size)","id":"ta\#(i)"}"#)
                try call("vc.create", #"{"scene":"k\#(size)","id":"tb\#(i)"}"#)
            }
        }
        var times: [Int: [UInt64]] = [:]
        for i in 0..<timedCreates {
            for size in sizes {
                let line = #"{"jsonrpc":"2.0","id":1,"method":"container.create","params":{"scene":"k\#(size)","id":"tc\#(i)","kind":"custom","children":["ta\#(i)","tb\#(i)"]}}"#
                let t0 = DispatchTime.now().uptimeNanoseconds
                let reply = daemon.handle(line: line, from: connection)
                let t1 = DispatchTime.now().uptimeNanoseconds
                guard let reply, reply.contains("\"result\"") else { throw ValidationError("container.create failed: \(reply ?? "")") }
                times[size, default: []].append(t1 - t0)
            }
        }
        let small = Scaling.median(times[sizes[0]] ?? [1]), large = Scaling.median(times[sizes[1]] ?? [1])
        let slope = log(large / small) / log(Double(sizes[1]) / Double(sizes[0]))
        print(String(format: "create: container.create at 6000 ÷ 1000 containers, p50: %.2f×, slope %.2f  (%.1f µs ÷ %.1f µs)",
                     large / small, slope, large / 1000, small / 1000))
    }
}

/// glibc's malloc_trim (not in the Glibc module's headers): hands the heap's free memory back (`scaling --only debt`).
@_silgen_name("malloc_trim")
private func scalingMallocTrim(_ pad: Int) -> Int32
