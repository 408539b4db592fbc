import SegueKit
import Testing

@testable import SegueLua

@Suite("Errors that name a plugin's kind")
struct PluginKindMessageTests {
    @Test("an animator, a delegate: the article fits the kind")
    func articles() throws {
        let host = PluginHost(directory: repositoryRoot + "/plugins")
        host.loadAll()
        var messages: [String] = []
        for (name, presentation) in [("dt-slide-delegate", nil), ("flip", "flip"), ("side-panel", nil)] as [(String, String?)] {
            do {
                _ = try host.check(name: name, presentation: presentation)
            } catch {
                messages.append(error.message)
            }
        }
        #expect(messages == [
            "plugin 'dt-slide-delegate' is a delegate; plugins.check runs animators and interaction plugins",
            "plugin 'flip' is an animator, not a presentation plugin",
            "plugin 'side-panel' is a presentation; plugins.check runs animators and interaction plugins",
        ])
    }
}
