import SegueKit
import Testing

@testable import SegueLua

/// A `plugin.warning` or `log` event a Lua state raises names a plugin `plugins.list` lists.
@Suite("Which plugin a warning names")
struct WarningNameTests {
    static let twice = """
        return segue.animator {
          name = "bounce-port",
          duration = 0.2,
          animate = function(ctx)
            ctx.container:add(ctx:view("to"))
            segue.log("animating")
            segue.animate({ duration = 0.2, curve = "linear", spring = { damping = 1 } },
              function() ctx:view("to").alpha = 1 end, function() ctx:complete(true) end)
          end,
        }
        """

    @Test("a file with one plugin: its warnings and log lines carry the plugin's name, not the file's")
    func onePluginNamesIt() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["bounce.lua": Self.twice])
        _ = try scene.select(container, index: 1, animator: "bounce-port")
        scene.advance(by: 500_000_000)
        let warning = recorder.events.first { $0.type == "plugin.warning" }
        #expect(warning?.payload.pluginName == "bounce-port")
        #expect(recorder.events.first { $0.type == "log" }?.payload.pluginName == "bounce-port")
    }

    @Test("a file with several plugins: the file's name, as before (the state is the file's)")
    func severalKeepTheFile() throws {
        let other = #"segue.animator { name = "other", duration = 0.1, animate = function(ctx) ctx:complete(true) end }"#
        let list = "return { (function() " + Self.twice + " end)(), " + other + " }"
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["both.lua": list])
        _ = try scene.select(container, index: 1, animator: "bounce-port")
        scene.advance(by: 500_000_000)
        #expect(recorder.events.first { $0.type == "plugin.warning" }?.payload.pluginName == "both")
    }
}
