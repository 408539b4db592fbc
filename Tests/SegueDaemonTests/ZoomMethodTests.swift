import Testing
import SegueJSON

@testable import SegueDaemon

/// `preferred_transition: {zoom: …}` over the server's own connection code: every bad input refused with nothing
/// changed, the documented fallbacks, and the interactive dismissal by drag, pinch and gesture-first.
@Suite("zoom transition over the protocol")
struct ZoomMethodTests {
    /// The harness scene (tabs of a and b on screen) and a view controller m to present; another scene "other"
    /// with a view controller x (its view is not in "main").
    static func harness() throws -> Harness {
        let h = try Harness()
        try h.setUpScene()
        try h.call("vc.create", ["id": "m", "color": "#00ff00"])
        try h.call("vc.create", ["id": "d", "color": "#00ffff"])
        return h
    }

    static let thumb: JSONValue = ["source_view": "a.view", "source_rect": ["x": 20, "y": 40, "w": 80, "h": 120]]

    func error(_ h: Harness, _ method: String, _ params: JSONValue) throws -> (code: Int?, param: String?) {
        let e = try h.call(method, params).last?["error"]
        return (e?["code"]?.intValue, e?["data"]?["param"]?.stringValue)
    }

    /// (preferred_transition, the code, the param named).
    static let badCases: [(JSONValue, Int, String)] = [
        ("zoom", -32602, "preferred_transition"),
        ([1], -32602, "preferred_transition"),
        ([:], -32602, "preferred_transition"),
        (["slide": [:]], -32602, "preferred_transition"),
        (["zoom": thumb, "fade": true], -32602, "preferred_transition"),
        (["zoom": "a.view"], -32602, "preferred_transition"),
        (["zoom": [:]], -32602, "preferred_transition"),
        (["zoom": ["source_view": 3]], -32602, "preferred_transition"),
        (["zoom": ["source_view": "a.view", "options": [:]]], -32602, "preferred_transition"),
        (["zoom": ["source_view": "a.view", "source_rect": ["x": 0, "y": 0, "w": -1, "h": 10]]], -32602, "preferred_transition"),
        (["zoom": ["source_view": "a.view", "source_rect": ["x": 0, "y": 0, "w": 10, "h": -0.5]]], -32602, "preferred_transition"),
        (["zoom": ["source_view": "a.view", "source_rect": ["x": 1e300, "y": 0, "w": 10, "h": 10]]], -32602, "preferred_transition"),
        (["zoom": ["source_view": "a.view", "source_rect": "all"]], -32602, "preferred_transition"),
        (["zoom": ["source_view": "a.view", "source_rect": ["x": 0, "y": 0, "w": 10]]], -32602, "preferred_transition"),
        (["zoom": ["source_view": "nope"]], -32001, "preferred_transition.zoom.source_view"),
        (["zoom": ["source_view": "x.view"]], -32001, "preferred_transition.zoom.source_view"),
    ]

    @Test("every bad preferred_transition on modal.present, nav.push and vc.set: the error names it; nothing changes",
          arguments: ZoomMethodTests.badCases)
    func badInput(value: JSONValue, code: Int, param: String) throws {
        let h = try Self.harness()
        try h.call("scene.create", ["id": "other", "size": ["w": 100, "h": 100], "clock": "manual"])
        try h.call("vc.create", ["scene": "other", "id": "x"])
        try h.call("scene.use", ["scene": "main"])
        try h.call("vc.create", ["id": "list"])
        try h.call("container.create", ["id": "n", "kind": "navigation", "children": ["list"]])
        try h.call("modal.present", ["presenting": "tabs", "presented": "n", "style": "overFullScreen", "animated": false])
        let before = try h.result("scene.tree")
        var e = try error(h, "modal.present", ["presenting": "tabs", "presented": "m", "style": "fullScreen",
                                               "preferred_transition": value])
        #expect(e.code == code && e.param == param, "modal.present")
        e = try error(h, "nav.push", ["container": "n", "vc": "d", "preferred_transition": value])
        #expect(e.code == code && e.param == param, "nav.push")
        e = try error(h, "vc.set", ["vc": "m", "title": "changed", "preferred_transition": value])
        #expect(e.code == code && e.param == param, "vc.set")
        #expect(try h.result("scene.tree") == before)
        #expect(try h.result("transition.list")?.arrayValue?.count == 1, "only the setup's present")
        for vc in ["m", "d"] {
            let got = try #require(try h.result("vc.get", ["vc": .string(vc)]))
            #expect(got["preferred_transition"] == nil && got["title"] == .null && got["parent"] == .null)
        }
    }

    @Test("a non-finite number in source_rect (1e400 parses to infinity) is -32602 naming preferred_transition")
    func nonFinite() throws {
        let h = try Self.harness()
        let lines = try h.send(#"{"jsonrpc":"2.0","id":1,"method":"modal.present","params":{"presenting":"tabs","presented":"m","preferred_transition":{"zoom":{"source_view":"a.view","source_rect":{"x":0,"y":1e400,"w":10,"h":10}}}}}"#)
        let e = lines.last?["error"]
        #expect(e?["code"] == -32602 || e?["code"] == -32700)
        if e?["code"] == -32602 { #expect(e?["data"]?["param"] == "preferred_transition") }
        #expect(try h.result("transition.list") == [])
    }

    @Test("zoom on a popover is -32602 naming preferred_transition (a popover animates from its own source)")
    func popoverRefused() throws {
        let h = try Self.harness()
        let e = try error(h, "modal.present", ["presenting": "tabs", "presented": "m", "style": "popover",
                                               "popover": ["source_view": "a.view"], "preferred_transition": ["zoom": Self.thumb]])
        #expect(e.code == -32602 && e.param == "preferred_transition")
        #expect(try h.result("transition.list") == [])
        #expect(try h.result("vc.get", ["vc": "m"])?["preferred_transition"] == nil)
        // Set on the view controller beforehand, a popover presentation simply does not zoom.
        try h.call("vc.set", ["vc": "m", "preferred_transition": ["zoom": Self.thumb]])
        let started = try #require(try h.result("modal.present", ["presenting": "tabs", "presented": "m", "style": "popover",
                                                                  "popover": ["source_view": "a.view"]]))
        #expect(started["animator"] != "zoom")
    }

    @Test("a source off the window at present is accepted: the view fades in (UIKit's fallback), the zoom animator runs")
    func sourceOffWindow() throws {
        let h = try Self.harness()
        let started = try #require(try h.result("modal.present", [
            "presenting": "tabs", "presented": "m", "style": "fullScreen",
            "preferred_transition": ["zoom": ["source_view": "b.view"]]]))
        #expect(started["animator"] == "zoom")
        try h.call("clock.advance", ["ms": 700])
        let t = try #require(started["transition"])
        #expect(try h.result("transition.get", ["transition": t])?["state"] == "completed")
    }

    /// m presented over-full-screen by a zoom from a's thumbnail, settled.
    func presentZoomed(_ h: Harness) throws {
        try h.call("modal.present", ["presenting": "tabs", "presented": "m", "style": "overFullScreen",
                                     "preferred_transition": ["zoom": Self.thumb]])
        try h.call("clock.advance", ["ms": 700])
    }

    @Test("modal.dismiss {interactive: true} driven by gesture.pan: follows, releases into the source, events in order")
    func dragDismiss() throws {
        let h = try Self.harness()
        try presentZoomed(h)
        try h.call("events.subscribe", ["types": ["transition"]])
        let started = try #require(try h.result("modal.dismiss", ["presented": "m", "interactive": true]))
        let t = try #require(started["transition"])
        #expect(started["state"] == "interactive" && started["animator"] == "zoom")
        let got = try #require(try h.result("transition.get", ["transition": t]))
        #expect(got["interaction"] == "zoom" && got["interactive"] == true)
        let changed = try #require(try h.result("gesture.pan", ["transition": t, "phase": "changed",
                                                                 "translation": ["x": 10, "y": 288], "location": ["x": 170, "y": 528]]))
        #expect(changed["percent"] == 0.6 && changed["state"] == "interactive")
        let lines = try h.call("gesture.pan", ["transition": t, "phase": "ended", "translation": ["x": 10, "y": 288],
                                               "velocity": ["x": 0, "y": 100], "location": ["x": 170, "y": 528]])
        #expect(lines.last?["result"]?["state"] == "finishing")
        #expect(lines.contains { $0["params"]?["type"] == "transition.interaction_ended" })
        try h.call("clock.advance", ["ms": 600])
        #expect(try h.result("transition.get", ["transition": t])?["state"] == "completed")
        #expect(try h.result("vc.get", ["vc": "m"])?["presenting"] == nil)
    }

    @Test("a pinch drives it too; released slow and under half-way it springs back and m stays presented")
    func pinchCancels() throws {
        let h = try Self.harness()
        try presentZoomed(h)
        let t = try #require(try h.result("modal.dismiss", ["presented": "m", "interactive": true])?["transition"])
        let changed = try #require(try h.result("gesture.pinch", ["transition": t, "phase": "changed", "scale": 0.75,
                                                                   "velocity": -0.2, "location": ["x": 160, "y": 240]]))
        #expect(changed["percent"] == 0.25)
        #expect(try h.result("gesture.pinch", ["transition": t, "phase": "ended", "scale": 0.75, "velocity": -0.2])?["state"] == "cancelling")
        try h.call("clock.advance", ["ms": 600])
        #expect(try h.result("transition.get", ["transition": t])?["state"] == "cancelled")
        #expect(try h.result("vc.get", ["vc": "m"])?["presenting"] == "tabs")
    }

    @Test("gesture-first: a downward began on the zoomed view starts its dismissal; upward is refused with nothing started")
    func gestureFirst() throws {
        let h = try Self.harness()
        try presentZoomed(h)
        try h.call("events.subscribe", ["types": ["transition"]])
        let refused = try h.call("gesture.pan", ["phase": "began", "velocity": ["x": 0, "y": -300]])
        #expect(refused.count == 1 && refused.last?["result"] == ["transition": .null, "refused": true])
        #expect(try h.result("transition.list", ["active": true]) == [])
        let began = try #require(try h.result("gesture.pan", ["phase": "began", "velocity": ["x": 0, "y": 300],
                                                               "location": ["x": 100, "y": 100]]))
        let t = try #require(began["transition"])
        #expect(began["state"] == "interactive")
        let got = try #require(try h.result("transition.get", ["transition": t]))
        #expect(got["kind"] == "dismiss" && got["interaction"] == "zoom" && got["from"] == "m")
        _ = try h.result("gesture.pan", ["transition": t, "phase": "ended", "translation": ["x": 0, "y": 40],
                                         "velocity": ["x": 0, "y": 900], "location": ["x": 100, "y": 140]])
        try h.call("clock.advance", ["ms": 600])
        #expect(try h.result("transition.get", ["transition": t])?["state"] == "completed")
        // Nothing zoomed any more: a bare began is the old error.
        let e = try error(h, "gesture.pan", ["phase": "began"])
        #expect(e.code == -32602 && e.param == "transition")
    }

    @Test("the source gone by dismissal: the dismissal still runs (a fade, UIKit's plain fallback) and completes")
    func sourceGoneAtDismissal() throws {
        let h = try Self.harness()
        try presentZoomed(h)
        try h.call("container.select", ["container": "tabs", "index": 1, "animated": false])
        let started = try #require(try h.result("modal.dismiss", ["presented": "m"]))
        #expect(started["animator"] == "zoom")
        try h.call("clock.advance", ["ms": 700])
        #expect(try h.result("transition.get", ["transition": try #require(started["transition"])])?["state"] == "completed")
    }
}
