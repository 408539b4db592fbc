import Testing

@testable import SegueDaemon
@testable import SegueStudio

/// The studio's relay table against the daemon's method table: a method added to the daemon fails this test until
/// `RelayPolicy.rules` says whether a page may call it and which of its fields name scenes.
@Suite("The relay decides on every daemon method")
struct RelayRuleCoverageTests {
    @Test("every daemon method has a relay rule, and every rule names a daemon method")
    func everyMethodDecided() {
        let daemon = Set(Daemon.methods.keys)
        let decided = Set(RelayPolicy.rules.keys)
        #expect(daemon.subtracting(decided).sorted() == [], "daemon methods the studio's relay has no rule for")
        #expect(decided.subtracting(daemon).sorted() == [], "relay rules for methods the daemon does not have")
    }

    @Test("a relayed method whose params have a scene field lists params.scene among its scene fields")
    func sceneFieldsListed() {
        for (name, entry) in Daemon.methods {
            guard let rule = RelayPolicy.rules[name], rule.route == .relayed, rule.claim == nil else { continue }
            if entry.descriptor.params.contains(where: { $0.name == "scene" }) {
                #expect(rule.sceneFields.contains(["scene"]), "\(name) takes 'scene' but the relay does not check it")
            }
        }
    }
}
