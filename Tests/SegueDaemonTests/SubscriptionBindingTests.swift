import SegueJSON
import Testing

@testable import SegueDaemon

/// events.subscribe without `scene`: bound to the connection's current scene when made (all scenes when there is
/// none); a connection gets each event once, however many of its subscriptions want it.
@Suite("events.subscribe binding")
struct SubscriptionBindingTests {
    static func events(_ lines: [JSONValue]) -> [String] {
        lines.filter { $0["method"] == "event" }.map {
            "\($0["params"]?["scene"]?.stringValue ?? "-") \($0["params"]?["type"]?.stringValue ?? "?")"
        }
    }

    static let size: JSONValue = ["w": 100, "h": 100]

    @Test("a subscription made with no current scene (all scenes) and one made after scene.create: events come once")
    func allScenesThenOne() throws {
        let h = try Harness()
        let all = try #require(try h.result("events.subscribe", ["types": ["lifecycle"]]))
        #expect(all["scene"] == .null)
        try h.call("scene.create", ["id": "s1", "size": Self.size, "clock": "manual"])
        let bound = try #require(try h.result("events.subscribe", ["types": ["lifecycle"]]))
        #expect(bound["scene"] == "s1")
        try h.call("vc.create", ["id": "a"])
        let lines = try h.call("scene.set_root", ["vc": "a"])
        #expect(Self.events(lines) == ["s1 vc.view_will_appear", "s1 vc.view_did_appear"])
    }

    @Test("a second scene.create and subscribe: each subscription keeps the scene it was made in, nothing doubles")
    func secondSceneAndSubscribe() throws {
        let h = try Harness()
        try h.call("scene.create", ["id": "s1", "size": Self.size, "clock": "manual"])
        try h.call("events.subscribe", ["types": ["lifecycle", "plugin"]])
        try h.call("vc.create", ["id": "a"])
        try h.call("scene.create", ["id": "s2", "size": Self.size, "clock": "manual"])
        // Only s1 is subscribed so far: s2's events do not come.
        try h.call("vc.create", ["id": "b"])
        #expect(Self.events(try h.call("scene.set_root", ["vc": "b"])).isEmpty)
        try h.call("events.subscribe", ["types": ["lifecycle", "plugin"]])
        try h.call("vc.create", ["id": "c"])
        let s2 = Self.events(try h.call("scene.set_root", ["vc": "c"]))
        #expect(s2.count == 4 && Set(s2).count == 4 && s2.allSatisfy { $0.hasPrefix("s2 ") }, "\(s2)")
        let s1 = try h.call("scene.set_root", ["scene": "s1", "vc": "a"])
        #expect(Self.events(s1) == ["s1 vc.view_will_appear", "s1 vc.view_did_appear"])
        // A daemon-wide event reaches the connection once, not once per subscription.
        let reload = try h.call("plugins.reload", ["name": "flip"])
        #expect(Self.events(reload) == ["- plugin.loaded"])
    }
}
