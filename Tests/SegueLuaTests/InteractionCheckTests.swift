import SegueKit
import Testing

@testable import SegueLua

/// Interaction plugins are checkable (issue 29, item 2): the published gesture scripts along the plugin's forward
/// direction; completes or cancels, no raise, the percent follows the translation.
@Suite("Checking an interaction plugin with gesture scripts")
struct InteractionCheckTests {
    static func interaction(_ name: String, kinds: String = "", changed: String) -> String {
        """
        return segue.interaction {
          name = '\(name)', \(kinds)
          began = function(tr, g) end,
          changed = function(tr, g) \(changed) end,
          ended = function(tr, g) if tr.percent > 0.5 or g.velocity.x > 100 then tr.finish() else tr.cancel() end end,
        }
        """
    }

    @Test("a plugin whose percent follows a rightward drag passes every script, for every kind")
    func good() throws {
        let host = PluginHost(directory: try makePluginFolder([
            "good.lua": Self.interaction("good", changed: "tr.update(math.min(math.max(g.translation.x / 320, 0), 1))"),
        ]))
        host.loadAll()
        let result = try host.check(name: "good")
        #expect(result.passed, "\(problemCodes(result))")
        #expect(result.plugin == "good")
        #expect(result.cases.count == 5 * GestureScript.published.count)
        #expect(result.cases.map(\.name).contains("push: fast flick back"))
    }

    @Test("kinds on segue.interaction limits the cases; a percent that runs against the drag and a raise are found")
    func bad() throws {
        let host = PluginHost(directory: try makePluginFolder([
            "backwards.lua": Self.interaction("backwards", kinds: "kinds = { 'push' },",
                                              changed: "tr.update(math.abs(math.sin(g.translation.y / 40)))"),
            "raising.lua": Self.interaction("raising", kinds: "kinds = { 'select' },",
                                            changed: "if g.translation.x > 100 then error('too far') end tr.update(g.translation.x / 320)"),
        ]))
        host.loadAll()
        let backwards = try host.check(name: "backwards")
        #expect(backwards.cases.count == GestureScript.published.count)
        #expect(backwards.skipped.count == 4 * GestureScript.published.count)
        #expect(allCodes(backwards).contains("percent_not_following"), "\(problemCodes(backwards))")
        #expect(!backwards.passed)
        let raising = try host.check(name: "raising")
        #expect(allCodes(raising).contains("raised_in_callback"), "\(problemCodes(raising))")
        #expect(!raising.passed)
    }

    @Test("--animator: the gestures drive that animator; an animator parameter for an animator check is refused")
    func throughAnimator() throws {
        let host = PluginHost(directory: repositoryRoot + "/plugins")
        host.loadAll()
        let result = try host.check(name: "swipe-up", animator: "normal-dismiss")
        #expect(result.passed, "\(problemCodes(result))")
        #expect(result.cases.count == GestureScript.published.count)
        #expect(throws: EngineError.self) { try host.check(name: "dt-slide", animator: "flip") }
        #expect(throws: EngineError.self) { try host.check(name: "swipe-up", animator: "side-panel") }
    }
}
