import SegueJSON
import Testing

@testable import SegueDaemon

@Suite("plugins.reload and plugins.check on the protocol")
struct PluginMethodTests {
    @Test("plugins.check answers the report; its parameters are checked like every method's")
    func check() throws {
        let h = try Harness()
        let report = try #require(try h.result("plugins.check", ["name": "dt-slide", "size": ["w": 200, "h": 300]]))
        #expect(report["passed"] == true)
        #expect(report["plugin"] == "dt-slide")
        #expect(report["cases"]?.arrayValue?.map { $0["case"]?.stringValue ?? "" } == [
            "select forward", "select backward", "push", "pop", "select interactive finish at 0.7",
            "select interactive cancel at 0.3", "push interactive finish at 0.7", "push interactive cancel at 0.3",
            "pop interactive finish at 0.7", "pop interactive cancel at 0.3",
        ])
        #expect(report["skipped"]?.arrayValue?.count == 8)  // dt-slide declares kinds = {select, push, pop, set}
        let missing = try h.call("plugins.check", [:]).last?["error"]
        #expect(missing?["code"] == -32602 && missing?["data"]?["param"] == "name")
        let unknown = try h.call("plugins.check", ["name": "nope"]).last?["error"]
        #expect(unknown?["code"] == -32001 && unknown?["data"]?["id"] == "nope")
        let delegate = try h.call("plugins.check", ["name": "dt-slide-delegate"]).last?["error"]
        #expect(delegate?["code"] == -32602)
        #expect(try h.errorCode("plugins.check", ["name": "dt-slide", "size": ["w": -1, "h": 1]]) == -32602)
        #expect(try h.errorCode("plugins.check", ["name": "dt-slide", "extra": 1]) == -32602)
        // The check's private scenes are gone afterwards.
        #expect(try h.result("scene.list")?.arrayValue?.isEmpty == true)
    }

    @Test("plugins.reload answers what changed and reports it as plugin events")
    func reload() throws {
        let h = try Harness()
        try h.call("events.subscribe", ["types": ["plugin"]])
        let lines = try h.call("plugins.reload", ["name": "flip"])
        let events = lines.dropLast().filter { $0["method"] == "event" }
        #expect(events.map { $0["params"]?["type"]?.stringValue ?? "" } == ["plugin.loaded"])
        #expect(events.first?["params"]?["name"] == "flip")
        #expect(lines.last?["result"]?["loaded"] == ["flip"])
        #expect(lines.last?["result"]?["failed"] == [])
        let all = try #require(try h.result("plugins.reload"))
        #expect((all["loaded"]?.arrayValue?.count ?? 0) >= 5)
        #expect(try h.errorCode("plugins.reload", ["name": 5]) == -32602)
        #expect(try h.errorCode("plugins.reload", ["name": "nope"]) == -32001)
    }
}
