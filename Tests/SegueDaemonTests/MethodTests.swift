import SegueJSON
import Testing

@testable import SegueDaemon

@Suite("Methods and their errors")
struct MethodTests {
    @Test("invalid params name the parameter")
    func invalidParams() throws {
        let h = try Harness()
        let unknown = try h.call("daemon.ping", ["nope": 1]).last?["error"]
        #expect(unknown?["code"] == -32602)
        #expect(unknown?["data"]?["param"] == "nope")
        let missing = try h.call("scene.create", ["clock": "manual"]).last?["error"]
        #expect(missing?["code"] == -32602 && missing?["data"]?["param"] == "size")
        let wrongType = try h.call("scene.create", ["size": ["w": 1, "h": 1], "clock": 5]).last?["error"]
        #expect(wrongType?["data"]?["param"] == "clock")
        let badID = try h.call("scene.create", ["id": "bad id!", "size": ["w": 1, "h": 1], "clock": "manual"]).last?["error"]
        #expect(badID?["data"]?["param"] == "id")
    }

    @Test("without a current scene, leaving out scene is -32602 naming scene")
    func noCurrentScene() throws {
        let h = try Harness()
        let error = try h.call("vc.create", ["id": "a"]).last?["error"]
        #expect(error?["code"] == -32602)
        #expect(error?["data"]?["param"] == "scene")
    }

    @Test("unknown ids are -32001 with the id in data")
    func unknownIDs() throws {
        let h = try Harness()
        try h.setUpScene()
        let vc = try h.call("vc.get", ["vc": "zz"]).last?["error"]
        #expect(vc?["code"] == -32001 && vc?["data"]?["id"] == "zz")
        #expect(try h.errorCode("transition.get", ["transition": "t-9"]) == -32001)
        #expect(try h.errorCode("container.get", ["container": "nope"]) == -32001)
        #expect(try h.errorCode("scene.tree", ["scene": "nope"]) == -32001)
        let animator = try h.call("container.select", ["container": "tabs", "index": 1, "animator": "no-such"]).last?["error"]
        #expect(animator?["code"] == -32001 && animator?["data"]?["param"] == "animator")
    }

    @Test("a bad request changes nothing")
    func appliesWholeOrNotAtAll() throws {
        let h = try Harness()
        try h.setUpScene()
        #expect(try h.errorCode("vc.create", ["id": "c", "color": "red"]) == -32602)
        #expect(try h.errorCode("vc.get", ["vc": "c"]) == -32001)
        #expect(try h.errorCode("container.select", ["container": "tabs", "index": 5]) == -32602)
        #expect(try h.result("container.get", ["container": "tabs"])?["selected"] == 0)
        #expect(try h.errorCode("container.create", ["id": "x", "kind": "custom", "children": ["a", "ghost"]]) == -32001)
        #expect(try h.errorCode("vc.get", ["vc": "x"]) == -32001)
    }

    @Test("clock.advance on a realtime scene is invalid_state; a busy container rejects a second select")
    func invalidState() throws {
        let h = try Harness()
        try h.call("scene.create", ["id": "rt", "size": ["w": 100, "h": 100], "clock": "realtime"])
        #expect(try h.errorCode("clock.advance", ["ms": 10]) == -32002)
        try h.setUpScene()
        try h.call("container.select", ["container": "tabs", "index": 1])
        #expect(try h.errorCode("container.select", ["container": "tabs", "index": 0]) == -32002)
    }

    @Test("events a request causes arrive before its response, in docs/DESIGN.md §3's order")
    func eventsBeforeResponse() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("events.subscribe", ["types": ["lifecycle", "transition"]])
        let select = try h.call("container.select", ["container": "tabs", "index": 1, "animator": "dt-slide"], id: 7)
        #expect(select.last?["id"] == 7)
        #expect(select.dropLast().map { $0["params"]?["type"]?.stringValue ?? "" } == [
            "vc.will_move_to_parent", "vc.will_move_to_parent", "vc.view_will_disappear", "vc.view_will_appear",
            "transition.began",
        ])
        let advance = try h.call("clock.advance", ["ms": 300], id: 8)
        #expect(advance.last?["id"] == 8)
        let events = advance.dropLast().map { "\($0["params"]?["type"]?.stringValue ?? "") \($0["params"]?["vc"]?.stringValue ?? "")" }
        #expect(events == [
            "vc.view_did_disappear a", "vc.view_did_appear b", "vc.did_move_to_parent a", "vc.did_move_to_parent b",
            "transition.completed ",
        ])
        #expect(try h.result("transition.get", ["transition": "t-1"])?["state"] == "completed")
    }

    @Test("subscriptions see other connections' events; they die with their connection")
    func subscriptionsAcrossConnections() throws {
        let h = try Harness()
        try h.setUpScene()
        let watcher = try Harness.connect(h.daemon)
        try watcher.writeInbound(#"{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"scene":"main","types":["transition"]}}"# + "\n")
        _ = watcher.readOutbound()
        try h.call("container.select", ["container": "tabs", "index": 1])
        let seen = watcher.readOutbound() ?? ""
        #expect(seen.contains("transition.began"))
        watcher.close()
        #expect(h.daemon.events.subscriptions.count == 0)
    }

    @Test("daemon.stats counts requests per method, errors by code, transitions and frames (heard or not)")
    func stats() throws {
        let h = try Harness()
        try h.setUpScene()
        for _ in 0..<3 { try h.call("daemon.ping") }
        try h.call("nope.nope")
        try h.call("container.select", ["container": "tabs", "index": 1, "animator": "dt-slide"])
        try h.call("clock.advance", ["ms": 300])
        let stats = try #require(try h.result("daemon.stats"))
        #expect(stats["latency"]?["daemon.ping"]?["count"] == 3)
        #expect(stats["errors"]?["-32601"] == 1)
        #expect(stats["transitions"]?["started"] == 1 && stats["transitions"]?["completed"] == 1)
        #expect(stats["frames"] == 17)  // 0.28 s of dt-slide on the 60 fps grid: frames 1…17
        try h.call("scene.destroy", ["scene": "main"])
        #expect(try h.result("daemon.stats")?["frames"] == 17)
    }

    @Test("a destroyed scene is not found again by its id, and a new scene of that id is the new one")
    func sceneFoundAgain() throws {
        let h = try Harness()
        try h.setUpScene()
        #expect(try h.result("scene.tree", ["scene": "main"])?["controllers"]?["id"] == "tabs")
        try h.call("scene.destroy", ["scene": "main"])
        #expect(try h.errorCode("scene.tree", ["scene": "main"]) == -32001)
        #expect(try h.errorCode("container.select", ["scene": "main", "container": "tabs", "index": 1]) == -32001)
        try h.call("scene.create", ["id": "main", "size": ["w": 100, "h": 100], "clock": "manual"])
        #expect(try h.result("scene.tree", ["scene": "main"])?["views"]?["frame"]?["w"] == 100)
        #expect(try h.errorCode("container.select", ["scene": "main", "container": "tabs", "index": 1]) == -32001)
    }

    @Test("frame events carry the presentation values that changed")
    func frames() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("events.subscribe", ["types": ["frame"]])
        try h.call("container.select", ["container": "tabs", "index": 1, "animator": "cross-dissolve"])
        let lines = try h.call("clock.step", ["frames": 1])
        let frame = lines.first?["params"]
        #expect(frame?["type"] == "frame")
        let views = frame?["views"]?.arrayValue ?? []
        #expect(views.map { $0["id"]?.stringValue ?? "" } == ["a.view", "b.view"])
        #expect((views[1]["alpha"]?.doubleValue ?? 0) > 0)
        #expect(views[1]["frame"] == nil)
    }
}

