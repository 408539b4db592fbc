import Foundation
import Testing

@testable import SegueDaemon

/// config/segued.toml and the rules for reading it (docs/DESIGN.md §4).
@Suite("Config file")
struct ConfigTests {
    func load(_ toml: String) throws(DaemonConfig.Problem) -> DaemonConfig {
        let file = "/tmp/sgf-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36) + ".toml"
        try? toml.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        return try DaemonConfig.load(file: file)
    }

    @Test("the shipped file parses, sets every key at its default but plugins.dir, and names every key")
    func shippedFile() throws {
        let path = repositoryRoot + "/config/segued.toml"
        let config = try DaemonConfig.load(file: path)
        let defaults = DaemonConfig()
        let others = { (c: DaemonConfig) in c.keyValues.filter { $0.key != "plugins.dir" }.map(\.value) }
        #expect(others(config) == others(defaults))
        // The repository's plugins/, found from the file's folder whatever the working directory.
        #expect(config.pluginsDir == DaemonConfig.folder(of: repositoryRoot + "/plugins/x"))
        let text = try String(contentsOfFile: path, encoding: .utf8)
        for (key, _) in defaults.keyValues {
            let name = key.split(separator: ".").last.map(String.init) ?? key
            #expect(text.contains("\n# \(name) = ") || text.contains("\n\(name) = "), "config/segued.toml shows \(key)")
        }
    }

    @Test("unknown sections and keys, wrong types and out-of-range values are refused naming the key", arguments: [
        ("[engin]\nfps = 60\n", "engin"),
        ("[engine]\nfsp = 60\n", "engine.fsp"),
        ("[engine]\nfps = \"60\"\n", "engine.fps"),
        ("[engine]\nfps = 0\n", "engine.fps"),
        ("[engine]\nwatchdog_factor = -1.0\n", "engine.watchdog_factor"),
        ("[engine]\ntimeline_retention_bytes = -1\n", "engine.timeline_retention_bytes"),
        ("[lua]\nmemory_limit_mb = 1.5\n", "lua.memory_limit_mb"),
        ("[limits]\nmax_line_bytes = 10\n", "limits.max_line_bytes"),
        ("[security]\nallowed_uids = [-1]\n", "security.allowed_uids"),
        ("[security]\nallowed_uids = 1000\n", "security.allowed_uids"),
        ("[daemon]\nlog_level = \"loud\"\n", "daemon.log_level"),
        ("[daemon]\nlog_format = \"xml\"\n", "daemon.log_format"),
        ("[daemon]\nspin_us = -5\n", "daemon.spin_us"),
        ("[daemon]\nstall_timeout_ms = 50\n", "daemon.stall_timeout_ms"),
        ("[daemon]\nstall_timeout_ms = \"10s\"\n", "daemon.stall_timeout_ms"),
        ("daemon = 1\n", "daemon"),
    ])
    func refused(toml: String, key: String) {
        #expect(throws: DaemonConfig.Problem.self) { try load(toml) }
        do {
            _ = try load(toml)
        } catch {
            #expect(error.key == key)
            #expect(error.message.contains(key))
            #expect(error.message.contains("/tmp/sgf-"))  // the file
        }
    }

    @Test("a TOML syntax error names the file and the line")
    func syntaxError() {
        do {
            _ = try load("[engine]\nfps = = 3\n")
            Issue.record("expected a refusal")
        } catch {
            #expect(error.message.contains(".toml:2"))
        }
    }

    @Test("values are read into the config; flags override the file")
    func flagsOverride() throws {
        let file = "/tmp/sgf-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36) + ".toml"
        try "[daemon]\nsocket = \"/tmp/file.sock\"\nlog_level = \"debug\"\n[engine]\nfps = 120\n[security]\nallowed_uids = [1, 2]\n"
            .write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let fileOnly = try DaemonConfig.resolve(file: file, overrides: ConfigOverrides())
        #expect(fileOnly.socketPath == "/tmp/file.sock" && fileOnly.logLevel == "debug")
        #expect(fileOnly.engine.fps == 120 && fileOnly.allowedUIDs == [1, 2])
        #expect(fileOnly.spinMicroseconds == 0)  // the spin is off unless asked for
        let flags = ConfigOverrides(socketPath: "/tmp/flag.sock", pluginsDir: "/p", logLevel: "error", logFormat: "json")
        let both = try DaemonConfig.resolve(file: file, overrides: flags)
        #expect(both.socketPath == "/tmp/flag.sock" && both.pluginsDir == "/p")
        #expect(both.logLevel == "error" && both.logFormat == "json")
        #expect(both.engine.fps == 120)
        #expect(throws: DaemonConfig.Problem.self) {
            try DaemonConfig.resolve(file: nil, overrides: ConfigOverrides(logLevel: "loud"))
        }
    }

    @Test("an empty socket path is refused as empty, a long one as too long")
    func emptySocketPath() {
        func message(_ overrides: ConfigOverrides) -> String? {
            do { try overrides.validate() } catch { return error.message }
            return nil
        }
        #expect(message(ConfigOverrides(socketPath: "")) == "--socket must be a path, not empty")
        #expect(message(ConfigOverrides(socketPath: "/tmp/" + String(repeating: "s", count: 120)))?.contains("108") == true)
        #expect(message(ConfigOverrides(socketPath: "/tmp/ok.sock")) == nil)
    }

    @Test("a config file that is a FIFO is refused at once (start-up, daemon.reload and SIGHUP never wait on it)")
    func fifoConfig() throws {
        let file = "/tmp/sgf-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36) + ".toml"
        #expect(mkfifo(file, 0o644) == 0)
        defer { unlink(file) }
        let done = DispatchSemaphore(value: 0)
        let outcome = ConfigOutcome()
        Thread.detachNewThread {
            do {
                _ = try DaemonConfig.resolve(file: file, overrides: ConfigOverrides())
            } catch {
                outcome.message = (error as? DaemonConfig.Problem)?.message
            }
            done.signal()
        }
        if done.wait(timeout: .now() + 20) == .timedOut {
            // A generous bound that turns a hang into a failure: let the reader go, then fail.
            let fd = open(file, O_WRONLY | O_NONBLOCK)
            if fd >= 0 { close(fd) }
            done.wait()
            Issue.record("reading a FIFO config blocked")
        }
        #expect(outcome.message == "\(file): cannot read the config file")
    }
}

final class ConfigOutcome: @unchecked Sendable {
    var message: String?
}
