import Foundation
import Testing
import SegueJSON

@testable import SegueDaemon

/// gesture.pan/pinch/rotate samples checked as UIKit's recognizers report them, gesture-first interaction's
/// refusals, and `info` on transition-starting requests — over the server's own connection code on a socket pair.
@Suite("gesture samples, gesture-first and info")
struct GestureSampleTests {
    /// A select of `tabs` driven by swipe-up, begun by the gesture itself.
    func startSelect(_ h: Harness) throws -> String {
        let start: JSONValue = [
            "method": "container.select", "params": ["container": "tabs", "index": 1, "interactive": "swipe-up"],
        ]
        let began = try #require(try h.result("gesture.pan", ["phase": "began", "start": start]))
        return try #require(began["transition"]?.stringValue)
    }

    func error(_ h: Harness, _ method: String, _ params: JSONValue) throws -> (code: Int?, param: String?, limit: JSONValue?) {
        let e = try h.call(method, params).last?["error"]
        return (e?["code"]?.intValue, e?["data"]?["param"]?.stringValue, e?["data"]?["limit"])
    }

    /// (method, the sample's fields, the field an error must name).
    static let badSampleCases: [(String, String, String)] = [
        ("gesture.pinch", #"{"scale":0}"#, "scale"),
        ("gesture.pinch", #"{"scale":-0.5}"#, "scale"),
        ("gesture.pinch", #"{"scale":"big"}"#, "scale"),
        ("gesture.pinch", #"{"velocity":{"x":1,"y":2}}"#, "velocity"),
        ("gesture.pinch", #"{"scale":1e300}"#, "scale"),
        ("gesture.rotate", #"{"rotation":1e300}"#, "rotation"),
        ("gesture.rotate", #"{"velocity":"fast"}"#, "velocity"),
        ("gesture.pan", #"{"velocity":3}"#, "velocity"),
        ("gesture.pan", #"{"location":{"x":1e300,"y":0}}"#, "location"),
        ("gesture.pinch", #"{"location":"middle"}"#, "location"),
    ]

    @Test("a pinch's scale must be > 0; every sample number must be finite; a pinch's velocity is a number",
          arguments: GestureSampleTests.badSampleCases)
    func badSamples(method: String, sample: String, field: String) throws {
        let h = try Harness()
        try h.setUpScene()
        let t = try startSelect(h)
        var params = try JSONParser.parse(sample).objectValue ?? [:]
        params["transition"] = .string(t)
        params["phase"] = "changed"
        let e = try error(h, method, .object(params))
        #expect(e.code == -32602 && e.param == field)
        // Nothing changed: the transition is still at 0.
        #expect(try h.result("transition.get", ["transition": .string(t)])?["percent"] == 0)
    }

    @Test("phases out of order are invalid_params naming phase: a second began, anything after ended, another kind")
    func phasesOutOfOrder() throws {
        let h = try Harness()
        try h.setUpScene()
        let t = JSONValue.string(try startSelect(h))
        #expect(try error(h, "gesture.pan", ["transition": t, "phase": "began"]).param == "phase")
        #expect(try error(h, "gesture.pinch", ["transition": t, "phase": "changed", "scale": 0.5]).param == "phase")
        let changed = try #require(try h.result("gesture.pan", ["transition": t, "phase": "changed", "translation": ["x": 0, "y": 120]]))
        #expect(changed["percent"] == 0.3)
        _ = try h.result("gesture.pan", ["transition": t, "phase": "ended", "translation": ["x": 0, "y": 120]])
        for phase in ["changed", "ended", "cancelled", "began"] {
            let e = try error(h, "gesture.pan", ["transition": t, "phase": .string(phase)])
            #expect(e.code == -32602 && e.param == "phase")
        }
    }

    @Test("gesture-first: an unknown plugin is not_found, a plugin without gesture_began invalid_state, both with param interaction")
    func gestureFirstErrors() throws {
        let h = try Harness()
        try h.setUpScene()
        var e = try error(h, "gesture.pan", ["phase": "began", "interaction": "nope"])
        #expect(e.code == -32001 && e.param == "interaction")
        e = try error(h, "gesture.pan", ["phase": "began", "interaction": "swipe-up"])
        #expect(e.code == -32002 && e.param == "interaction")
        e = try error(h, "gesture.pan", ["phase": "changed", "interaction": "ce-horizontal-swipe"])
        #expect(e.code == -32602 && e.param == "interaction")
        e = try error(h, "gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe", "transition": "t-1"])
        #expect(e.code == -32602)
        #expect(try h.result("transition.list") == [])
    }

    @Test("gesture-first: a refusal answers {transition: null, refused: true} and nothing starts, with no events")
    func refusedStartsNothing() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("events.subscribe", ["types": ["*"]])
        // tabs has a selected at 0: a left-to-right swipe (+x velocity) asks for index −1, which does not exist.
        let lines = try h.call("gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe",
                                               "velocity": ["x": 300, "y": 0]])
        #expect(lines.count == 1)
        #expect(lines.last?["result"] == ["transition": .null, "refused": true])
        #expect(try h.result("transition.list") == [])
        #expect(try h.result("container.get", ["container": "tabs"])?["selected"] == 0)
    }

    @Test("gesture-first: the plugin's choice starts interactively with it, and later samples drive it")
    func startsChosen() throws {
        let h = try Harness()
        try h.setUpScene()
        let began = try #require(try h.result("gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe",
                                                               "velocity": ["x": -300, "y": 0], "info": ["tapped": "b"]]))
        let t = try #require(began["transition"]?.stringValue)
        #expect(began["state"] == "interactive")
        let got = try #require(try h.result("transition.get", ["transition": .string(t)]))
        #expect(got["kind"] == "select" && got["to"] == "b" && got["interaction"] == "ce-horizontal-swipe")
        #expect(got["info"] == ["tapped": "b"])
        let changed = try #require(try h.result("gesture.pan", ["transition": .string(t), "phase": "changed",
                                                                 "translation": ["x": -100, "y": 0]]))
        #expect(changed["percent"] == 0.5)
    }

    @Test("info must be an object (-32602) of at most 16 KiB encoded (-32004, data.limit info_bytes); nothing starts")
    func infoLimits() throws {
        let h = try Harness(maxLineBytes: 64 * 1024)
        try h.setUpScene()
        for bad: JSONValue in [[1, 2], "text", 3, true] {
            let e = try error(h, "container.select", ["container": "tabs", "index": 1, "info": bad])
            #expect(e.code == -32602 && e.param == "info")
        }
        let big = String(repeating: "x", count: 16 * 1024)
        let e = try error(h, "container.select", ["container": "tabs", "index": 1, "info": ["blob": .string(big)]])
        #expect(e.code == -32004 && e.limit == "info_bytes")
        #expect(try h.result("transition.list") == [])
        // Just under the limit: accepted, and shown whole by transition.get.
        let fits = String(repeating: "y", count: 16 * 1024 - 12)
        let start = try #require(try h.result("container.select", ["container": "tabs", "index": 1, "animated": false,
                                                                   "info": ["blob": .string(fits)]]))
        let got = try h.result("transition.get", ["transition": start["transition"] ?? .null])
        #expect(got?["info"]?["blob"]?.stringValue?.count == fits.count)
    }

    @Test("info rides on modal.present and nav.push too, and a transition without one shows none")
    func infoOnOtherStarters() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("vc.create", ["id": "m"])
        let present = try #require(try h.result("modal.present", ["presenting": "tabs", "presented": "m",
                                                                  "info": ["rect": ["x": 1, "y": 2, "w": 3, "h": 4]]]))
        let got = try h.result("transition.get", ["transition": present["transition"] ?? .null])
        #expect(got?["info"] == ["rect": ["x": 1, "y": 2, "w": 3, "h": 4]])
        try h.call("clock.advance", ["ms": 2000])
        let plain = try #require(try h.result("modal.dismiss", ["presented": "m"]))
        #expect(try h.result("transition.get", ["transition": plain["transition"] ?? .null])?["info"] == nil)
    }
}
