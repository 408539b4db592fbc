import Foundation
import SegueClient

/// A redis-server of our own on a temporary Unix socket, for `segue-bench ping --redis`: no persistence, no TCP
/// port, stopped when the benchmark ends.
final class RedisServer {
    let socket: String
    private let process = Process()
    /// The server's process id (its CPU is read from /proc).
    var pid: Int32 { process.processIdentifier }
    private let directory: String

    init(executable: String) throws {
        directory = "/tmp/sgr-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = directory + "/redis.sock"
        process.executableURL = URL(fileURLWithPath: try RedisServer.find(executable))
        process.arguments = [
            "--port", "0", "--unixsocket", socket, "--unixsocketperm", "700", "--save", "", "--appendonly", "no",
            "--daemonize", "no", "--loglevel", "warning", "--dir", directory,
        ]
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        for _ in 0..<400 {
            if (try? SegueClient(socketPath: socket)) != nil { return }
            if !process.isRunning { break }
            usleep(25_000)
        }
        stop()
        throw BenchError(message: "redis-server did not start on \(socket)")
    }

    /// A name without a slash is looked up in PATH.
    static func find(_ executable: String) throws -> String {
        if executable.contains("/") { return executable }
        for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
            let path = "\(dir)/\(executable)"
            if FileManager.default.isExecutableFile(atPath: path) { return path }
        }
        throw BenchError(message: "\(executable) not found in PATH (apt-get install redis-server, or --redis-server PATH)")
    }

    func stop() {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }

    deinit { stop() }
}

struct BenchError: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}
