import Testing
@testable import SegueDaemon
import SegueJSON

/// gesture.pan with `edge`: the edge-swipe pop without a plugin, on the real connection code.
@Suite("gesture.pan edge")
struct EdgePopMethodTests {
    /// Scene "main" with a navigation controller "nav" at the root holding n1 and n2 (n2 on top).
    static func harness() throws -> Harness {
        let h = try Harness()
        try h.call("scene.create", ["id": "main", "size": ["w": 320, "h": 480], "clock": "manual"])
        try h.call("vc.create", ["id": "n1"])
        try h.call("vc.create", ["id": "n2"])
        try h.call("container.create", ["id": "nav", "kind": "navigation", "root": "n1"])
        try h.call("scene.set_root", ["vc": "nav"])
        try h.call("nav.push", ["container": "nav", "vc": "n2", "animated": false])
        return h
    }

    @Test("began pops the frontmost navigation controller interactively; ended past half finishes it")
    func popsAndFinishes() throws {
        let h = try Self.harness()
        let began = try h.result("gesture.pan", ["edge": "left", "phase": "began"])
        #expect(began?["state"] == "interactive" && began?["percent"] == 0)
        let id = try #require(began?["transition"]?.stringValue)
        let info = try h.result("transition.get", ["transition": .string(id)])
        #expect(info?["kind"] == "pop" && info?["animator"] == "navigation-slide" && info?["interactive"] == true)
        #expect(info?["interaction"] == nil)
        let moved = try h.result("gesture.pan", ["edge": "left", "phase": "changed", "translation": ["x": 96, "y": 3]])
        #expect(moved?["percent"] == 0.3 && moved?["transition"] == .string(id))
        let ended = try h.result("gesture.pan", ["edge": "left", "container": "nav", "phase": "ended",
                                                 "translation": ["x": 180, "y": 0], "velocity": ["x": 10, "y": 0]])
        #expect(ended?["state"] == "finishing")
        try h.call("clock.advance", ["ms": 1000])
        #expect(try h.result("container.get", ["container": "nav"])?["stack"] == ["n1"])
    }

    @Test("a slow release under half cancels; a fast one finishes")
    func releaseRule() throws {
        let h = try Self.harness()
        try h.call("gesture.pan", ["edge": "left", "phase": "began"])
        let slow = try h.result("gesture.pan", ["edge": "left", "phase": "ended", "translation": ["x": 100, "y": 0],
                                                "velocity": ["x": 400, "y": 0]])
        #expect(slow?["state"] == "cancelling")
        try h.call("clock.advance", ["ms": 1000])
        #expect(try h.result("container.get", ["container": "nav"])?["stack"] == ["n1", "n2"])
        try h.call("gesture.pan", ["edge": "left", "phase": "began"])
        let fast = try h.result("gesture.pan", ["edge": "left", "phase": "ended", "translation": ["x": 100, "y": 0],
                                                "velocity": ["x": 800, "y": 0]])
        #expect(fast?["state"] == "finishing")
    }

    @Test("refusals are -32002 with nothing started; bad samples are -32602 naming the field")
    func badInput() throws {
        let h = try Self.harness()
        let before = try h.result("transition.list")?.arrayValue?.count
        let bad: [(JSONValue, String)] = [
            (["edge": "right", "phase": "began"], "edge"),
            (["edge": 1, "phase": "began"], "edge"),
            (["edge": "left"], "phase"),
            (["edge": "left", "phase": "began", "translation": ["x": "a", "y": 0]], "translation"),
            (["edge": "left", "phase": "began", "velocity": 5], "velocity"),
            (["edge": "left", "phase": "began", "transition": "t-1"], "transition"),
            (["edge": "left", "phase": "began", "start": ["method": "nav.pop"]], "start"),
            (["edge": "left", "phase": "began", "interaction": "x"], "interaction"),
            (["edge": "left", "phase": "began", "container": "n1"], "container"),
            (["edge": "left", "phase": "began", "bogus": 1], "bogus"),
        ]
        for (params, param) in bad {
            let error = try h.call("gesture.pan", params).last?["error"]
            #expect(error?["code"] == -32602, "\(params.serialized())")
            #expect(error?["data"]?["param"] == .string(param), "\(params.serialized())")
        }
        #expect(try h.errorCode("gesture.pan", ["edge": "left", "phase": "began", "container": "nope"]) == -32001)
        #expect(try h.errorCode("gesture.pan", ["edge": "left", "phase": "changed"]) == -32002, "no edge pop under way")
        #expect(try h.result("transition.list")?.arrayValue?.count == before, "nothing started")
        // A running transition refuses the swipe.
        try h.call("vc.create", ["id": "n3"])
        try h.call("nav.push", ["container": "nav", "vc": "n3"])
        #expect(try h.errorCode("gesture.pan", ["edge": "left", "phase": "began"]) == -32002)
        try h.call("clock.advance", ["ms": 1000])
        try h.call("nav.pop_to_root", ["container": "nav", "animated": false])
        #expect(try h.errorCode("gesture.pan", ["edge": "left", "phase": "began"]) == -32002, "a stack of one")
        #expect(try h.result("transition.list", ["active": true])?.arrayValue?.isEmpty == true)
        // Phases out of order: after ended.
        try h.call("nav.push", ["container": "nav", "vc": "n2", "animated": false])
        try h.call("gesture.pan", ["edge": "left", "phase": "began"])
        try h.call("gesture.pan", ["edge": "left", "phase": "ended", "translation": ["x": 300, "y": 0]])
        let late = try h.call("gesture.pan", ["edge": "left", "phase": "changed"]).last?["error"]
        #expect(late?["code"] == -32602 && late?["data"]?["param"] == "phase")
    }
}
