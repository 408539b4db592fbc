import Foundation
import Logging
import SegueJSON
import Testing

@testable import SegueDaemon

/// `XDG_CONFIG_DIRS` and `XDG_DATA_DIRS`: the system-wide config and the system plugins folders.
@Suite("System-wide config and plugins folders")
struct SystemFoldersTests {
    @Test("XDG_CONFIG_DIRS and XDG_DATA_DIRS: absolute entries in order, defaults when unset, empty or all relative")
    func lists() {
        let paths = XDGPaths(environment: [
            "HOME": "/h", "XDG_CONFIG_DIRS": "/etc/a:rel:/etc/b/::/etc/a", "XDG_DATA_DIRS": "/opt/share:/usr/share",
        ])
        #expect(paths.configDirectories == ["/etc/a", "/etc/b"])
        #expect(paths.systemConfigFiles == ["/etc/a/segued/segued.toml", "/etc/b/segued/segued.toml"])
        #expect(paths.configFiles.first == "/h/.config/segued/segued.toml")
        #expect(paths.systemPluginsDirectories == ["/opt/share/segued/plugins", "/usr/share/segued/plugins"])
        let defaults = XDGPaths(environment: ["HOME": "/h", "XDG_CONFIG_DIRS": "", "XDG_DATA_DIRS": "relative"])
        #expect(defaults.configDirectories == ["/etc/xdg"])
        #expect(defaults.systemPluginsDirectories
            == ["/usr/local/share/segued/plugins", "/usr/share/segued/plugins"])
    }

    @Test("the system-wide config is read when the user has none; the user's wins when both exist")
    func systemConfig() throws {
        let root = "/tmp/sgs-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let paths = XDGPaths(environment: ["XDG_CONFIG_HOME": root + "/home", "XDG_CONFIG_DIRS": root + "/a:" + root + "/b"])
        #expect(DaemonConfig.discoverFile(paths) == nil)
        try FileManager.default.createDirectory(atPath: root + "/b/segued", withIntermediateDirectories: true)
        try "[engine]\nfps = 30\n".write(toFile: root + "/b/segued/segued.toml", atomically: true, encoding: .utf8)
        #expect(DaemonConfig.discoverFile(paths) == root + "/b/segued/segued.toml")
        let config = try DaemonConfig.resolve(file: DaemonConfig.discoverFile(paths), overrides: ConfigOverrides())
        #expect(config.engine.fps == 30)
        try FileManager.default.createDirectory(atPath: root + "/a/segued", withIntermediateDirectories: true)
        try "".write(toFile: root + "/a/segued/segued.toml", atomically: true, encoding: .utf8)
        #expect(DaemonConfig.discoverFile(paths) == root + "/a/segued/segued.toml")
        try FileManager.default.createDirectory(atPath: root + "/home/segued", withIntermediateDirectories: true)
        try "".write(toFile: paths.configFile, atomically: true, encoding: .utf8)
        #expect(DaemonConfig.discoverFile(paths) == paths.configFile)
    }

    @Test("plugins.system_dirs: paths relative to the file, [] for none; a wrong value is refused naming the key")
    func systemDirsKey() throws {
        let folder = "/tmp/sgk-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let file = folder + "/segued.toml"
        try "[plugins]\nsystem_dirs = [\"shared\", \"/opt/p\"]\n".write(toFile: file, atomically: true, encoding: .utf8)
        let config = try DaemonConfig.load(file: file)
        #expect(config.systemPluginsDirs == [DaemonConfig.folder(of: file) + "/shared", "/opt/p"])
        #expect(config.pluginsDirs == [config.pluginsDir] + config.systemPluginsDirs)
        try "[plugins]\nsystem_dirs = []\n".write(toFile: file, atomically: true, encoding: .utf8)
        #expect(try DaemonConfig.load(file: file).systemPluginsDirs.isEmpty)
        for bad in ["system_dirs = \"/opt/p\"", "system_dirs = [1]", "system_dirs = [\"\"]"] {
            try "[plugins]\n\(bad)\n".write(toFile: file, atomically: true, encoding: .utf8)
            #expect(throws: DaemonConfig.Problem.self) { try DaemonConfig.load(file: file) }
            do {
                _ = try DaemonConfig.load(file: file)
            } catch {
                #expect(error.key == "plugins.system_dirs", "\(bad)")
            }
        }
    }

    @Test("daemon.info lists every plugins folder, the user's first; a system folder's plugin is served")
    func infoListsFolders() throws {
        let system = "/tmp/sgp-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36)
        try FileManager.default.createDirectory(atPath: system, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: system) }
        func animator(_ name: String) -> String {
            """
            return segue.animator {
              name = "\(name)",
              animate = function(ctx) ctx.container:add(ctx:view("to")); ctx:complete(true) end,
            }
            """
        }
        // The user's folder (the bundled plugins) has a cross-dissolve.lua: this one is shadowed.
        try animator("cross-dissolve").write(toFile: system + "/cross-dissolve.lua", atomically: true, encoding: .utf8)
        try animator("system-slide").write(toFile: system + "/system-slide.lua", atomically: true, encoding: .utf8)
        let harness = try Harness { $0.systemPluginsDirs = [system, "/nonexistent"] }
        let info = try #require(try harness.result("daemon.info"))
        #expect(info["plugins_dirs"] == .array([.string(repositoryRoot + "/plugins"), .string(system), "/nonexistent"]))
        #expect(info["plugins_dir"] == .string(repositoryRoot + "/plugins"))
        let list = try #require(try harness.result("plugins.list")?.arrayValue)
        #expect(list.filter { $0["name"] == "cross-dissolve" }.map { $0["file"] }
            == [.string(repositoryRoot + "/plugins/cross-dissolve.lua")])
        #expect(list.first { $0["name"] == "system-slide" }?["file"] == .string(system + "/system-slide.lua"))
    }
}
