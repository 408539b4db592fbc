import Foundation
import SegueKit
import Testing

@testable import SegueLua

/// The system plugins folders (`XDG_DATA_DIRS`' `segued/plugins`) read after the user's: the user's wins by name.
@Suite("System plugins folders (the plugin host)")
struct SystemFolderTests {
    @Test("a system folder's plugins load after the user's; a file of the same name in the user's folder wins")
    func userWinsByFileName() throws {
        let user = try makePluginFolder(["a.lua": versioned(0.5)])
        let system = try makePluginFolder(["a.lua": versioned(0.25), "b.lua": versioned(0.25)])
        let host = PluginHost(directory: user, systemDirectories: [system, "/nonexistent/segued/plugins"])
        let events = host.loadAll()
        #expect(events.map { "\($0.type) \($0.name)" } == ["plugin.loaded a", "plugin.loaded b"])
        #expect(host.record(named: "a")?.file == user + "/a.lua")
        #expect(host.record(named: "a")?.version == "0.5")
        #expect(host.record(named: "b")?.file == system + "/b.lua")
        #expect(host.records.count == 2)
        #expect(host.directories == [user, system, "/nonexistent/segued/plugins"])
    }

    @Test("a plugin name a user file defines takes it from the system file that defined it first")
    func userWinsByPluginName() throws {
        let user = try makePluginFolder([:])
        let system = try makePluginFolder(["sys.lua": versioned(0.25, name: "shared")])
        let host = PluginHost(directory: user, systemDirectories: [system])
        #expect(host.loadAll().map(\.type) == ["plugin.loaded"])
        try versioned(0.5, name: "shared").write(toFile: user + "/mine.lua", atomically: true, encoding: .utf8)
        let events = host.filesChanged([user + "/mine.lua"])
        #expect(events.map { "\($0.type) \($0.name)" } == ["plugin.unloaded shared", "plugin.loaded shared"])
        #expect(host.file(of: "shared") == user + "/mine.lua")
        // A system file cannot take a name back from the user's.
        try (versioned(0.3, name: "shared") + "\n").write(toFile: system + "/sys.lua", atomically: true, encoding: .utf8)
        let again = host.filesChanged([system + "/sys.lua"])
        #expect(again.map(\.type) == ["plugin.failed"])
        #expect(host.file(of: "shared") == user + "/mine.lua")
    }

    @Test("hot reload: a user's copy shadows the system file, and deleting it brings the system's back")
    func shadowAndUnshadow() throws {
        let user = try makePluginFolder([:])
        let system = try makePluginFolder(["a.lua": versioned(0.25)])
        let host = PluginHost(directory: user, systemDirectories: [system])
        host.loadAll()
        #expect(host.record(named: "a")?.file == system + "/a.lua")

        try versioned(0.5).write(toFile: user + "/a.lua", atomically: true, encoding: .utf8)
        let shadowed = host.filesChanged([user + "/a.lua"])
        #expect(shadowed.map { "\($0.type) \($0.file)" }
            == ["plugin.unloaded \(system)/a.lua", "plugin.loaded \(user)/a.lua"])
        #expect(host.records.map(\.file) == [user + "/a.lua"], "the shadowed file is not listed as unloaded")
        // A change to the shadowed file loads nothing.
        try (versioned(0.25) + "\n").write(toFile: system + "/a.lua", atomically: true, encoding: .utf8)
        #expect(host.filesChanged([system + "/a.lua"]).isEmpty)

        try FileManager.default.removeItem(atPath: user + "/a.lua")
        let back = host.filesChanged([user + "/a.lua"])
        #expect(back.map { "\($0.type) \($0.file)" }
            == ["plugin.unloaded \(user)/a.lua", "plugin.loaded \(system)/a.lua"])
        #expect(host.record(named: "a")?.version == "0.25")
        // A full rescan agrees with what the changes left.
        #expect(host.rescan().isEmpty)
    }

    @Test("a rescan unloads a system file a new user file shadows, without listing it as unloaded")
    func rescanShadows() throws {
        let user = try makePluginFolder([:])
        let system = try makePluginFolder(["a.lua": versioned(0.25)])
        let host = PluginHost(directory: user, systemDirectories: [system])
        host.loadAll()
        try versioned(0.5).write(toFile: user + "/a.lua", atomically: true, encoding: .utf8)
        let events = host.rescan()
        #expect(events.map(\.type).sorted() == ["plugin.loaded", "plugin.unloaded"])
        #expect(host.records.map(\.file) == [user + "/a.lua"])
    }

    @Test("a system folder writable by others is refused with a warning; the user's plugins still load")
    func unsafeSystemFolder() throws {
        let user = try makePluginFolder(["a.lua": versioned(0.5)])
        let system = try makePluginFolder(["b.lua": versioned(0.25)])
        chmod(system, 0o777)
        let host = PluginHost(directory: user, systemDirectories: [system])
        let events = host.loadAll()
        #expect(events.map(\.type) == ["plugin.warning", "plugin.loaded"] || events.map(\.type) == ["plugin.loaded", "plugin.warning"])
        #expect(events.contains { $0.message?.contains("writable by other users") == true })
        #expect(host.record(named: "b") == nil)
        #expect(host.record(named: "a") != nil)
    }
}
