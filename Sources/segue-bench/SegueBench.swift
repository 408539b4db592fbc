import ArgumentParser
import Foundation
import SegueClient

@main
struct SegueBench: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segue-bench",
        abstract: "Benchmarks for segued (SPEC §5). Build with -c release before measuring.",
        subcommands: [Ping.self])
}

struct Ping: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "daemon.ping round trips: requests per second and p50/p99 latency.",
        discussion: """
            Without --socket it starts the segued next to this binary on a temporary socket (with the bundled \
            plugins) and stops it afterwards. Each connection is a thread doing blocking round trips, one request \
            in flight per connection, the way a test script drives the daemon.
            """)

    @Option(help: "A running daemon's socket (default: start one).")
    var socket: String?

    @Option(help: "Concurrent connections.")
    var connections: Int = 1

    @Option(help: "Round trips per connection (after a warm-up of 1000).")
    var requests: Int = 50_000

    func run() throws {
        var spawned: Process?
        var path = socket ?? ""
        if socket == nil {
            let dir = "/tmp/sgb-" + String(UUID().uuidString.prefix(8))
            try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
            path = dir + "/s.sock"
            let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0])
            let process = Process()
            process.executableURL = exe.deletingLastPathComponent().appendingPathComponent("segued")
            process.arguments = ["--socket", path, "--plugins", "plugins", "--log-level", "warning"]
            try process.run()
            spawned = process
            for _ in 0..<400 where (try? SegueClient(socketPath: path)) == nil { usleep(25_000) }
        }
        defer {
            spawned?.terminate()
            spawned?.waitUntilExit()
        }
        let result = try PingBenchmark.run(socket: path, connections: connections, requests: requests)
        print(String(format: "daemon.ping  connections=%d  requests=%d  %.0f req/s  p50 %.1f µs  p99 %.1f µs",
                     connections, result.total, result.perSecond, result.p50, result.p99))
    }
}

enum PingBenchmark {
    struct Result {
        let total: Int
        let perSecond: Double
        let p50: Double
        let p99: Double
    }

    final class Worker: @unchecked Sendable {
        let client: SegueClient
        let requests: Int
        var latencies: [UInt64] = []
        var failure: String?

        init(client: SegueClient, requests: Int) {
            self.client = client
            self.requests = requests
            latencies.reserveCapacity(requests)
        }

        func roundTrip(_ line: String) throws -> UInt64 {
            let start = DispatchTime.now().uptimeNanoseconds
            try client.send(line: line)
            guard let reply = try client.readLine(), reply.hasSuffix("\"result\":\"pong\"}") else {
                throw ClientError.protocolError("unexpected reply")
            }
            return DispatchTime.now().uptimeNanoseconds - start
        }

        func run(warmUp: Bool) {
            let line = #"{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}"#
            do {
                if warmUp {
                    for _ in 0..<1000 { _ = try roundTrip(line) }
                    return
                }
                for _ in 0..<requests { latencies.append(try roundTrip(line)) }
            } catch {
                failure = "\(error)"
            }
        }
    }

    static func run(socket: String, connections: Int, requests: Int) throws -> Result {
        let workers = try (0..<max(1, connections)).map { _ in Worker(client: try SegueClient(socketPath: socket), requests: requests) }
        for w in workers { w.run(warmUp: true) }
        let group = DispatchGroup()
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
        if let failure = workers.compactMap(\.failure).first { throw ValidationError("benchmark failed: \(failure)") }
        let all = workers.flatMap(\.latencies).sorted()
        func pct(_ p: Double) -> Double { Double(all[min(all.count - 1, Int(Double(all.count) * p))]) / 1000 }
        return Result(total: all.count, perSecond: Double(all.count) / elapsed, p50: pct(0.5), p99: pct(0.99))
    }
}
