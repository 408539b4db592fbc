import Foundation
import SegueKit
import Testing

@testable import SegueLua

/// An animator whose version shows in the to-view's alpha at the end (0.5 for v1, 0.75 for v2, …).
func versioned(_ alpha: Double, name: String? = nil) -> String {
    """
    return segue.animator {
      \(name.map { "name = \"\($0)\"," } ?? "")
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

@Suite("Hot reload (the plugin host)")
struct HotReloadTests {
    @Test("a rescan loads new files, reloads changed ones, unloads deleted ones and leaves unchanged ones alone")
    func rescan() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5), "b.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        #expect(host.loadAll().map(\.type) == ["plugin.loaded", "plugin.loaded"])
        #expect(host.rescan().isEmpty)

        try versioned(0.75).write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        try versioned(0.5).write(toFile: dir + "/c.lua", atomically: true, encoding: .utf8)
        try FileManager.default.removeItem(atPath: dir + "/b.lua")
        let events = host.rescan()
        #expect(events.map { "\($0.type) \($0.name)" }.sorted() == ["plugin.loaded a", "plugin.loaded c", "plugin.unloaded b"])
        #expect(host.record(named: "a")?.version == "0.75")
        #expect(host.record(named: "b")?.status == "unloaded")
        #expect(!host.hasPlugin(named: "b", kind: .animator))
        #expect(host.rescan(force: true).filter { $0.type == "plugin.loaded" }.count == 2)
    }

    @Test("a file renamed within the folder keeps its plugins, whichever order the changes come in")
    func renameWithinFolder() throws {
        let dir = try makePluginFolder(["b.lua": versioned(0.5, name: "fade")])
        let host = PluginHost(directory: dir)
        host.loadAll()
        #expect(rename(dir + "/b.lua", dir + "/a.lua") == 0)
        let events = host.rescan()
        #expect(events.map { "\($0.type) \($0.name)" } == ["plugin.unloaded fade", "plugin.loaded fade"])
        #expect(host.file(of: "fade") == dir + "/a.lua")
        #expect(rename(dir + "/a.lua", dir + "/c.lua") == 0)
        // The watcher may report the new name before the old one.
        let batch = host.filesChanged([dir + "/c.lua", dir + "/a.lua"])
        #expect(batch.map { "\($0.type) \($0.name)" } == ["plugin.unloaded fade", "plugin.loaded fade"])
        #expect(host.record(named: "fade")?.status == "loaded")
    }

    @Test("a broken new version is reported and the working one stays loaded")
    func brokenNewVersion() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        host.loadAll()
        try "return segue.animator {".write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        let events = host.fileChanged(dir + "/a.lua")
        #expect(events.map(\.type) == ["plugin.failed"])
        #expect(events.first?.message?.contains("expected") == true)
        let record = try #require(host.record(named: "a"))
        #expect(record.status == "loaded" && record.version == "0.5")
        #expect(record.error?.contains("the new version failed to load") == true)

        // It still runs: the old version animates the next transition.
        let recorder = Recorder()
        recorder.host = host
        let (scene, container, _, b) = try makeScene(host: host, recorder: recorder)
        _ = try scene.select(container, index: 1, animator: "a")
        scene.advance(by: 300_000_000)
        #expect(b.view.model.alpha == 0.5)

        // Fixed: the new version loads and the error is gone.
        try versioned(0.75).write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        #expect(host.fileChanged(dir + "/a.lua").map(\.type) == ["plugin.loaded"])
        #expect(host.record(named: "a")?.error == nil)
    }

    @Test("a running transition keeps the version it started with; the next one gets the new version")
    func runningTransitionKeepsVersion() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let recorder = Recorder()
        recorder.host = host
        let (scene, container, a, b) = try makeScene(host: host, recorder: recorder)
        let first = try #require(try scene.select(container, index: 1, animator: "a").transition)
        scene.advance(by: 100_000_000)  // half-way

        try versioned(0.75).write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        #expect(host.fileChanged(dir + "/a.lua").map(\.type) == ["plugin.loaded"])
        scene.advance(by: 200_000_000)
        #expect(first.state == .completed && !first.failedOver)
        #expect(b.view.model.alpha == 0.5)

        let second = try #require(try scene.select(container, index: 0, animator: "a").transition)
        scene.advance(by: 300_000_000)
        #expect(second.state == .completed)
        #expect(a.view.model.alpha == 0.75)
    }

    @Test("a plugin named again finds the same state until a reload, a rename or a forgotten scene changes it")
    func keptResolutionFollowsChanges() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let recorder = Recorder()
        recorder.host = host
        let (scene, container, a, b) = try makeScene(host: host, recorder: recorder)
        func instance() throws -> PluginInstance? { (try host.animator(named: "a", for: scene) as? LuaAnimator)?.instance }
        let first = try #require(try instance())
        #expect(try instance() === first)

        try versioned(0.75).write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        #expect(host.fileChanged(dir + "/a.lua").map(\.type) == ["plugin.loaded"])
        let reloaded = try #require(try instance())
        #expect(reloaded !== first)
        _ = try scene.select(container, index: 1, animator: "a")
        scene.advance(by: 300_000_000)
        #expect(b.view.model.alpha == 0.75)
        #expect((try host.animator(named: "a@previous", for: scene) as? LuaAnimator)?.instance !== reloaded)

        host.forget(scene: scene)
        #expect(try instance() !== reloaded)

        // Another kind asked for by the same name is still refused, after the animator was found.
        #expect(throws: EngineError.self) { try host.interaction(named: "a", for: scene) }

        try versioned(0.25, name: "b").write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
        #expect(host.fileChanged(dir + "/a.lua").map(\.type).contains("plugin.loaded"))
        #expect(try instance() == nil)
        _ = try scene.select(container, index: 0, animator: "b")
        scene.advance(by: 300_000_000)
        #expect(a.view.model.alpha == 0.25)
    }

    @Test("deleting a file mid-transition unloads it; the transition still completes with its version")
    func deleteMidTransition() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let recorder = Recorder()
        recorder.host = host
        let (scene, container, _, b) = try makeScene(host: host, recorder: recorder)
        let t = try #require(try scene.select(container, index: 1, animator: "a").transition)
        try FileManager.default.removeItem(atPath: dir + "/a.lua")
        #expect(host.fileChanged(dir + "/a.lua").map(\.type) == ["plugin.unloaded"])
        scene.advance(by: 300_000_000)
        #expect(t.state == .completed && b.view.model.alpha == 0.5)
        #expect(throws: EngineError.self) { try scene.select(container, index: 0, animator: "a") }
    }

    @Test("a file or folder writable by other users is refused")
    func worldWritable() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        chmod(dir + "/a.lua", 0o666)
        let host = PluginHost(directory: dir)
        let events = host.loadAll()
        #expect(events.first?.type == "plugin.failed")
        #expect(events.first?.message?.contains("writable by other users") == true)
        chmod(dir + "/a.lua", 0o644)
        #expect(host.fileChanged(dir + "/a.lua").map(\.type) == ["plugin.loaded"])

        let open = try makePluginFolder(["b.lua": versioned(0.5)])
        chmod(open, 0o777)
        let refused = PluginHost(directory: open)
        let warning = refused.loadAll()
        #expect(warning.map(\.type) == ["plugin.warning"])
        #expect(warning.first?.message?.contains("plugins folder") == true)
        #expect(refused.records.isEmpty)
        chmod(open, 0o755)
    }

    @Test("plugins.reload by name reloads that file; an unknown name is nil")
    func reloadByName() throws {
        let dir = try makePluginFolder(["pair.lua": "return { \(versioned(0.5, name: "one").dropFirst(7)), \(versioned(0.5, name: "two").dropFirst(7)) }"])
        let host = PluginHost(directory: dir)
        #expect(host.loadAll().map(\.name) == ["one", "two"])
        #expect(host.reload(named: "two")?.map(\.name) == ["one", "two"])
        #expect(host.reload(named: "three") == nil)
    }

    @Test("swap, backup and temporary names are not plugin files")
    func fileNames() {
        #expect(PluginHost.isPluginFileName("fade.lua"))
        for name in [".fade.lua.swp", "fade.lua~", "4913", ".fade.lua", "fade.lua.tmp", ".lua", "fade.txt"] {
            #expect(!PluginHost.isPluginFileName(name), "\(name)")
        }
    }
}
