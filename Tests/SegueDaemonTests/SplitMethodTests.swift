import SegueJSON
import Testing

@testable import SegueDaemon

@Suite("split.* and size classes over the protocol")
struct SplitMethodTests {
    /// The parameter a refused request names (`error.data.param`).
    func param(_ h: Harness, _ method: String, _ params: JSONValue) throws -> String? {
        try h.call(method, params).last?["error"]?["data"]?["param"]?.stringValue
    }

    @Test("create, container.get's split fields, the split methods, and their bad input naming the parameter")
    func splitMethods() throws {
        let h = try Harness()
        try h.call("scene.create", ["id": "wide", "size": ["w": 1024, "h": 768], "clock": "manual"])
        for id in ["p", "s", "x", "y"] { try h.call("vc.create", ["id": .string(id)]) }
        #expect(try param(h, "container.create", ["kind": "split", "children": ["p"]]) == "children")
        #expect(try param(h, "container.create", ["kind": "split", "children": ["p", "s"], "style": "triple_column"])
            == "children")
        #expect(try param(h, "container.create", ["kind": "split", "children": ["p", "s"],
                                                  "display_mode": "two_over_secondary"]) == "display_mode")
        #expect(try param(h, "container.create", ["kind": "split", "children": ["p", "s"], "display_mode": "wide"])
            == "display_mode")
        #expect(try param(h, "container.create", ["kind": "tab", "children": ["p"], "style": "double_column"])
            == "style")
        #expect(try h.result("container.create", ["id": "mail", "kind": "split", "children": ["p", "s"]])?["container"]
            == "mail")
        try h.call("scene.set_root", ["vc": "mail"])
        let get = try h.result("container.get", ["container": "mail"])
        #expect(get?["columns"] == ["primary": "p", "secondary": "s"])
        #expect(get?["style"] == "double_column" && get?["display_mode"] == "one_beside_secondary")
        #expect(get?["preferred_display_mode"] == "automatic" && get?["collapsed"] == false)
        #expect(try param(h, "split.set_column", ["container": "mail", "column": "supplementary", "vc": "x"]) == "column")
        #expect(try param(h, "split.set_column", ["container": "mail", "column": "middle", "vc": "x"]) == "column")
        #expect(try param(h, "split.set_column", ["container": "mail", "column": "secondary", "vc": "p"]) == "vc")
        #expect(try param(h, "split.hide_column", ["container": "mail", "column": "secondary"]) == "column")
        #expect(try param(h, "split.set_display_mode", ["container": "mail", "display_mode": "two_beside_secondary"])
            == "display_mode")
        let start = try h.result("split.set_column", ["container": "mail", "column": "secondary", "vc": "x"])
        #expect(start?["animator"] == "default-split" && start?["duration"] == 0.35 && start?["state"] == "animating")
        #expect(try h.errorCode("split.hide_column", ["container": "mail", "column": "primary"]) == -32002)  // busy
        try h.call("clock.advance", ["ms": 400])
        let hide = try h.result("split.hide_column", ["container": "mail", "column": "primary", "animated": false])
        #expect(hide?["state"] == "completed")
        #expect(try h.result("container.get", ["container": "mail"])?["display_mode"] == "secondary_only")
        #expect(try h.errorCode("split.show_column", ["container": "nope", "column": "primary"]) == -32001)
    }

    @Test("scene.resize with and without traits: traits_changed, collapse into SPLITID.nav and expand")
    func collapseOverTheProtocol() throws {
        let h = try Harness()
        try h.call("scene.create", ["id": "wide", "size": ["w": 1024, "h": 768], "clock": "manual",
                                    "traits": ["horizontal": "compact"]])
        for id in ["p", "s"] { try h.call("vc.create", ["id": .string(id)]) }
        try h.call("container.create", ["id": "mail", "kind": "split", "children": ["p", "s"]])
        #expect(try h.result("container.get", ["container": "mail"])?["navigation"] == "mail.nav")
        try h.call("events.subscribe", ["types": ["scene"]])
        let lines = try h.call("scene.resize", ["size": ["w": 1024, "h": 768]])
        #expect(lines.first?["params"]?["type"] == "scene.traits_changed")
        #expect(lines.first?["params"]?["previous"]?["horizontal"] == "compact")
        #expect(try h.result("container.get", ["container": "mail"])?["collapsed"] == false)
        #expect(try param(h, "scene.resize", ["size": ["w": 10, "h": 10], "traits": ["horizontal": "tiny"]])
            == "traits")
        #expect(try param(h, "scene.create", ["size": ["w": 10, "h": 10], "clock": "manual",
                                              "traits": ["depth": "compact"]]) == "traits")
    }
}
