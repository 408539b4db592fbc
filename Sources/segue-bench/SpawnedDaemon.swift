import Foundation
import SegueClient

/// The `segued` next to this binary, started on a temporary socket with the bundled plugins (run from the
/// repository folder) and stopped when the benchmark ends.
final class SpawnedDaemon {
    let socket: String
    private let process = Process()

    /// The daemon's process id (its CPU is read from /proc).
    var pid: Int32 { process.processIdentifier }

    init(extraArguments: [String] = []) throws {
        let dir = "/tmp/sgb-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        socket = dir + "/s.sock"
        let exe = URL(fileURLWithPath: (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe"))
            ?? CommandLine.arguments[0])
        process.executableURL = exe.deletingLastPathComponent().appendingPathComponent("segued")
        process.arguments = ["--socket", socket, "--plugins", "plugins", "--log-level", "warning"] + extraArguments
        try process.run()
        for _ in 0..<400 where (try? SegueClient(socketPath: socket)) == nil { usleep(25_000) }
    }

    func stop() {
        guard process.isRunning else { return }
        process.terminate()
        process.waitUntilExit()
    }

    deinit { stop() }
}
