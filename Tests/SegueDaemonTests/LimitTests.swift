import SegueJSON
import Testing

@testable import SegueDaemon

/// Every `[limits]` key the daemon enforces per request (line length is in BadInputTests, connections in the
/// integration tests: both live in the socket layer).
@Suite("Limits")
struct LimitTests {
    let size: JSONValue = ["w": 100, "h": 100]

    @Test("limits.max_scenes: one more scene is -32004 with the limit, and creates nothing")
    func scenes() throws {
        let h = try Harness { $0.limits.maxScenes = 2 }
        #expect(try h.result("scene.create", ["id": "s1", "size": size, "clock": "manual"]) != nil)
        #expect(try h.result("scene.create", ["id": "s2", "size": size, "clock": "manual"]) != nil)
        let error = try h.call("scene.create", ["id": "s3", "size": size, "clock": "manual"]).last?["error"]
        #expect(error?["code"] == -32004)
        #expect(error?["data"]?["kind"] == "limit_exceeded")
        #expect(error?["data"]?["limit"] == 2)
        #expect(try h.result("scene.list")?.arrayValue?.count == 2)
        // The current scene is still the last one made.
        #expect(try h.result("clock.now") == ["time": 0])
        try h.call("scene.destroy", ["scene": "s1"])
        #expect(try h.result("scene.create", ["id": "s3", "size": size, "clock": "manual"])?["scene"] == "s3")
    }

    @Test("limits.max_views_per_scene: the view controller that would pass it is -32004 and is not made")
    func viewsPerScene() throws {
        let h = try Harness { $0.engine.maxViewsPerScene = 4 }
        try h.call("scene.create", ["id": "s", "size": size, "clock": "manual"])
        var refused: JSONValue?
        for i in 0..<10 {
            if let error = try h.call("vc.create", ["id": .string("v\(i)")]).last?["error"] {
                refused = error
                #expect(try h.errorCode("vc.get", ["vc": .string("v\(i)")]) == -32001)
                break
            }
        }
        #expect(refused?["code"] == -32004)
        #expect(refused?["message"]?.stringValue?.contains("limits.max_views_per_scene") == true)
        #expect(refused?["data"]?["limit"] == 4)
        #expect(try h.call("container.create", ["id": "c", "kind": "custom"]).last?["error"]?["data"]?["limit"] == 4)
        // Another scene has its own budget.
        try h.call("scene.create", ["id": "t", "size": size, "clock": "manual"])
        #expect(try h.result("vc.create", ["id": "v0"])?["vc"] == "v0")
    }

    @Test("limits.max_subscriptions is per connection: one more is -32004; unsubscribing frees a slot")
    func subscriptions() throws {
        let h = try Harness { $0.limits.maxSubscriptions = 2 }
        let first = try h.result("events.subscribe")?["subscription"]
        #expect(first != nil)
        #expect(try h.result("events.subscribe")?["subscription"] != nil)
        let error = try h.call("events.subscribe").last?["error"]
        #expect(error?["code"] == -32004)
        #expect(error?["data"]?["limit"] == 2)
        #expect(h.daemon.events.subscriptions.count == 2)
        // Another connection has its own allowance.
        let other = try Harness.connect(h.daemon)
        try other.writeInbound(#"{"jsonrpc":"2.0","id":1,"method":"events.subscribe"}"# + "\n")
        let reply = other.readOutbound() ?? ""
        #expect(reply.contains("\"subscription\":3"))
        try h.call("events.unsubscribe", ["subscription": first ?? .null])
        #expect(try h.result("events.subscribe")?["subscription"] == 4)
    }

    @Test("the busy error names the container and the running transition")
    func busyNamesTheParameter() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("container.select", ["container": "tabs", "index": 1])
        let error = try h.call("container.select", ["container": "tabs", "index": 0]).last?["error"]
        #expect(error?["code"] == -32002)
        #expect(error?["data"]?["kind"] == "invalid_state")
        #expect(error?["data"]?["param"] == "container")
        #expect(error?["data"]?["id"] == "t-1")
        let realtime = try h.call("scene.create", ["id": "rt", "size": size, "clock": "realtime"])
        #expect(realtime.last?["result"] != nil)
        let advance = try h.call("clock.advance", ["ms": 10]).last?["error"]
        #expect(advance?["data"]?["param"] == "scene" && advance?["data"]?["id"] == "rt")
    }

    @Test("daemon.stats keeps latency per method of the table; unparsable and unknown requests are counted, not bucketed")
    func statsBuckets() throws {
        let h = try Harness()
        try h.call("daemon.ping")
        try h.call("no.such.method")
        try h.call("made.up.name")
        try h.send("{not json")
        try h.send(#"{"jsonrpc":"2.0","id":1}"#)
        try h.call("daemon.ping", ["bad": 1])
        let stats = try #require(try h.result("daemon.stats"))
        let latency = stats["latency"]?.objectValue
        #expect(latency?.keys.sorted() == ["daemon.ping"])
        #expect(stats["latency"]?["daemon.ping"]?["count"] == 2)  // the refused parameter went through the method
        #expect(stats["requests"] == 6)
        #expect(stats["errors"] == ["-32700": 1, "-32602": 1, "-32601": 2, "-32600": 1])
        let percentiles = stats["latency"]?["daemon.ping"]
        #expect(percentiles?["p50_us"] != nil && percentiles?["p99_us"] != nil && percentiles?["p999_us"] != nil)
    }

    @Test("while draining, every method answers -32005; unknown methods are still -32601")
    func draining() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("container.select", ["container": "tabs", "index": 1])
        h.daemon.drain()
        #expect(try h.result("transition.get", ["transition": "t-1"]) == nil)
        let error = try h.call("daemon.ping").last?["error"]
        #expect(error?["code"] == -32005)
        #expect(error?["data"]?["kind"] == "shutting_down")
        #expect(try h.errorCode("no.such") == -32601)
        // The running transition was completed by the drain.
        #expect(h.daemon.scenes["main"]?.transition("t-1")?.isEnded == true)
    }
}
