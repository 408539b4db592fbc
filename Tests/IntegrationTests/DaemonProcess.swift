import Foundation
import SegueClient

let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// The folder holding the built executables (next to the test bundle).
let binaryDirectory: String = {
    let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
    var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
    // On some platforms the test binary sits inside a .xctest bundle.
    while url.path.contains(".xctest") { url = url.deletingLastPathComponent() }
    return url.path
}()

/// A real `segued` on a temporary socket, stopped (SIGTERM) when released.
final class DaemonProcess {
    let directory: String
    let socket: String
    let process = Process()
    let stderr = Pipe()
    /// The config file it was started with (a test may rewrite it and send SIGHUP).
    let configFile: String

    /// `plugins` is a folder, or nil with `pluginFiles` to make a temporary one; `config` replaces the bundled file.
    /// `arguments` are added after the usual ones (e.g. `--log-format json`).
    /// `fileLimit` starts it under `ulimit -n`, `umask` under that umask (through /bin/sh, which execs it: the pid
    /// is segued's).
    init(plugins: String = repositoryRoot + "/plugins", pluginFiles: [String: String]? = nil, config: String? = nil,
         socket existing: String? = nil, arguments: [String] = [], fileLimit: Int? = nil, umask: String? = nil,
         environment: [String: String] = [:]) throws
    {
        directory = "/tmp/sgt-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        socket = existing ?? directory + "/s.sock"
        var folder = plugins
        if let pluginFiles {
            folder = directory + "/plugins"
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            for (name, text) in pluginFiles { try text.write(toFile: folder + "/" + name, atomically: true, encoding: .utf8) }
        }
        var configFile = repositoryRoot + "/config/segued.toml"
        if let config {
            configFile = directory + "/segued.toml"
            try config.write(toFile: configFile, atomically: true, encoding: .utf8)
        }
        self.configFile = configFile
        let segued = binaryDirectory + "/segued"
        let segueArguments = ["--config", configFile, "--socket", socket, "--plugins", folder] + arguments
        if fileLimit != nil || umask != nil {
            let limit = fileLimit.map { "ulimit -n \($0) && " } ?? ""
            let mask = umask.map { "umask \($0) && " } ?? ""
            process.executableURL = URL(fileURLWithPath: "/bin/sh")
            process.arguments = ["-c", limit + mask + "exec \"$0\" \"$@\"", segued] + segueArguments
        } else {
            process.executableURL = URL(fileURLWithPath: segued)
            process.arguments = segueArguments
        }
        process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
        if !environment.isEmpty {
            process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        }
        process.standardError = stderr
        try process.run()
        try waitForSocket()
    }

    func waitForSocket() throws {
        for _ in 0..<400 {
            if FileManager.default.fileExists(atPath: socket), (try? SegueClient(socketPath: socket)) != nil { return }
            if !process.isRunning { break }
            usleep(25_000)
        }
        throw DaemonFailure(message: "segued did not start: \(stderrText())")
    }

    func client() throws -> SegueClient { try SegueClient(socketPath: socket) }

    func stderrText() -> String {
        if process.isRunning { return "(running)" }
        return String(decoding: stderr.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    }

    /// Sends SIGTERM and waits (up to `seconds`) for the exit; returns the exit status, nil if it did not exit.
    func terminate(signal: Int32 = SIGTERM, waitingUpTo seconds: Double = 5) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(seconds)
        while process.isRunning, Date() < deadline { usleep(10_000) }
        return process.isRunning ? nil : process.terminationStatus
    }

    deinit {
        if process.isRunning {
            process.terminate()
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
    }
}

struct DaemonFailure: Error, CustomStringConvertible {
    let message: String
    var description: String { message }
}

/// Runs a command; returns (status, stdout, stderr).
func runCommand(_ path: String, _ arguments: [String], environment: [String: String] = [:]) throws
    -> (status: Int32, out: String, err: String)
{
    let process = Process()
    process.executableURL = URL(fileURLWithPath: path)
    process.arguments = arguments
    process.currentDirectoryURL = URL(fileURLWithPath: repositoryRoot)
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let out = Pipe(), err = Pipe()
    process.standardOutput = out
    process.standardError = err
    try process.run()
    let outData = out.fileHandleForReading.readDataToEndOfFile()
    let errData = err.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}
