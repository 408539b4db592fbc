import Foundation
import SegueClient
import SegueJSON
import Testing

/// The view node with `id` in a `scene.tree` result.
func findView(_ node: JSONValue?, _ id: String) -> JSONValue? {
    guard let node else { return nil }
    if node["id"]?.stringValue == id { return node }
    guard case .array(let subviews)? = node["subviews"] else { return nil }
    for sub in subviews { if let found = findView(sub, id) { return found } }
    return nil
}

func subviewIDs(_ node: JSONValue?) -> [String] {
    guard case .array(let subviews)? = node?["subviews"] else { return [] }
    return subviews.compactMap { $0["id"]?.stringValue }
}

/// Sets up a manual scene whose root is a container of `kind` holding view controllers a and b (for navigation, the
/// stack is [a]).
func setUpContainer(_ client: SegueClient, kind: String, extra: JSONObject = [:]) throws {
    _ = try client.call("scene.create", ["size": ["w": 320, "h": 480], "clock": "manual"])
    _ = try client.call("events.subscribe", ["types": ["lifecycle", "transition", "plugin"]])
    _ = try client.call("vc.create", ["id": "a", "color": "#ff0000"])
    _ = try client.call("vc.create", ["id": "b", "color": "#0000ff"])
    var params: JSONObject = ["id": "c", "kind": .string(kind)]
    if kind == "navigation" { params["root"] = "a" } else { params["children"] = ["a", "b"] }
    for (k, v) in extra { params[k] = v }
    _ = try client.call("container.create", params)
    _ = try client.call("scene.set_root", ["vc": "c"])
    _ = client.takeEvents()
}

/// Checks that the container holds exactly `shown`'s view, in place and untransformed.
func expectSettled(_ client: SegueClient, shown: String, line: Int = #line) throws {
    let tree = try client.call("scene.tree", ["presentation": true])
    let container = findView(tree["views"], "c.view")
    #expect(subviewIDs(container) == [shown + ".view"], "line \(line)")
    let view = findView(tree["views"], shown + ".view")
    #expect(view?["frame"] == ["x": 0, "y": 0, "w": 320, "h": 480], "line \(line)")
    #expect(view?["presentation"]?["alpha"] == 1, "line \(line)")
    #expect(view?["presentation"]?["transform"] == ["a": 1, "b": 0, "c": 0, "d": 1, "tx": 0, "ty": 0], "line \(line)")
}

@Suite("Bundled plugins through the daemon", .serialized)
struct BundledPluginTests {
    @Test("objcio-animator: the from-view shrinks to a tenth while the to-view fades in over 0.25 s")
    func objcioAnimator() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpContainer(client, kind: "custom")
        let start = try client.call("container.select", ["container": "c", "index": 1, "animator": "objcio-animator"])
        #expect(start["duration"] == 0.25)
        _ = try client.call("clock.advance", ["ms": 125])
        let mid = try client.call("scene.tree", ["presentation": true])
        let from = findView(mid["views"], "a.view")?["presentation"]
        let scale = from?["transform"]?["a"]?.doubleValue ?? 1
        #expect(scale > 0.1 && scale < 0.9)
        let alpha = findView(mid["views"], "b.view")?["presentation"]?["alpha"]?.doubleValue ?? 0
        #expect(alpha > 0.2 && alpha < 0.8)
        _ = try client.call("clock.advance", ["ms": 200])
        try expectSettled(client, shown: "b")
        let t = try client.call("transition.get", ["transition": start["transition"] ?? .null])
        #expect(t["state"] == "completed" && t["animator"] == "objcio-animator" && t["problems"] == [])
        // The from-view's transform was reset in the completion.
        let tree = try client.call("vc.get", ["vc": "a"])
        #expect(tree["appearance"] == "disappeared")
    }

    @Test("dt-slide with its delegate: the delegate picks dt-slide by index; both views slide together")
    func dtSlideWithDelegate() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpContainer(client, kind: "custom", extra: ["delegate": "dt-slide-delegate"])
        let start = try client.call("container.select", ["container": "c", "index": 1])
        #expect(start["animator"] == "dt-slide" && start["duration"] == 0.28)
        _ = try client.call("clock.advance", ["ms": 140])
        let mid = try client.call("scene.tree", ["presentation": true])
        let fromTX = findView(mid["views"], "a.view")?["presentation"]?["transform"]?["tx"]?.doubleValue ?? 0
        let toTX = findView(mid["views"], "b.view")?["presentation"]?["transform"]?["tx"]?.doubleValue ?? 0
        // Forward: the new page comes in from the right while the old one leaves to the left, side by side.
        #expect(fromTX < -100 && toTX > 100 && abs((toTX - fromTX) - 320) < 1e-6)
        _ = try client.call("clock.advance", ["ms": 200])
        try expectSettled(client, shown: "b")
        // Backward goes the other way.
        _ = try client.call("container.select", ["container": "c", "index": 0])
        _ = try client.call("clock.advance", ["ms": 140])
        let back = try client.call("scene.tree", ["presentation": true])
        #expect((findView(back["views"], "a.view")?["presentation"]?["transform"]?["tx"]?.doubleValue ?? 0) < -100)
        _ = try client.call("clock.advance", ["ms": 200])
        try expectSettled(client, shown: "a")
        // set_delegate can take it away again: the default animator decides.
        _ = try client.call("container.set_delegate", ["container": "c"])
        let plain = try client.call("container.select", ["container": "c", "index": 1])
        #expect(plain["animator"] == "default-slide")
    }

    @Test("flip: a push flips from the right, a pop from the left, 0.5 s; the model swaps at once")
    func flip() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpContainer(client, kind: "navigation", extra: ["rules": [["when": ["kind": "push"], "animator": "flip"],
                                                                         ["when": ["kind": "pop"], "animator": "flip"]]])
        let push = try client.call("nav.push", ["container": "c", "vc": "b"])
        #expect(push["animator"] == "flip" && push["duration"] == 0.5)
        let tree = try client.call("scene.tree", ["presentation": true])
        let container = findView(tree["views"], "c.view")
        let ids = subviewIDs(container)
        // b.view took a.view's place at once; a snapshot of a.view stands in for it on screen.
        #expect(ids.first == "b.view" && ids.count == 2 && !ids.contains("a.view"))
        _ = try client.call("clock.advance", ["ms": 125])
        let mid = try client.call("scene.tree", ["presentation": true])
        let snapshot = findView(findView(mid["views"], "c.view"), ids[1])
        guard case .array(let m)? = snapshot?["presentation"]?["transform"]?["m"] else {
            Issue.record("the snapshot is not turning in 3-D: \(String(describing: snapshot))")
            return
        }
        #expect(m.count == 16 && (m[11].doubleValue ?? 0) != 0)  // perspective m34 = -1/500 applied
        _ = try client.call("clock.advance", ["ms": 400])
        try expectSettled(client, shown: "b")
        let stack = try client.call("container.get", ["container": "c"])
        #expect(stack["stack"] == ["a", "b"])
        let pop = try client.call("nav.pop", ["container": "c"])
        #expect(pop["animator"] == "flip")
        _ = try client.call("clock.advance", ["ms": 600])
        try expectSettled(client, shown: "a")
        #expect(try client.call("container.get", ["container": "c"])["stack"] == ["a"])
    }

    @Test("cross-dissolve between tabs: 0.5 s, the to-view fades in over the from-view; the tab's children stay")
    func crossDissolveTabs() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpContainer(client, kind: "tab", extra: ["rules": [["when": ["kind": "select"], "animator": "cross-dissolve"]]])
        let start = try client.call("container.select", ["container": "c", "index": 1])
        #expect(start["animator"] == "cross-dissolve" && start["duration"] == 0.5)
        let events = client.takeEvents().compactMap { $0["type"]?.stringValue }
        #expect(events == ["vc.view_will_disappear", "vc.view_will_appear", "transition.began"])
        _ = try client.call("clock.advance", ["ms": 250])
        let mid = try client.call("scene.tree", ["presentation": true])
        let alpha = findView(mid["views"], "b.view")?["presentation"]?["alpha"]?.doubleValue ?? 0
        #expect(abs(alpha - 0.5) < 1e-6)
        _ = try client.call("clock.advance", ["ms": 300])
        try expectSettled(client, shown: "b")
        let c = try client.call("container.get", ["container": "c"])
        #expect(c["children"] == ["a", "b"] && c["selected"] == 1)
    }

    @Test("paging through the daemon: 100 pages with reuse 3, each page shows its own title")
    func paging() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        _ = try client.call("scene.create", ["size": ["w": 320, "h": 480], "clock": "manual"])
        _ = try client.call("container.create", ["id": "p", "kind": "paging", "count": 100, "reuse": 3,
                                                  "template": ["title_prefix": "Tab "], "delegate": "dt-slide-delegate"])
        _ = try client.call("scene.set_root", ["vc": "p"])
        for page in [1, 2, 3, 50, 99, 0] {
            let start = try client.call("container.select", ["container": "p", "index": .number(Double(page))])
            #expect(start["animator"] == "dt-slide")
            _ = try client.call("clock.advance", ["ms": 300])
            let c = try client.call("container.get", ["container": "p"])
            guard case .array(let alive)? = c["alive"], case .array(let children)? = c["children"],
                let shown = children.first?.stringValue
            else {
                Issue.record("container.get: \(c)")
                return
            }
            #expect(alive.count <= 3 && children.count == 1)
            #expect(c["page_of"]?[shown] == .number(Double(page)))
            #expect(try client.call("vc.get", ["vc": .string(shown)])["title"] == .string("Tab \(page)"))
        }
    }

    @Test("deterministic replay: the same commands on two fresh daemons give identical frame events")
    func deterministicReplay() throws {
        func run() throws -> [String] {
            let daemon = try DaemonProcess()
            let client = try daemon.client()
            try setUpContainer(client, kind: "custom")
            _ = try client.call("events.subscribe", ["types": ["frame"]])
            for (index, animator) in [(1, "dt-slide"), (0, "objcio-animator"), (1, "cross-dissolve"), (0, "default-slide")] {
                _ = try client.call("container.select", ["container": "c", "index": .number(Double(index)), "animator": .string(animator)])
                _ = try client.call("clock.advance", ["ms": 1100])
            }
            return client.takeEvents().filter { $0["type"] == "frame" }.map { $0.serialized() }
        }
        let first = try run(), second = try run()
        #expect(first.count > 100)
        #expect(first == second)
    }

    @Test("transition.wait with timeout_ms answers {ended: false} after that much wall time on a manual scene")
    func waitTimeout() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpContainer(client, kind: "custom")
        let start = try client.call("container.select", ["container": "c", "index": 1])
        let began = Date()
        let result = try client.call("transition.wait", ["transition": start["transition"] ?? .null, "timeout_ms": 100])
        #expect(result == ["ended": false, "state": "animating"])
        #expect(Date().timeIntervalSince(began) >= 0.09)
    }
}
