import Foundation
import SegueClient

/// A `segued` of our own on a temporary socket (seguectl test --spawn, and the scenario tests), stopped with
/// SIGTERM when `stop()` is called or the launcher is released.
public final class DaemonLauncher {
    public let socket: String
    public let directory: String
    private let process = Process()
    private let logPath: String

    /// Starts `segued` and waits (up to `waitSeconds`) until its socket accepts connections.
    public init(segued: String, plugins: String?, config: String?, logLevel: String = "warning",
                waitSeconds: Double = 15) throws(ScenarioError)
    {
        directory = "/tmp/sgs-" + String(UUID().uuidString.prefix(8))
        socket = directory + "/s.sock"
        logPath = directory + "/segued.log"
        do {
            try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true,
                                                    attributes: [.posixPermissions: 0o700])
        } catch {
            throw ScenarioError("cannot make a temporary folder \(directory): \(error)")
        }
        _ = FileManager.default.createFile(atPath: logPath, contents: nil)
        var arguments = ["--socket", socket, "--log-level", logLevel]
        if let config { arguments += ["--config", config] }
        if let plugins { arguments += ["--plugins", plugins] }
        process.executableURL = URL(fileURLWithPath: segued)
        process.arguments = arguments
        process.standardError = FileHandle(forWritingAtPath: logPath)
        process.standardOutput = FileHandle.nullDevice
        do {
            try process.run()
        } catch {
            try? FileManager.default.removeItem(atPath: directory)
            throw ScenarioError("cannot start \(segued): \(error)")
        }
        let deadline = Date().addingTimeInterval(waitSeconds)
        while Date() < deadline {
            if FileManager.default.fileExists(atPath: socket), (try? SegueClient(socketPath: socket)) != nil { return }
            if !process.isRunning { break }
            usleep(20_000)
        }
        let log = self.log
        stop()
        throw ScenarioError("segued did not start (\(segued) \(arguments.joined(separator: " "))): \(log)")
    }

    /// When the daemon's plugins folder (`daemon.info`'s `plugins_dir`) is not a folder: a warning naming it, since
    /// the daemon then has no Lua animators. Nil when it is there, or the daemon cannot say.
    public func missingPluginsWarning() -> String? {
        guard let info = try? SegueClient(socketPath: socket).call("daemon.info"),
            let dir = info["plugins_dir"]?.stringValue
        else { return nil }
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: dir, isDirectory: &isDirectory), isDirectory.boolValue { return nil }
        return "the spawned segued's plugins folder \(dir) does not exist: no Lua animators are loaded "
            + "(give --plugins DIR, run from the checkout, or install with scripts/install)"
    }

    /// What the daemon wrote to stderr so far.
    public var log: String {
        String(decoding: FileManager.default.contents(atPath: logPath) ?? Data(), as: UTF8.self)
    }

    /// Sends SIGTERM, waits for the exit (SIGKILL after 5 s) and removes the temporary folder. Returns the exit
    /// status.
    @discardableResult
    public func stop() -> Int32 {
        if process.isRunning {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(5)
            while process.isRunning, Date() < deadline { usleep(10_000) }
            if process.isRunning { kill(process.processIdentifier, SIGKILL) }
            process.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: directory)
        return process.terminationStatus
    }

    deinit {
        if process.isRunning { stop() }
    }

    /// The `segued` next to the running executable (they are built into the same folder).
    public static var siblingSegued: String {
        executableDirectory + "/segued"
    }

    /// The folder of the running executable.
    public static var executableDirectory: String {
        let exe = (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/exe")) ?? CommandLine.arguments[0]
        var url = URL(fileURLWithPath: exe).deletingLastPathComponent()
        while url.path.contains(".xctest") { url = url.deletingLastPathComponent() }
        return url.path
    }

    /// The repository's bundled `plugins` folder and `config/segued.toml`: looked for in the current folder, then
    /// upwards from the executable (`.build/debug/seguectl` → the checkout). Nil when not found.
    public static func bundledResources() -> (plugins: String, config: String?)? {
        var candidates = [FileManager.default.currentDirectoryPath]
        var url = URL(fileURLWithPath: executableDirectory)
        for _ in 0..<5 {
            candidates.append(url.path)
            url = url.deletingLastPathComponent()
        }
        for folder in candidates {
            var isDirectory: ObjCBool = false
            let plugins = folder + "/plugins"
            guard FileManager.default.fileExists(atPath: plugins, isDirectory: &isDirectory), isDirectory.boolValue else {
                continue
            }
            let config = folder + "/config/segued.toml"
            let hasConfig = FileManager.default.fileExists(atPath: config)
            // Not SwiftPM's own .build/plugins (build-tool plugins): a plugins folder holds Lua files.
            let files = (try? FileManager.default.contentsOfDirectory(atPath: plugins)) ?? []
            guard hasConfig || files.contains(where: { $0.hasSuffix(".lua") }) else { continue }
            return (plugins, hasConfig ? config : nil)
        }
        return nil
    }
}
