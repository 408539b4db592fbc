import CEventLoop
import Foundation
import Logging
import SegueJSON
import Testing

@testable import SegueDaemon
@testable import SegueTransport

/// daemon.reload (SIGHUP calls the same code): re-read the file, flags on top, whole or not at all.
@Suite("daemon.reload")
struct ReloadTests {
    /// A temporary folder with a config file (and a plugins folder) that a test rewrites.
    final class ConfigFolder {
        let path = "/tmp/sgr-" + String(UUID().uuidString.prefix(8))
        var file: String { path + "/segued.toml" }
        var plugins: String { path + "/plugins" }

        init() throws {
            try FileManager.default.createDirectory(atPath: path + "/plugins", withIntermediateDirectories: true)
        }

        func write(_ toml: String) throws {
            try ("[plugins]\ndir = \"\(plugins)\"\n" + toml).write(toFile: file, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(atPath: path) }
    }

    func harness(_ folder: ConfigFolder, overrides: ConfigOverrides = ConfigOverrides()) throws -> Harness {
        let loaded = try DaemonConfig.resolve(file: folder.file, overrides: overrides)
        let h = try Harness { $0 = loaded }
        h.daemon.overrides = overrides
        return h
    }

    let size: JSONValue = ["w": 100, "h": 100]

    @Test("a changed limit applies at once; the result lists the keys that changed")
    func limitsApplyAtOnce() throws {
        let folder = try ConfigFolder()
        try folder.write("[limits]\nmax_scenes = 1\n")
        let h = try harness(folder)
        try h.call("scene.create", ["size": size, "clock": "manual"])
        #expect(try h.errorCode("scene.create", ["size": size, "clock": "manual"]) == -32004)
        try folder.write("[limits]\nmax_scenes = 3\n")
        let result = try #require(try h.result("daemon.reload"))
        #expect(result["reloaded"] == true)
        #expect(result["file"] == .string(folder.file))
        #expect(result["changed"] == ["limits.max_scenes"])
        #expect(result["restart_required"] == [])
        #expect(try h.result("scene.create", ["size": size, "clock": "manual"])?["scene"] != nil)
    }

    @Test("daemon.spin_us applies to the event loop at once (and is never on where only one CPU may be used)")
    func spinAppliesAtOnce() throws {
        let folder = try ConfigFolder()
        try folder.write("[daemon]\nspin_us = 0\n")
        let h = try harness(folder)
        #expect(h.channel.server.loop.spinNanoseconds == 0)
        try folder.write("[daemon]\nspin_us = 120\n")
        #expect(try h.result("daemon.reload")?["changed"] == ["daemon.spin_us"])
        #expect(h.channel.server.loop.spinNanoseconds == (seg_cpus_allowed() > 1 ? 120_000 : 0))
    }

    @Test("daemon.stall_timeout_ms applies to the stall detector at once")
    func stallTimeoutAppliesAtOnce() throws {
        let folder = try ConfigFolder()
        try folder.write("[daemon]\nstall_timeout_ms = 4000\n")
        let h = try harness(folder)
        #expect(h.channel.server.stallDetector.timeoutMilliseconds == 4000)
        try folder.write("[daemon]\nstall_timeout_ms = 2500\n")
        #expect(try h.result("daemon.reload")?["changed"] == ["daemon.stall_timeout_ms"])
        #expect(h.channel.server.stallDetector.timeoutMilliseconds == 2500)
    }

    @Test("engine keys apply to scenes created after the reload; a scene keeps the config it was made with")
    func engineKeysForNewScenes() throws {
        let folder = try ConfigFolder()
        try folder.write("[engine]\nfps = 30\n")
        let h = try harness(folder)
        #expect(try h.result("scene.create", ["id": "old", "size": size, "clock": "manual"])?["fps"] == 30)
        try folder.write("[engine]\nfps = 50\n")
        #expect(try h.result("daemon.reload")?["changed"] == ["engine.fps"])
        #expect(try h.result("scene.create", ["id": "new", "size": size, "clock": "manual"])?["fps"] == 50)
        #expect(try h.result("clock.step", ["scene": "old", "frames": 3])?["time"] == 0.1)  // still 30 fps
    }

    @Test("a bad file on reload is an error naming the key and the file, and nothing changes", arguments: [
        "[engine]\nfps = 0\n", "[engine]\nfsp = 60\n", "[limits]\nmax_scenes = \"many\"\n", "[limits\n",
        "[limits]\nmax_scenes = 9223372036854775808\n",
    ])
    func badFileChangesNothing(toml: String) throws {
        let folder = try ConfigFolder()
        try folder.write("[engine]\nfps = 30\n[limits]\nmax_scenes = 1\n")
        let h = try harness(folder)
        try folder.write(toml)
        let error = try h.call("daemon.reload").last?["error"]
        #expect(error?["code"] == -32002)
        #expect(error?["data"]?["kind"] == "invalid_state")
        #expect(error?["data"]?["file"] == .string(folder.file))
        #expect(error?["message"]?.stringValue?.contains("old config stays in force") == true)
        if toml.contains("fps = 0") { #expect(error?["data"]?["key"] == "engine.fps") }
        if toml.contains("fsp") { #expect(error?["data"]?["key"] == "engine.fsp") }
        if toml.contains("many") { #expect(error?["data"]?["key"] == "limits.max_scenes") }
        // The folder's file starts with a line or two of its own: the line is the key's, counted in the whole file.
        let line = error?["data"]?["line"]?.intValue ?? 0
        let lines = (try? String(contentsOfFile: folder.file, encoding: .utf8))?.split(separator: "\n",
            omittingEmptySubsequences: false) ?? []
        if toml.contains("9223372036854775808") {
            #expect(error?["data"]?["key"] == "limits.max_scenes")
            #expect(line > 0 && line <= lines.count && lines[line - 1].hasPrefix("max_scenes = 9223372036854775808"))
            #expect(error?["message"]?.stringValue?.contains("segued.toml:\(line): 'limits.max_scenes'") == true)
        }
        if toml == "[limits\n" {
            #expect(error?["data"]?["key"] == .null)
            #expect(line > 0 && line <= lines.count && lines[line - 1].hasPrefix("[limits"))
        }
        // Always the four: kind, file, line, key.
        #expect(error?["data"]?.objectValue?.keys.sorted() == ["file", "key", "kind", "line"])
        #expect(h.daemon.config.engine.fps == 30)
        #expect(try h.result("scene.create", ["size": size, "clock": "manual"])?["fps"] == 30)
        #expect(try h.errorCode("scene.create", ["size": size, "clock": "manual"]) == -32004)
    }

    @Test("daemon.socket and plugins.dir need a restart: a reload keeps them and says so")
    func restartOnlyKeys() throws {
        let folder = try ConfigFolder()
        try folder.write("[daemon]\nsocket = \"/tmp/one.sock\"\n")
        let h = try harness(folder)
        try ("[plugins]\ndir = \"/tmp/elsewhere\"\n[daemon]\nsocket = \"/tmp/two.sock\"\nlog_level = \"debug\"\n")
            .write(toFile: folder.file, atomically: true, encoding: .utf8)
        let result = try #require(try h.result("daemon.reload"))
        #expect(result["restart_required"] == ["daemon.socket", "plugins.dir"])
        #expect(result["changed"] == ["daemon.log_level"])
        #expect(h.daemon.config.socketPath == "/tmp/one.sock")
        #expect(h.daemon.config.pluginsDir == folder.plugins)
        #expect(h.daemon.config.logLevel == "debug")
    }

    @Test("flags stay over the file; the log level and format change while running")
    func flagsAndLogging() throws {
        let folder = try ConfigFolder()
        try folder.write("[daemon]\nlog_level = \"info\"\n")
        let h = try harness(folder, overrides: ConfigOverrides(logFormat: "json"))
        let control = LogControl(level: .info, json: true)
        h.daemon.logControl = control
        try folder.write("[daemon]\nlog_level = \"error\"\nlog_format = \"text\"\n")
        #expect(try h.result("daemon.reload")?["changed"] == ["daemon.log_level"])
        #expect(control.level == .error)
        #expect(control.json)  // --log-format json beats the file
        var handler = ReloadableLogHandler(label: "t", control: control)
        #expect(handler.logLevel == .error)
        handler.logLevel = .debug  // one logger's level is the daemon's
        #expect(control.level == .debug)
    }

    @Test("the reload rescans the plugins folder: a new plugin is listed and usable")
    func rescansPlugins() throws {
        let folder = try ConfigFolder()
        try folder.write("")
        let h = try harness(folder)
        #expect(try h.result("plugins.list") == [])
        try """
            return segue.animator {
              duration = function(ctx) return 0.1 end,
              animate = function(ctx) ctx.container:add(ctx:view("to")) ctx:complete(true) end,
            }
            """.write(toFile: folder.plugins + "/quick.lua", atomically: true, encoding: .utf8)
        try h.call("events.subscribe", ["types": ["plugin"]])
        let lines = try h.call("daemon.reload")
        #expect(lines.first?["params"]?["type"] == "plugin.loaded")
        #expect(lines.last?["result"]?["plugins"] == ["loaded": 1, "failed": 0])
        #expect(try h.result("plugins.list")?.arrayValue?.map { $0["name"] ?? .null } == ["quick"])
    }

    @Test("without a config file a reload keeps the defaults and the flags, and rescans")
    func noFile() throws {
        let h = try Harness()
        let result = try #require(try h.result("daemon.reload"))
        #expect(result["file"] == .null)
        // The harness pointed plugins.dir and max_line_bytes away from the defaults: a restart-only key and a
        // reloadable one. Neither is a file's doing, so the reload sees the defaults for them.
        #expect(result["restart_required"] == ["plugins.dir"])
        #expect(h.daemon.config.pluginsDir == repositoryRoot + "/plugins")
        #expect(try h.result("daemon.ping", [:]) == "pong")
    }
}
