import ArgumentParser
import Foundation
import SegueClient
import SegueJSON

/// `segue-bench targets`: issue 13's outside measures that no other subcommand owns, taken through the socket of a
/// release segued started with the shipped config: transition start at 1 000 containers ÷ at 50, a dt-slide
/// select ÷ daemon.ping, and the engine driven over the socket (without and with a frame subscriber).
struct Targets: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Outside measures through the socket: select at 1000 ÷ 50 containers, dt-slide select ÷ ping, engine.",
        discussion: """
            Starts the segued next to this binary with --config (default: the repository's config/segued.toml, the \
            shipped one; run from the repository's folder) on a temporary socket. Every figure is the median of \
            --rounds interleaved rounds (each round measures every row once, in turn), with the daemon's CPU time \
            (utime + stime from /proc, pooled over the rounds: /proc counts in 10 ms ticks) beside it, per unit of \
            work and as cores over the same wall time: on a loaded machine the wall figure includes the time the \
            daemon waited for a core, the CPU figure does not.

            start: a manual scene at 120 fps of N custom containers of two view controllers (N = 1000 and 50); \
            every container selected with the built-in default animator (the small scene in passes, so both see \
            as many selects per round), each request timed from send to response and its reply checked (a \
            transition started: an animator named, duration > 0); the clock is advanced past the end between \
            passes, untimed. Figure: p50 per select, and the ratio.

            select/ping: one connection alternating a container.select with the dt-slide animator (reply checked: \
            a transition, animator dt-slide, duration > 0; the clock advanced past its end after it, untimed) and a \
            daemon.ping. Figure: p50 of each, and the ratio.

            engine: the 1000-container scene, every container selected (untimed), then one connection advances the \
            clock by 0.9 s in one clock.advance with no subscriber: ns per animated property per frame = request \
            time ÷ frames ÷ animated properties (4 per transition). Then a second connection subscribes to the \
            scene's frames and reads every frame event while the first steps the clock one frame per request. \
            Each round then runs the C reference of the `engine` subcommand (CEngineReference) over the same frame \
            times: both figures are also given as engine ÷ reference, wall (median of the rounds' ratios) and CPU.
            """)

    @Option(help: "The config file segued starts with.")
    var config: String = "config/segued.toml"

    @Option(help: "The segued to start (default: the one next to this binary), e.g. an older build to compare.")
    var segued: String?

    @Option(help: "Interleaved rounds (each figure is the median over them).")
    var rounds: Int = 5

    @Option(help: "Containers of the large scene.")
    var large: Int = 1000

    @Option(help: "Containers of the small scene.")
    var small: Int = 50

    @Option(help: "Select/ping pairs per round.")
    var pairs: Int = 2000

    func run() throws {
        guard rounds >= 1, large >= 1, small >= 1, pairs >= 1 else { throw ValidationError("counts must be ≥ 1") }
        guard FileManager.default.fileExists(atPath: config) else {
            throw ValidationError("no config at \(config) (run from the repository's folder, or pass --config)")
        }
        let daemon = try SpawnedDaemon(arguments: ["--config", config], executable: segued)
        defer { daemon.stop() }
        let client = try BenchConnection(socket: daemon.socket)
        let fps = 120
        try client.makeScene("large", containers: large, fps: fps)
        try client.makeScene("small", containers: small, fps: fps)
        try client.makeScene("lua", containers: 1, fps: fps)

        var startLarge: [Phase] = [], startSmall: [Phase] = []
        var selects: [Phase] = [], pings: [Phase] = []
        var engineQuiet: [Phase] = [], engineSubscribed: [Phase] = []
        var properties = 0
        // The C reference (Sources/CEngineReference, the `engine` subcommand's) over the same frame times, each
        // round right after the engine's: the same load for both.
        var reference: [(wall: Double, cpu: Double)] = []
        let referenceTimes = (1...(fps * 9 / 10)).map { Int64($0) * 1_000_000_000 / Int64(fps) }
        for round in 0..<rounds {
            let index = (round + 1) % 2
            // As many selects in the small scene as in the large one: passes, the clock advanced between them.
            var smallRound: [Phase] = []
            for pass in 0..<max(1, large / small) {
                let target = pass % 2 == 0 ? index : 1 - index
                smallRound.append(try daemon.phase { try client.selectAll("small", count: small, index: target) })
                try client.advance("small", ms: 2000)
            }
            if max(1, large / small) % 2 == 0 { _ = try client.selectAll("small", count: small, index: index) }
            try client.advance("small", ms: 2000)
            startSmall.append(Phase.merged(smallRound))
            startLarge.append(try daemon.phase { try client.selectAll("large", count: large, index: index) })
            try client.advance("large", ms: 2000)
            var pingTimes: [UInt64] = []
            selects.append(try daemon.phase {
                try client.luaSelects(pairs: pairs, pings: &pingTimes)
            })
            pings.append(Phase(latencies: pingTimes, seconds: 0, cpuSeconds: 0))
            // The engine: select every container (untimed), then the clock over 0.9 s in one request.
            _ = try client.selectAll("large", count: large, index: 1 - index)
            properties = large * 4
            let frames = fps * 9 / 10
            engineQuiet.append(try daemon.phase { try client.advanceTimed("large", ms: 900) })
            try client.advance("large", ms: 2000)
            _ = try client.selectAll("large", count: large, index: index)
            do {
                let listener = try BenchConnection(socket: daemon.socket)
                let subscription = try listener.subscribeFrames("large")
                engineSubscribed.append(try daemon.phase { try client.stepsRead(by: listener, frames: frames) })
                try listener.call("events.unsubscribe", ["subscription": subscription])
            }
            try client.advance("large", ms: 2000)
            reference.append(ReferenceViews(transitions: large, begin: 0, duration: 1).run(referenceTimes))
            print("round \(round + 1)/\(rounds) done")
        }
        let frames = Double(fps * 9 / 10)
        func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        let large50 = median(startLarge.map(\.p50)), small50 = median(startSmall.map(\.p50))
        let ratio = median(zip(startLarge, startSmall).map { $0.p50 / $1.p50 })
        print(String(format: "start: container.select p50  %d containers %.1f µs  %d containers %.1f µs  ratio %.2f×",
                     large, large50 / 1000, small, small50 / 1000, ratio))
        let cpuLarge = Phase.merged(startLarge), cpuSmall = Phase.merged(startSmall)
        let cpuPerLarge = cpuLarge.cpuSeconds * 1e6 / Double(max(1, cpuLarge.latencies.count))
        let cpuPerSmall = cpuSmall.cpuSeconds * 1e6 / Double(max(1, cpuSmall.latencies.count))
        print(String(format: "  daemon CPU per select (all rounds): %.1f / %.1f µs, ratio %.2f×; %.2f / %.2f core; %.0f / %.0f selects/s",
                     cpuPerLarge, cpuPerSmall, cpuPerLarge / max(cpuPerSmall, 1e-9), cpuLarge.cores, cpuSmall.cores,
                     median(startLarge.map(\.perSecond)), median(startSmall.map(\.perSecond))))
        let selectRatio = median(zip(selects, pings).map { $0.p50 / $1.p50 })
        print(String(format: "select/ping: dt-slide container.select p50 %.1f µs, daemon.ping p50 %.1f µs  ratio %.2f×",
                     median(selects.map(\.p50)) / 1000, median(pings.map(\.p50)) / 1000, selectRatio))
        print(String(format: "  daemon CPU over the alternation: %.2f core", Phase.merged(selects).cores))
        let quiet = engineQuiet.map { $0.seconds * 1e9 / frames / Double(properties) }
        print(String(format: "engine (socket, no subscriber): %.1f ns per animated property per frame  (%d properties, clock.advance 900 ms)",
                     median(quiet), properties))
        let quietAll = Phase.merged(engineQuiet)
        print(String(format: "  daemon CPU: %.1f ns per animated property per frame (all rounds); %.2f core; %.0f frames/s",
                     quietAll.cpuSeconds * 1e9 / frames / Double(rounds * properties), quietAll.cores,
                     median(engineQuiet.map { frames / $0.seconds })))
        let subscribed = engineSubscribed.map { $0.seconds * 1e9 / frames / Double(properties) }
        print(String(format: "engine (socket, a subscriber reading every frame): %.1f ns per animated property per frame",
                     median(subscribed)))
        let subscribedAll = Phase.merged(engineSubscribed)
        print(String(format: "  daemon CPU: %.1f ns per animated property per frame (all rounds); %.2f core; %.0f frames/s",
                     subscribedAll.cpuSeconds * 1e9 / frames / Double(rounds * properties), subscribedAll.cores,
                     median(engineSubscribed.map { frames / $0.seconds })))
        let perProperty = frames * Double(properties)
        let referenceWall = median(reference.map { $0.wall / perProperty })
        let referenceCPU = reference.reduce(0) { $0 + $1.cpu } / (perProperty * Double(rounds))
        print(String(format: "C reference (same work, same run): %.1f ns per animated property per frame (CPU %.1f ns)",
                     referenceWall, referenceCPU))
        print(String(format: "engine through the socket ÷ C reference: no subscriber %.2f× (CPU %.2f×), a subscriber %.2f× (CPU %.2f×)",
                     median(zip(engineQuiet, reference).map { $0.seconds * 1e9 / $1.wall }),
                     quietAll.cpuSeconds * 1e9 / Double(rounds) / perProperty / max(referenceCPU, 1e-9),
                     median(zip(engineSubscribed, reference).map { $0.seconds * 1e9 / $1.wall }),
                     subscribedAll.cpuSeconds * 1e9 / Double(rounds) / perProperty / max(referenceCPU, 1e-9)))
    }
}

/// One measured stretch: request latencies (ns), wall time, and the daemon's CPU time over it.
struct Phase {
    var latencies: [UInt64]
    var seconds: Double
    var cpuSeconds: Double

    var p50: Double {
        let sorted = latencies.sorted()
        return sorted.isEmpty ? 0 : Double(sorted[sorted.count / 2])
    }
    var cores: Double { seconds > 0 ? cpuSeconds / seconds : 0 }

    /// Several stretches as one: every latency, the summed wall and CPU time.
    static func merged(_ phases: [Phase]) -> Phase {
        Phase(latencies: phases.flatMap(\.latencies), seconds: phases.reduce(0) { $0 + $1.seconds },
              cpuSeconds: phases.reduce(0) { $0 + $1.cpuSeconds })
    }
    var perSecond: Double { seconds > 0 ? Double(latencies.count) / seconds : 0 }
}

extension SpawnedDaemon {
    /// utime + stime of the daemon, in seconds.
    var cpuSeconds: Double { ProcessCPU.seconds(of: pid) ?? 0 }

    /// Runs `body` (which returns the request latencies it timed), with its wall time and the daemon's CPU time.
    func phase(_ body: () throws -> [UInt64]) throws -> Phase {
        let cpu = cpuSeconds
        let start = DispatchTime.now().uptimeNanoseconds
        let latencies = try body()
        let seconds = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        return Phase(latencies: latencies, seconds: seconds, cpuSeconds: cpuSeconds - cpu)
    }
}

/// One blocking connection doing round trips with prebuilt lines; replies are checked after the clock stops.
final class BenchConnection {
    let client: SegueClient

    init(socket: String) throws {
        client = try SegueClient(socketPath: socket)
    }

    @discardableResult
    func call(_ method: String, _ params: JSONObject) throws -> JSONValue {
        do {
            return try client.call(method, params)
        } catch {
            throw ValidationError("\(method): \(error)")
        }
    }

    /// A manual scene at `fps` of `containers` custom containers c0… of two view controllers each.
    func makeScene(_ id: String, containers: Int, fps: Int) throws {
        try call("scene.create", ["id": .string(id), "size": ["w": 320, "h": 480], "clock": "manual",
                                  "fps": .number(Double(fps))])
        for i in 0..<containers {
            try call("vc.create", ["scene": .string(id), "id": .string("a\(i)")])
            try call("vc.create", ["scene": .string(id), "id": .string("b\(i)")])
            try call("container.create", ["scene": .string(id), "id": .string("c\(i)"), "kind": "custom",
                                          "children": [.string("a\(i)"), .string("b\(i)")]])
        }
    }

    /// One request line, timed from send to the response (events before it are skipped); the response line.
    func timed(_ line: String) throws -> (UInt64, String) {
        let start = DispatchTime.now().uptimeNanoseconds
        try client.send(line: line)
        while true {
            guard let reply = try client.readLine() else { throw ValidationError("no reply") }
            if reply.hasPrefix(#"{"jsonrpc":"2.0","method":"event""#) { continue }
            return (DispatchTime.now().uptimeNanoseconds - start, reply)
        }
    }

    /// Checks a select's reply: a transition started (a transition id, an animator named, duration > 0).
    static func checkStarted(_ reply: String, animator: String? = nil) throws {
        guard let value = try? JSONParser.parse(reply), let result = value["result"],
            result["transition"]?.stringValue != nil, let named = result["animator"]?.stringValue,
            let duration = result["duration"]?.doubleValue, duration > 0, animator == nil || named == animator
        else { throw ValidationError("a select started no transition: \(reply.prefix(300))") }
    }

    /// Selects `index` in every container of the scene, each request timed; every reply checked.
    func selectAll(_ scene: String, count: Int, index: Int) throws -> [UInt64] {
        var latencies: [UInt64] = [], replies: [String] = []
        latencies.reserveCapacity(count)
        replies.reserveCapacity(count)
        for i in 0..<count {
            let line = #"{"jsonrpc":"2.0","id":1,"method":"container.select","params":{"scene":"\#(scene)","container":"c\#(i)","index":\#(index)}}"#
            let (ns, reply) = try timed(line)
            latencies.append(ns)
            replies.append(reply)
        }
        for reply in replies { try Self.checkStarted(reply) }
        return latencies
    }

    func advance(_ scene: String, ms: Int) throws {
        try call("clock.advance", ["scene": .string(scene), "ms": .number(Double(ms))])
    }

    func advanceTimed(_ scene: String, ms: Int) throws -> [UInt64] {
        let (ns, reply) = try timed(#"{"jsonrpc":"2.0","id":1,"method":"clock.advance","params":{"scene":"\#(scene)","ms":\#(ms)}}"#)
        guard reply.contains(#""result""#) else { throw ValidationError("clock.advance: \(reply.prefix(300))") }
        return [ns]
    }

    /// Alternates a dt-slide select on scene "lua" (the clock then advanced past its end, untimed) and a ping.
    func luaSelects(pairs: Int, pings: inout [UInt64]) throws -> [UInt64] {
        let ping = #"{"jsonrpc":"2.0","id":2,"method":"daemon.ping"}"#
        let advance = #"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"scene":"lua","ms":5000}}"#
        var selects: [UInt64] = []
        var index = 1
        for _ in 0..<pairs {
            let select = #"{"jsonrpc":"2.0","id":1,"method":"container.select","params":{"scene":"lua","container":"c0","index":\#(index),"animator":"dt-slide"}}"#
            let (ns, reply) = try timed(select)
            try Self.checkStarted(reply, animator: "dt-slide")
            selects.append(ns)
            _ = try timed(advance)
            let (pingNs, pong) = try timed(ping)
            guard pong.hasSuffix(#""result":"pong"}"#) else { throw ValidationError("daemon.ping: \(pong)") }
            pings.append(pingNs)
            index = 1 - index
        }
        return selects
    }

    /// Subscribes to the scene's frame events; the subscription's number.
    func subscribeFrames(_ scene: String) throws -> JSONValue {
        try call("events.subscribe", ["scene": .string(scene), "types": ["frame"]])["subscription"] ?? .null
    }

    /// Steps the clock one frame per request; after each response, `listener` reads that frame's event.
    func stepsRead(by listener: BenchConnection, frames: Int) throws -> [UInt64] {
        let step = #"{"jsonrpc":"2.0","id":1,"method":"clock.step","params":{"scene":"large","frames":1}}"#
        var latencies: [UInt64] = []
        var bytes = 0
        let prefix = Array(#"{"jsonrpc":"2.0","method":"event","params":{"#.utf8)
        for _ in 0..<frames {
            let start = DispatchTime.now().uptimeNanoseconds
            let (_, reply) = try timed(step)
            guard reply.contains(#""result""#) else { throw ValidationError("clock.step: \(reply.prefix(300))") }
            // The bytes are looked at, not decoded into a String: a neutral reader finds the line and goes on.
            guard let length = try listener.client.readLine(timeoutMs: 10_000, { line in
                line.starts(with: prefix) ? line.count : -1
            }) else {
                throw ValidationError("the subscriber got no frame event")
            }
            guard length >= 0 else { throw ValidationError("the subscriber got a line that is not an event") }
            bytes += length
            latencies.append(DispatchTime.now().uptimeNanoseconds - start)
        }
        guard bytes > frames * 100 else { throw ValidationError("frame events too short to be frames") }
        return latencies
    }
}
