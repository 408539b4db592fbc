import Foundation
import SegueClient

/// A `segued` (by default the one next to this binary) started on a temporary socket — with the bundled plugins
/// (run from the repository folder) unless `arguments` say otherwise — and stopped when the benchmark ends. Every
/// subcommand that starts a daemon starts it here.
final class SpawnedDaemon {
    let socket: String
    private let process = Process()

    /// The daemon's process id (its CPU is read from /proc).
    var pid: Int32 { process.processIdentifier }

    /// `arguments` come after `--socket PATH` (default: the bundled plugins folder); `executable` is another
    /// build's `segued` to compare with.
    init(arguments: [String] = ["--plugins", "plugins"], executable: String? = nil) throws {
        let dir = "/tmp/sgb-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        socket = dir + "/s.sock"
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
        process.executableURL = executable.map { URL(fileURLWithPath: $0) }
            ?? exe.deletingLastPathComponent().appendingPathComponent("segued")
        process.arguments = ["--socket", socket, "--log-level", "warning"] + arguments
        try process.run()
        for _ in 0..<400 where (try? SegueClient(socketPath: socket)) == nil { usleep(25_000) }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    /// SIGTERM, timed to the exit: the seconds and the exit status (nil when it had already exited).
    func stopTimed() -> (seconds: Double, status: Int32)? {
        guard process.isRunning else { return nil }
        let start = DispatchTime.now().uptimeNanoseconds
        process.terminate()
        process.waitUntilExit()
        return (Double(DispatchTime.now().uptimeNanoseconds - start) / 1e9, process.terminationStatus)
    }

    deinit { stop() }
}
