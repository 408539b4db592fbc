import SegueJSON
import Testing

@testable import SegueDaemon

/// Issue 28 over the protocol: modal.present's styles, `sheet` and `popover`, sheet.set_detent, gesture.pan with
/// `sheet`, vc.set, scene.resize's size transition, and every error each refuses with.
@Suite("Presentation methods")
struct PresentationMethodTests {
    /// A compact 390×844 manual scene with root `main`, a presented-to-be `m`, subscribed to the default set.
    static func harness() throws -> Harness {
        let h = try Harness()
        try h.call("scene.create", ["id": "main", "size": ["w": 390, "h": 844], "clock": "manual"])
        try h.call("vc.create", ["id": "main"])
        try h.call("vc.create", ["id": "m"])
        try h.call("scene.set_root", ["vc": "main"])
        return h
    }

    static func error(_ h: Harness, _ method: String, _ params: JSONValue) throws -> (Int?, String?, String?) {
        let e = try h.call(method, params).last?["error"]
        return (e?["code"]?.intValue, e?["data"]?["param"]?.stringValue, e?["message"]?.stringValue)
    }

    @Test("a page sheet with detents: vc.get shows it, set_detent moves it with sheet.detent_changed, a drag dismisses")
    func sheetFlow() throws {
        let h = try Self.harness()
        let sub = try h.result("events.subscribe", [:])
        #expect(sub?["types"]?.arrayValue?.contains("presentation") == true)
        let start = try h.result("modal.present", ["presenting": "main", "presented": "m", "style": "pageSheet", "animated": false,
                                                   "sheet": ["detents": ["medium", "large", ["id": "peek", "height": 120]],
                                                             "selected": "large", "grabber": true]])
        #expect(start?["state"] == "completed")
        let vc = try h.result("vc.get", ["vc": "m"])
        #expect(vc?["presentation_style"] == "pageSheet" && vc?["adaptive_style"] == nil)  // only when it differs
        #expect(vc?["sheet"]?["detents"] == ["medium", "large", "peek"] && vc?["sheet"]?["selected"] == "large")
        let lines = try h.call("sheet.set_detent", ["presented": "m", "detent": "medium", "animated": false])
        #expect(lines.last?["result"]?["frame"] == ["x": 0, "y": 422, "w": 390, "h": 422])
        #expect(lines.contains { $0["params"]?["type"] == "sheet.detent_changed" && $0["params"]?["detent"] == "medium" })
        #expect(try h.errorCode("sheet.set_detent", ["presented": "m", "detent": "huge"]) == -32602)
        #expect(try h.errorCode("sheet.set_detent", ["presented": "main", "detent": "large"]) == -32002)
        // Drag: began, changed, ended thrown down.
        let began = try h.result("gesture.pan", ["sheet": "m", "phase": "began"])
        #expect(began?["detent"] == "medium")
        _ = try h.result("gesture.pan", ["sheet": "m", "phase": "changed", "translation": ["x": 0, "y": 100]])
        let ended = try h.result("gesture.pan", ["sheet": "m", "phase": "ended", "translation": ["x": 0, "y": 300],
                                                  "velocity": ["x": 0, "y": 800]])
        #expect(ended?["transition"]?.stringValue != nil)
        try h.call("clock.advance", ["ms": 2000])
        #expect(try h.result("vc.get", ["vc": "main"])?["presented"] == nil)
    }

    @Test("vc.set and vc.create's keys; modal_in_presentation refuses a drag's dismissal with sheet.dismiss_attempted")
    func vcSetAndRefusal() throws {
        let h = try Self.harness()
        try h.call("events.subscribe", [:])
        let set = try h.result("vc.set", ["vc": "m", "title": "M", "modal_in_presentation": true,
                                          "preferred_content_size": ["w": 300, "h": 200], "defines_presentation_context": true])
        #expect(set?["title"] == "M" && set?["modal_in_presentation"] == true && set?["defines_presentation_context"] == true)
        #expect(set?["preferred_content_size"] == ["w": 300, "h": 200])
        #expect(try h.result("vc.create", ["id": "x", "provides_presentation_context_transition_style": true]) != nil)
        #expect(try h.result("vc.get", ["vc": "x"])?["provides_presentation_context_transition_style"] == true)
        #expect(try h.errorCode("vc.set", ["vc": "nobody"]) == -32001)
        #expect(try h.errorCode("vc.set", ["vc": "m", "modal_in_presentation": "yes"]) == -32602)
        #expect(try h.errorCode("vc.set", ["vc": "m", "colour": "#fff"]) == -32602)
        try h.call("modal.present", ["presenting": "main", "presented": "m", "style": "pageSheet", "animated": false])
        let lines = try h.call("gesture.pan", ["sheet": "m", "phase": "ended", "translation": ["x": 0, "y": 700],
                                               "velocity": ["x": 0, "y": 2000]])
        #expect(lines.last?["result"]?["refused"] == true)
        #expect(lines.contains { $0["params"]?["type"] == "sheet.dismiss_attempted" && $0["params"]?["presented"] == "m" })
        try h.call("clock.advance", ["ms": 600])
        #expect(try h.result("vc.get", ["vc": "main"])?["presented"] == "m")
    }

    @Test("bad input: unknown styles, detents, directions; contradictions; nothing changes")
    func badInput() throws {
        let h = try Self.harness()
        try h.call("vc.create", ["id": "button"])
        var e = try Self.error(h, "modal.present", ["presenting": "main", "presented": "m", "style": "sheet"])
        #expect(e.0 == -32602 && e.1 == "style" && (e.2 ?? "").contains("pageSheet"))
        e = try Self.error(h, "modal.present", ["presenting": "main", "presented": "m", "style": "pageSheet",
                                                "sheet": ["detents": ["small"]]])
        #expect(e.0 == -32602 && e.1 == "sheet.detents" && (e.2 ?? "").contains("medium"))
        e = try Self.error(h, "modal.present", ["presenting": "main", "presented": "m", "style": "pageSheet",
                                                "sheet": ["detents": [["id": "neg", "height": -10]]]])
        #expect(e.0 == -32602 && e.1 == "sheet.detents")
        e = try Self.error(h, "modal.present", ["presenting": "main", "presented": "m", "style": "fullScreen", "sheet": [:]])
        #expect(e.0 == -32602 && e.1 == "sheet")
        e = try Self.error(h, "modal.present", ["presenting": "main", "presented": "m", "style": "popover"])
        #expect(e.0 == -32602 && e.1 == "popover")
        e = try Self.error(h, "modal.present", ["presenting": "main", "presented": "m", "style": "popover",
                                                "popover": ["source_view": "main.view", "permitted_arrow_directions": ["north"]]])
        #expect(e.0 == -32602 && e.1 == "popover.permitted_arrow_directions" && (e.2 ?? "").contains("up"))
        e = try Self.error(h, "modal.present", ["presenting": "main", "presented": "m", "style": "popover",
                                                "popover": ["source_rect": ["x": 0, "y": 0, "w": 1, "h": 1]]])
        #expect(e.0 == -32602 && e.1 == "popover.source_view")
        e = try Self.error(h, "modal.present", ["presenting": "main", "presented": "m", "style": "overFullScreen",
                                                "popover": ["source_view": "main.view"]])
        #expect(e.0 == -32602 && e.1 == "popover")
        e = try Self.error(h, "modal.present", ["presenting": "main", "presented": "m", "style": "popover",
                                                "popover": ["source_view": "button.view"]])  // not on screen
        #expect(e.0 == -32602 && e.1 == "popover.source_view")
        #expect(try h.result("vc.get", ["vc": "main"])?["presented"] == nil)
        e = try Self.error(h, "gesture.pan", ["sheet": "m", "phase": "began"])
        #expect(e.0 == -32002)
        try h.call("modal.present", ["presenting": "main", "presented": "m", "style": "overFullScreen", "animated": false])
        e = try Self.error(h, "gesture.pan", ["sheet": "m", "phase": "began"])
        #expect(e.0 == -32002 && e.1 == "sheet")
        e = try Self.error(h, "gesture.pan", ["sheet": "m", "transition": "t-1", "phase": "began"])
        #expect(e.0 == -32602)
        #expect(try h.errorCode("sheet.set_detent", ["presented": "m", "detent": "large"]) == -32002)
        #expect(try h.errorCode("sheet.set_detent", ["presented": "nobody", "detent": "large"]) == -32001)
    }

    @Test("a popover over the protocol, adapting to a sheet across a resize; the size transition's events")
    func popoverAndResize() throws {
        let h = try Harness()
        try h.call("scene.create", ["id": "main", "size": ["w": 1024, "h": 768], "clock": "manual"])
        try h.call("vc.create", ["id": "main"])
        try h.call("vc.create", ["id": "m", "preferred_content_size": ["w": 200, "h": 300]])
        try h.call("scene.set_root", ["vc": "main"])
        try h.call("events.subscribe", ["types": ["lifecycle"]])
        try h.call("modal.present", ["presenting": "main", "presented": "m", "style": "popover", "animated": false,
                                     "popover": ["source_view": "main.view", "source_rect": ["x": 100, "y": 100, "w": 40, "h": 40]]])
        var vc = try h.result("vc.get", ["vc": "m"])
        #expect(vc?["popover"]?["arrow_direction"] == "up")
        #expect(vc?["popover"]?["frame"] == ["x": 20, "y": 153, "w": 200, "h": 300])
        let lines = try h.call("scene.resize", ["size": ["w": 390, "h": 844], "duration": 0.25])
        let sized = lines.filter { $0["params"]?["type"] == "vc.view_will_transition_to_size" }
        #expect(sized.map { $0["params"]?["vc"] } == ["main", "m"])
        #expect(sized.first?["params"]?["size"] == ["w": 390, "h": 844] && sized.first?["params"]?["duration"] == 0.25)
        #expect(try h.errorCode("scene.resize", ["size": ["w": 1024, "h": 768]]) == -32002)
        #expect(try h.errorCode("scene.resize", ["size": ["w": 1024, "h": 768], "duration": -1]) == -32602)
        vc = try h.result("vc.get", ["vc": "m"])
        #expect(vc?["adaptive_style"] == "pageSheet" && vc?["presentation_style"] == "popover")
        try h.call("clock.advance", ["ms": 300])
        #expect(try h.result("scene.resize", ["size": ["w": 1024, "h": 768]]) != nil)
        #expect(try h.result("vc.get", ["vc": "m"])?["adaptive_style"] == nil)  // back to its own style
    }
}
