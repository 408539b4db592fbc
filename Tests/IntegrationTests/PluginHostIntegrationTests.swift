import Foundation
import SegueClient
import SegueJSON
import Testing

/// An animator whose to-view ends at `alpha` (so a test can tell versions apart).
func animatorSource(alpha: Double) -> String {
    """
    return segue.animator {
      version = "\(alpha)",
      duration = function(ctx) return 0.2 end,
      animate = function(ctx)
        local to = ctx:view("to")
        ctx.container:add(to)
        segue.animate({ duration = 0.2 }, function() to.alpha = \(alpha) end, function() ctx:complete(not ctx.cancelled) end)
      end,
    }
    """
}

/// Waits for the next daemon event of `type` about `name` (generous bound: it guards a hang, it measures nothing).
func waitForPluginEvent(_ client: SegueClient, _ type: String, name: String, within ms: Int32 = 10_000) throws -> JSONValue? {
    let deadline = Date().addingTimeInterval(Double(ms) / 1000)
    while Date() < deadline {
        guard let event = try client.nextEvent(timeoutMs: 200) else { continue }
        if event["type"]?.stringValue == type, event["name"]?.stringValue == name { return event }
    }
    return nil
}

func write(_ text: String, to path: String) throws {
    try text.write(toFile: path, atomically: false, encoding: .utf8)
}

@Suite("The plugin host in a real segued")
struct PluginHostIntegrationTests {
    @Test("hot reload: new, changed, renamed-over, vim-style saves and deletes reach the daemon through inotify")
    func hotReload() throws {
        let daemon = try DaemonProcess(pluginFiles: ["fade.lua": animatorSource(alpha: 0.5)])
        let folder = daemon.directory + "/plugins"
        let client = try daemon.client()
        _ = try client.call("events.subscribe", ["types": ["plugin"]])

        // A new file.
        try write(animatorSource(alpha: 0.5), to: folder + "/new.lua")
        #expect(try waitForPluginEvent(client, "plugin.loaded", name: "new") != nil)

        // A changed file (written in place).
        try write(animatorSource(alpha: 0.6), to: folder + "/fade.lua")
        #expect(try waitForPluginEvent(client, "plugin.loaded", name: "fade") != nil)
        #expect(try plugin(client, "fade")?["version"] == "0.6")

        // Renamed over (a temporary file, then rename: most editors, and `atomically: true`).
        try write(animatorSource(alpha: 0.7), to: folder + "/.fade.lua.tmp")
        #expect(rename(folder + "/.fade.lua.tmp", folder + "/fade.lua") == 0)
        #expect(try waitForPluginEvent(client, "plugin.loaded", name: "fade") != nil)
        #expect(try plugin(client, "fade")?["version"] == "0.7")

        // vim's default save: probe file 4913, swap file, original renamed to a backup, new file written, backup deleted.
        try write("", to: folder + "/4913")
        unlink(folder + "/4913")
        try write("swap", to: folder + "/.fade.lua.swp")
        #expect(rename(folder + "/fade.lua", folder + "/fade.lua~") == 0)
        try write(animatorSource(alpha: 0.8), to: folder + "/fade.lua")
        unlink(folder + "/fade.lua~")
        unlink(folder + "/.fade.lua.swp")
        let loaded = try waitForPluginEvent(client, "plugin.loaded", name: "fade")
        #expect(loaded != nil)
        #expect(try plugin(client, "fade")?["version"] == "0.8")
        #expect(try plugin(client, "fade")?["status"] == "loaded")

        // A broken save keeps the working version.
        try write("return segue.animator {", to: folder + "/fade.lua")
        let failed = try waitForPluginEvent(client, "plugin.failed", name: "fade")
        #expect(failed?["error"]?.stringValue?.contains("expected") == true)
        #expect(try plugin(client, "fade")?["status"] == "loaded")
        #expect(try plugin(client, "fade")?["version"] == "0.8")

        // Renamed within the folder: a plugin without a `name` is named after its file, so "new" goes and "newer" comes.
        #expect(rename(folder + "/new.lua", folder + "/newer.lua") == 0)
        let moved = try waitForPluginEvent(client, "plugin.loaded", name: "newer")
        #expect(moved?["file"]?.stringValue?.hasSuffix("/newer.lua") == true)
        #expect(try plugin(client, "new")?["status"] == "unloaded")

        // Deleted.
        unlink(folder + "/newer.lua")
        #expect(try waitForPluginEvent(client, "plugin.unloaded", name: "newer") != nil)
        #expect(try plugin(client, "newer")?["status"] == "unloaded")
        // None of the editor's temporary names ever became a plugin.
        let names = try client.call("plugins.list").arrayValue?.compactMap { $0["name"]?.stringValue } ?? []
        #expect(Set(names) == ["fade", "new", "newer"])

        // The folder itself replaced (rm -rf and a fresh copy): watched again, its files load.
        try FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: false)
        try write(animatorSource(alpha: 0.9), to: folder + "/fresh.lua")
        #expect(try waitForPluginEvent(client, "plugin.loaded", name: "fresh") != nil)
        try write(animatorSource(alpha: 0.9), to: folder + "/fresher.lua")
        #expect(try waitForPluginEvent(client, "plugin.loaded", name: "fresher") != nil)
    }

    @Test("plugins.reload reloads one plugin or all, and answers -32001 for an unknown name")
    func reloadMethod() throws {
        let daemon = try DaemonProcess(pluginFiles: ["fade.lua": animatorSource(alpha: 0.5)])
        let client = try daemon.client()
        let one = try client.call("plugins.reload", ["name": "fade"])
        #expect(one["loaded"] == ["fade"])
        let all = try client.call("plugins.reload")
        #expect(all["loaded"] == ["fade"])
        let error = #expect(throws: ClientError.self) { try client.call("plugins.reload", ["name": "nope"]) }
        if case .rpc(let code, _, _)? = error { #expect(code == -32001) } else { Issue.record("expected -32001") }
    }

    @Test("plugins.check passes the bundled dt-slide and names the problem of a broken animator")
    func checkMethod() throws {
        let daemon = try DaemonProcess(pluginFiles: [
            "dt-slide.lua": try String(contentsOfFile: repositoryRoot + "/plugins/dt-slide.lua", encoding: .utf8),
            "lazy.lua": "return segue.animator { duration = 0.2, animate = function(ctx) ctx.container:add(ctx:view('to')) end }",
        ])
        let client = try daemon.client()
        let good = try client.call("plugins.check", ["name": "dt-slide"])
        #expect(good["passed"] == true)
        let bad = try client.call("plugins.check", ["name": "lazy", "size": ["w": 200, "h": 300]])
        #expect(bad["passed"] == false)
        let codes = (bad["cases"]?.arrayValue ?? []).flatMap { ($0["problems"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue } }
        #expect(codes.contains("never_completed"))
        #expect(try client.call("daemon.ping") == "pong")

        // seguectl check prints the report and exits by the verdict.
        let ctl = binaryDirectory + "/seguectl"
        let pass = try runCommand(ctl, ["check", "dt-slide", "--socket", daemon.socket])
        #expect(pass.status == 0)
        #expect(pass.out.hasPrefix("dt-slide: passed (10 cases)"))
        let fail = try runCommand(ctl, ["check", "lazy", "--socket", daemon.socket])
        #expect(fail.status == 1)
        #expect(fail.out.contains("FAIL  select forward"))
        #expect(fail.out.contains("never_completed: complete was never called"))
    }

    @Test("seguectl check judges the seeds' ports: the built-in default-slide, --presentation, a traceback once")
    func checkPorts() throws {
        let ports = repositoryRoot + "/Tests/Fixtures/check-ports"
        var files: [String: String] = [:]
        for name in ["panel.lua", "flip-always-true.lua", "private-animated-transition.lua"] {
            files[name] = try String(contentsOfFile: ports + "/" + name, encoding: .utf8)
        }
        files["boom.lua"] = "return segue.animator { kinds = { 'push', 'pop' }, duration = 0.2, animate = function(ctx) error('boom') end }"
        let daemon = try DaemonProcess(pluginFiles: files)
        let ctl = binaryDirectory + "/seguectl"
        let builtIn = try runCommand(ctl, ["check", "default-slide", "--socket", daemon.socket])
        #expect(builtIn.status == 0, "\(builtIn.out)\(builtIn.err)")
        let panel = try runCommand(ctl, ["check", "panel-slide", "--presentation", "panel", "--socket", daemon.socket])
        #expect(panel.status == 1)
        #expect(panel.out.contains("FAIL  dismiss (custom) interactive cancel at 0.3"))
        #expect(panel.out.contains("completed_when_cancelled"))
        let truthful = try runCommand(ctl, ["check", "panel-slide-truthful", "--presentation", "panel", "--socket", daemon.socket])
        #expect(truthful.status == 0, "\(truthful.out)")
        let boom = try runCommand(ctl, ["check", "boom", "--socket", daemon.socket])
        #expect(boom.status == 1)
        #expect(boom.out.components(separatedBy: "boom.lua:1: boom").count == 2, "\(boom.out)")
        #expect(boom.out.contains("the same as in push"))
        let unknown = try runCommand(ctl, ["check", "flip-always-true", "--presentation", "nope", "--socket", daemon.socket])
        #expect(unknown.status != 0)
        #expect(unknown.err.contains("no plugin named 'nope'"))
    }

    @Test("lua.call_timeout_ms stops a call the instruction budget would let run for minutes")
    func wallClockBackstop() throws {
        let bundled = try String(contentsOfFile: repositoryRoot + "/config/segued.toml", encoding: .utf8)
        let config = bundled
            .replacingOccurrences(of: "# instruction_budget = 5000000", with: "instruction_budget = 2000000000")
            .replacingOccurrences(of: "# call_timeout_ms = 100", with: "call_timeout_ms = 50")
        let daemon = try DaemonProcess(pluginFiles: [
            "spin.lua": "return segue.animator { duration = 0.3, animate = function(ctx) while true do pcall(function() while true do end end) end end }",
            "match.lua": "return segue.animator { duration = 0.3, animate = function(ctx) while true do pcall(string.find, ('a'):rep(400), '.-.-.-b') end end }",
        ], config: config)
        for name in ["spin", "match"] {
            let client = try daemon.client()
            try setUpContainer(client, kind: "custom")
            // The generous timeout guards a hang; it measures nothing.
            let params: JSONObject = ["container": "c", "index": 1, "animator": .string(name)]
            let started = try client.call("container.select", params, timeoutMs: 20_000)
            let t = try client.call("transition.get", ["transition": started["transition"] ?? JSONValue.null])
            #expect(t["failed_over"] == true, "\(name)")
            let reason = t["problems"]?.arrayValue?.first?["message"]?.stringValue ?? ""
            #expect(reason.contains("call timed out (lua.call_timeout_ms)"), "\(name): \(reason.prefix(200))")
            _ = try client.call("clock.advance", ["ms": 1100])
            try expectSettled(client, shown: "b")
        }
    }

    @Test("a looping plugin in one scene does not stop another scene's realtime transition")
    func otherScenesKeepAnimating() throws {
        let daemon = try DaemonProcess(pluginFiles: [
            "spin.lua": "return segue.animator { duration = 0.3, animate = function(ctx) while true do end end }",
            "dt-slide.lua": try String(contentsOfFile: repositoryRoot + "/plugins/dt-slide.lua", encoding: .utf8),
        ])
        let live = try daemon.client()
        try setUpScene(live, types: ["transition"], clock: "realtime", fps: 60)
        _ = try live.call("container.select", ["container": "c", "index": 1, "animator": "dt-slide"])
        let hostile = try daemon.client()
        for i in 0..<6 {
            try setUpContainer(hostile, kind: "custom")
            _ = try hostile.call("container.select", ["container": "c", "index": 1, "animator": "spin"])
            _ = try hostile.call("scene.destroy", [:])
            _ = i
        }
        var types: [String] = []
        while let event = try live.nextEvent(timeoutMs: 10_000) {  // generous: guards a hang
            types.append(event["type"]?.stringValue ?? "")
            if types.last == "transition.completed" { break }
        }
        #expect(types.contains("transition.completed"))
        #expect(!types.contains("transition.failed_over"))
        #expect(try live.call("daemon.ping") == "pong")
    }

    @Test("the hostile corpus in a real daemon: every request answers, the daemon keeps serving other clients")
    func hostileCorpus() throws {
        let daemon = try DaemonProcess(plugins: repositoryRoot + "/Tests/Fixtures/hostile")
        let client = try daemon.client()
        let other = try daemon.client()
        let list = try client.call("plugins.list").arrayValue ?? []
        let animators = list.filter { $0["status"] == "loaded" && $0["kind"] == "animator" }.compactMap { $0["name"]?.stringValue }
        #expect(animators.count >= 20)
        #expect(list.contains { $0["name"] == "load-loop" && $0["status"] == "failed" })
        for name in animators {
            let client = try daemon.client()  // a connection per plugin: subscriptions die with it
            try setUpContainer(client, kind: "custom")
            let started = try client.call("container.select", ["container": "c", "index": 1, "animator": .string(name)])
            #expect(try other.call("daemon.ping") == "pong", "\(name)")
            _ = try client.call("clock.advance", ["ms": 5000])
            let t = try client.call("transition.get", ["transition": started["transition"] ?? .null])
            #expect(t["state"] == "completed", "\(name)")
            try expectSettled(client, shown: "b")
            _ = try client.call("scene.destroy", [:])
        }
    }
}

/// The plugins.list entry named `name`.
func plugin(_ client: SegueClient, _ name: String) throws -> JSONValue? {
    try client.call("plugins.list").arrayValue?.first { $0["name"]?.stringValue == name }
}
