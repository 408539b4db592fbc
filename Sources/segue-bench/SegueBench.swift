import ArgumentParser
import Foundation
import SegueClient
import SegueDaemon
import SegueJSON
import SegueKit

@main
struct SegueBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segue-bench",
        abstract: "Benchmarks for segued (docs/DESIGN.md §5). Build with -c release before measuring.",
        subcommands: [Ping.self, Engine.self, Dispatch.self, Floor.self, Lua.self, Realtime.self, Targets.self, Printer.self, Instructions.self, Memory.self, Scaling.self, Crowd.self])
}

struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "daemon.ping round trips: requests per second and p50/p99 latency; with --redis, against Redis's PING.",
        discussion: """
            Without --socket it starts the segued next to this binary on a temporary socket (with the bundled \
            plugins) and stops it afterwards. Each connection is a thread doing blocking round trips, one request \
            in flight per connection, the way a test script drives the daemon.

            With --redis it also starts a redis-server of its own on a temporary Unix socket and measures its PING \
            with the very same client code (SegueClient's send and readLine; PING is sent as the RESP array \
            *1 $4 PING, one request in flight per connection), alternating rounds of the two so both see the same \
            machine load, and prints both and the ratio (docs/DESIGN.md §5: target ≥ 1.0×, p99 no worse).

            Beside each it prints the server's CPU per request: the server process's utime + stime from \
            /proc/PID/stat over the timed part of each round ÷ its requests, and the ratio to Redis's (target \
            ≤ 1.0×). For a running daemon (--socket) give its --pid; Redis's is read only when this starts it.
            """)

    @Option(help: "A running daemon's socket (default: start one).")
    var socket: String?

    @Option(help: "Concurrent connections; a comma-separated list measures each (e.g. 1,8).")
    var connections: String = "1"

    @Option(help: "Round trips per connection per round (after a warm-up of 1000).")
    var requests: Int = 50_000

    @Flag(help: "Also measure Redis's PING side by side (starts its own redis-server).")
    var redis = false

    @Option(help: "The redis-server to start with --redis.")
    var redisServer: String = "redis-server"

    @Option(help: "With --redis: a running Redis's Unix socket instead of starting one.")
    var redisSocket: String?

    @Option(help: "Rounds per target and connection count (alternating segued and redis).")
    var rounds: Int = 3

    @Option(help: "With --socket: the running daemon's process id, for its CPU per request (/proc/PID/stat).")
    var pid: Int32?

    func run() throws {
        let counts = connections.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 1 && $0 <= 256 }) else {
            throw ValidationError("--connections must be numbers between 1 and 256, comma-separated")
        }
        let spawned = socket == nil ? try SpawnedDaemon() : nil
        defer { spawned?.stop() }
        let path = socket ?? spawned?.socket ?? ""
        let redisServer = redis && redisSocket == nil ? try RedisServer(executable: self.redisServer) : nil
        defer { redisServer?.stop() }
        let redisPath = redisSocket ?? redisServer?.socket
        let segued = PingTarget.segued(socket: path, pid: spawned?.pid ?? pid)
        for count in counts {
            guard redis, let redisPath else {
                let result = try PingBenchmark.run(target: segued, connections: count, requests: requests)
                print(String(format: "daemon.ping  connections=%d  requests=%d  %.0f req/s  p50 %.1f µs  p99 %.1f µs%@",
                             count, result.total, result.perSecond, result.p50, result.p99, result.cpuText))
                continue
            }
            let redisTarget = PingTarget.redis(socket: redisPath, pid: redisServer?.pid)
            var ours: [PingBenchmark.Result] = [], theirs: [PingBenchmark.Result] = []
            for _ in 0..<max(1, rounds) {
                ours.append(try PingBenchmark.run(target: segued, connections: count, requests: requests))
                theirs.append(try PingBenchmark.run(target: redisTarget, connections: count, requests: requests))
            }
            let a = PingBenchmark.Result.pooled(ours), b = PingBenchmark.Result.pooled(theirs)
            print(String(format: "connections=%d  %d round trips each, %d alternating rounds", count, a.total, rounds))
            print(String(format: "  segued daemon.ping  %8.0f req/s  p50 %6.1f µs  p99 %6.1f µs%@", a.perSecond, a.p50, a.p99,
                         a.cpuText))
            print(String(format: "  redis  PING         %8.0f req/s  p50 %6.1f µs  p99 %6.1f µs%@", b.perSecond, b.p50, b.p99,
                         b.cpuText))
            func perRound(_ rounds: [PingBenchmark.Result]) -> String {
                rounds.map { String(format: "%.0f", $0.perSecond) }.joined(separator: " ")
            }
            func perRoundCPU(_ rounds: [PingBenchmark.Result]) -> String {
                rounds.map { String(format: "%.2f", ($0.cpuPerRequest ?? .nan) * 1e6) }.joined(separator: " ")
            }
            print("  rounds (req/s): segued \(perRound(ours)); redis \(perRound(theirs))")
            // Each segued round and the Redis round right after it saw nearly the same machine load: the median of
            // their ratios is the figure that load swings on a shared machine move least.
            let paired = zip(ours, theirs).map { $0.perSecond / $1.perSecond }.sorted()
            let median = paired[paired.count / 2]
            print(String(format: "  ratio %.2f× (median of paired rounds; pooled %.2f×)  target ≥ 1.0×, below 0.8× is a defect (docs/DESIGN.md §5)",
                         median, a.perSecond / b.perSecond))
            print(String(format: "  p99 %@ (%.1f vs %.1f µs)", a.p99 <= b.p99 ? "no worse" : "WORSE", a.p99, b.p99))
            // Server CPU per request (utime + stime of the server process over the timed part of each round).
            let cpuPaired = zip(ours, theirs).compactMap { pair -> Double? in
                guard let x = pair.0.cpuPerRequest, let y = pair.1.cpuPerRequest, y > 0 else { return nil }
                return x / y
            }.sorted()
            if !cpuPaired.isEmpty, let x = a.cpuPerRequest, let y = b.cpuPerRequest {
                print(String(format: "  server CPU per request %.2f× (median of paired rounds; pooled %.2f×, %.2f vs %.2f µs)  target ≤ 1.0×",
                             cpuPaired[cpuPaired.count / 2], x / y, x * 1e6, y * 1e6))
                print("  rounds (CPU µs/request): segued \(perRoundCPU(ours)); redis \(perRoundCPU(theirs))")
            }
        }
    }
}

/// What a ping benchmark talks to: a socket, the line it sends and how it knows the reply is right.
struct PingTarget: Sendable {
    let socket: String
    let request: String
    /// The server's process (its CPU per request is read from /proc); nil: not measured.
    var pid: Int32? = nil
    let isReply: @Sendable (String) -> Bool

    /// segued: a JSON-RPC daemon.ping request; the reply ends with the "pong" result.
    static func segued(socket: String, pid: Int32? = nil) -> PingTarget {
        PingTarget(socket: socket, request: #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#, pid: pid) {
            $0.hasSuffix("\"result\":\"pong\"}")
        }
    }

    /// Redis: PING as a RESP array (*1 $4 PING, CRLF-terminated; the client's newline ends the last CRLF), the
    /// reply +PONG (its line, as the client reads up to the newline, keeps the CR).
    static func redis(socket: String, pid: Int32? = nil) -> PingTarget {
        PingTarget(socket: socket, request: "*1\r\n$4\r\nPING\r", pid: pid) { $0 == "+PONG\r" }
    }
}

enum PingBenchmark {
    struct Result {
        let total: Int
        let perSecond: Double
        let p50: Double
        let p99: Double
        /// Latencies in nanoseconds, sorted, and the wall time of the round (for pooling rounds).
        let latencies: [UInt64]
        let seconds: Double
        /// The server's CPU seconds over the round (utime + stime), when its process is known.
        let cpuSeconds: Double?

        /// Server CPU seconds per request.
        var cpuPerRequest: Double? { cpuSeconds.map { $0 / Double(max(1, total)) } }

        /// " CPU x.xx µs/request (n.nn cores)", or nothing when the server's CPU was not read.
        var cpuText: String {
            guard let cpu = cpuSeconds, let each = cpuPerRequest else { return "" }
            return String(format: "  CPU %.2f µs/request (%.2f cores)", each * 1e6, cpu / max(seconds, 1e-9))
        }

        init(latencies: [UInt64], seconds: Double, cpuSeconds: Double? = nil) {
            let all = latencies.sorted()
            self.latencies = all
            self.seconds = seconds
            self.cpuSeconds = cpuSeconds
            total = all.count
            perSecond = Double(all.count) / max(seconds, 1e-9)
            func pct(_ p: Double) -> Double { all.isEmpty ? 0 : Double(all[min(all.count - 1, Int(Double(all.count) * p))]) / 1000 }
            p50 = pct(0.5)
            p99 = pct(0.99)
        }

        /// Several rounds as one: every latency, and the requests over the summed wall time.
        static func pooled(_ rounds: [Result]) -> Result {
            let cpu = rounds.allSatisfy { $0.cpuSeconds != nil } ? rounds.reduce(0) { $0 + ($1.cpuSeconds ?? 0) } : nil
            return Result(latencies: rounds.flatMap(\.latencies), seconds: rounds.reduce(0) { $0 + $1.seconds },
                          cpuSeconds: cpu)
        }
    }

    final class Worker: @unchecked Sendable {
        let client: SegueClient
        let target: PingTarget
        let requests: Int
        var latencies: [UInt64] = []
        var failure: String?

        init(client: SegueClient, target: PingTarget, requests: Int) {
            self.client = client
            self.target = target
            self.requests = requests
            latencies.reserveCapacity(requests)
        }

        func roundTrip() throws -> UInt64 {
            let start = DispatchTime.now().uptimeNanoseconds
            try client.send(line: target.request)
            guard let reply = try client.readLine(), target.isReply(reply) else {
                throw ClientError.protocolError("unexpected reply")
            }
            return DispatchTime.now().uptimeNanoseconds - start
        }

        func run(warmUp: Bool) {
            do {
                if warmUp {
                    for _ in 0..<1000 { _ = try roundTrip() }
                    return
                }
                for _ in 0..<requests { latencies.append(try roundTrip()) }
            } catch {
                failure = "\(error)"
            }
        }
    }

    static func run(target: PingTarget, connections: Int, requests: Int) throws -> Result {
        let workers = try (0..<max(1, connections)).map { _ in
            Worker(client: try SegueClient(socketPath: target.socket), target: target, requests: requests)
        }
        for w in workers { w.run(warmUp: true) }
        let group = DispatchGroup()
        let cpuBefore = target.pid.flatMap { ProcessCPU.seconds(of: $0) }
        let start = DispatchTime.now().uptimeNanoseconds
        for w in workers {
            group.enter()
            Thread.detachNewThread {
                w.run(warmUp: false)
                group.leave()
            }
        }
        group.wait()
        let elapsed = Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9
        let cpuAfter = target.pid.flatMap { ProcessCPU.seconds(of: $0) }
        if let failure = workers.compactMap(\.failure).first { throw ValidationError("benchmark failed: \(failure)") }
        let cpu = cpuBefore.flatMap { before in cpuAfter.map { $0 - before } }
        return Result(latencies: workers.flatMap(\.latencies), seconds: elapsed, cpuSeconds: cpu)
    }
}

/// Counts frame events, and optionally serializes them as the daemon would, so the cost of building them is in.
final class BenchSink: EventSink {
    let serialize: Bool
    let listening: Bool
    var frames = 0
    var bytes = 0
    init(serialize: Bool, listening: Bool) {
        self.serialize = serialize
        self.listening = listening
    }
    /// The line the daemon would write, kept from frame to frame as the daemon's event bus keeps its own.
    var line = JSONOutput(capacity: 4096)
    func emit(_ event: EngineEvent) {
        guard event.kind == .frame else { return }
        frames += 1
        if serialize {
            line.removeAll()
            EventEncoder.writeLine(event, to: &line)
            bytes += line.count
        }
    }
    func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool { listening || kind != .frame }
}

/// The built-in default's animation (both views' transform and alpha on a spring) over a chosen duration, so a
/// round can tick for as long as asked.
final class SlideAnimator: Animator, AnimatorProvider {
    let duration: Double
    init(duration: Double) { self.duration = duration }
    var name: String { "bench-slide" }
    func transitionDuration(using context: TransitionContext) -> Double { duration }
    func animateTransition(using context: TransitionContext) {
        let scene = context.scene
        let from = context.fromViewController.view, to = context.toViewController.view
        scene.addSubview(to, to: context.containerView)
        scene.set(to, frame: context.finalFrame(for: context.toViewController))
        scene.set(to, alpha: 0)
        scene.set(to, transform: .translation(336, 0))
        let spring = Spring(dampingRatio: 0.75, initialVelocity: 0.5, duration: duration).map { Timing.spring($0) }
        scene.animate(AnimationOptions(duration: duration, timing: spring ?? .curve(.easeInOut))) {
            scene.set(from, transform: .translation(-336, 0))
            scene.set(from, alpha: 0)
            scene.set(to, transform: .identity)
            scene.set(to, alpha: 1)
        } completion: { _ in
            scene.set(from, transform: .identity)
            scene.set(from, alpha: 1)
            context.completeTransition(!context.transitionWasCancelled)
        }
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
    func animator(named name: String, for scene: Scene) -> (any Animator)? { name == self.name ? self : nil }
}
