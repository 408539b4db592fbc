import Foundation
import SegueClient
import SegueJSON
import Testing

/// The code of the JSON-RPC error a call answers with, or nil when it succeeds.
func rpcErrorCode(_ client: SegueClient, _ method: String, _ params: JSONObject) -> (code: Int, param: String?)? {
    do {
        _ = try client.call(method, params)
        return nil
    } catch {
        if case .rpc(let code, _, let data) = error { return (code, data?["param"]?.stringValue) }
        return (0, nil)
    }
}

/// A manual scene whose root is custom container c (a, b; a selected) and a loose view controller m.
func setUpModal(_ client: SegueClient, size: JSONValue = ["w": 320, "h": 480]) throws {
    _ = try client.call("scene.create", ["size": size, "clock": "manual"])
    _ = try client.call("events.subscribe", ["types": ["lifecycle", "transition", "plugin"]])
    _ = try client.call("vc.create", ["id": "a", "color": "#ff0000"])
    _ = try client.call("vc.create", ["id": "b", "color": "#0000ff"])
    _ = try client.call("vc.create", ["id": "m", "color": "#00ff00"])
    _ = try client.call("container.create", ["id": "c", "kind": "custom", "children": ["a", "b"]])
    _ = try client.call("scene.set_root", ["vc": "c"])
    _ = client.takeEvents()
}

/// "type vc" for the lifecycle events among `events`.
func lifecycle(_ events: [JSONValue]) -> [String] {
    events.compactMap { e in
        guard let type = e["type"]?.stringValue, type.hasPrefix("vc.") else { return nil }
        var line = "\(type.dropFirst(3)) \(e["vc"]?.stringValue ?? "?")"
        if let parent = e["parent"] { line += "(\(parent.stringValue ?? "nil"))" }
        return line
    }
}

func frame(_ tree: JSONValue, _ id: String) -> JSONValue? { findView(tree["views"], id)?["frame"] }
func presentationAlpha(_ tree: JSONValue, _ id: String) -> Double? {
    findView(tree["views"], id)?["presentation"]?["alpha"]?.doubleValue
}

@Suite("Modal presentation and interactive transitions through the daemon", .serialized)
struct ModalInteractiveTests {
    @Test("bounce-present: fullScreen from inside a container; the view comes up from below on a spring; the presenter leaves")
    func bouncePresent() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpModal(client)
        let start = try client.call("modal.present", ["presenting": "a", "presented": "m", "animator": "bounce-present"])
        #expect(start["duration"] == 0.8)
        _ = try client.call("clock.advance", ["ms": 100])
        let mid = try client.call("scene.tree", ["presentation": true])
        let y = findView(mid["views"], "m.view")?["presentation"]?["frame"]?["y"]?.doubleValue ?? -1
        #expect(y > 0 && y < 480)
        // The spring (damping 0.6) overshoots: somewhere the view goes above its final y = 0.
        var overshoot = false
        for _ in 0..<40 {
            let t = try client.call("scene.tree", ["presentation": true])
            if (findView(t["views"], "m.view")?["presentation"]?["frame"]?["y"]?.doubleValue ?? 0) < -0.5 { overshoot = true }
            _ = try client.call("clock.advance", ["ms": 20])
        }
        #expect(overshoot)
        let tree = try client.call("scene.tree", ["presentation": true])
        #expect(frame(tree, "m.view") == ["x": 0, "y": 0, "w": 320, "h": 480])
        #expect(subviewIDs(tree["views"]) == ["m.presentation"])  // fullScreen: the presenter's view left
        #expect(tree["controllers"]?["presented"]?["id"] == "m")
        let m = try client.call("vc.get", ["vc": "m"])
        // As in UIKit, the presenting view controller is the presentation context: the root, not the child.
        #expect(m["presenting"] == "c" && m["appearance"] == "appeared" && m["presentation_style"] == "fullScreen")
        #expect(try client.call("vc.get", ["vc": "c"])["presented"] == "m")
        #expect(lifecycle(client.takeEvents()) == [
            "view_will_disappear c", "view_will_disappear a", "view_will_appear m",
            "view_did_disappear c", "view_did_disappear a", "view_did_appear m",
        ])
        // Dismissed with the default animator: the presenter comes back where it was.
        _ = try client.call("modal.dismiss", ["presented": "m"])
        _ = try client.call("clock.advance", ["ms": 1100])
        let after = try client.call("scene.tree", ["presentation": true])
        #expect(subviewIDs(after["views"]) == ["c.view"])
        #expect(frame(after, "c.view") == ["x": 0, "y": 0, "w": 320, "h": 480])
        #expect(try client.call("vc.get", ["vc": "m"])["presenting"] == nil)
        #expect(try client.call("vc.get", ["vc": "a"])["appearance"] == "appeared")
    }

    @Test("side-panel: a third of the width on the right, dimming faded alongside, relayout on resize (after the transition)")
    func sidePanel() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpModal(client)
        _ = try client.call("modal.present", [
            "presenting": "c", "presented": "m", "presentation": "side-panel", "animator": "side-panel-slide",
        ])
        _ = try client.call("clock.advance", ["ms": 250])
        let mid = try client.call("scene.tree", ["presentation": true])
        let container = findView(mid["views"], "m.presentation")
        let dimmingID = subviewIDs(container).first ?? ""
        let dimAlpha = presentationAlpha(mid, dimmingID) ?? -1
        #expect(dimAlpha > 0.2 && dimAlpha < 0.8)
        let x = findView(mid["views"], "m.view")?["presentation"]?["frame"]?["x"]?.doubleValue ?? 0
        #expect(x > 214 && x < 320)
        // A resize in the middle of the presentation waits for it (issue 28: a size transition does not overlap a
        // transition, -32002); after it the dimming view follows the container.
        #expect(rpcErrorCode(client, "scene.resize", ["size": ["w": 600, "h": 480]])?.code == -32002)
        _ = try client.call("clock.advance", ["ms": 300])
        _ = try client.call("scene.resize", ["size": ["w": 600, "h": 480]])
        let tree = try client.call("scene.tree", ["presentation": true])
        #expect(frame(tree, "m.view") == ["x": 400, "y": 0, "w": 200, "h": 480])
        #expect(frame(tree, dimmingID) == ["x": 0, "y": 0, "w": 600, "h": 480])
        #expect(presentationAlpha(tree, dimmingID) == 1)
        #expect(subviewIDs(tree["views"]) == ["c.view", "m.presentation"])  // custom: the presenter stays
        let events = client.takeEvents()
        // No disappear calls for c; the resize's size transition reaches c, its visible child a and m.
        #expect(lifecycle(events) == ["view_will_appear m", "view_did_appear m", "view_will_transition_to_size c",
                                      "view_will_transition_to_size a", "view_will_transition_to_size m"])
        _ = try client.call("scene.resize", ["size": ["w": 300, "h": 500]])
        let resized = try client.call("scene.tree", ["presentation": true])
        #expect(frame(resized, "m.view") == ["x": 200, "y": 0, "w": 100, "h": 500])
        #expect(frame(resized, dimmingID) == ["x": 0, "y": 0, "w": 300, "h": 500])

        _ = try client.call("modal.dismiss", ["presented": "m", "animator": "side-panel-slide"])
        _ = try client.call("clock.advance", ["ms": 250])
        let fading = try client.call("scene.tree", ["presentation": true])
        let fade = presentationAlpha(fading, dimmingID) ?? -1
        #expect(fade > 0.2 && fade < 0.8)
        _ = try client.call("clock.advance", ["ms": 300])
        let gone = try client.call("scene.tree", ["presentation": true])
        #expect(subviewIDs(gone["views"]) == ["c.view"])
        #expect(lifecycle(client.takeEvents()) == ["view_will_transition_to_size c", "view_will_transition_to_size a",
                                                   "view_will_transition_to_size m", "view_will_disappear m",
                                                   "view_did_disappear m"])
    }

    @Test("swipe-up: a gesture-driven dismissal completes past 0.5 and cancels under it, tree restored exactly")
    func swipeUp() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpModal(client)
        _ = try client.call("modal.present", ["presenting": "a", "presented": "m", "animator": "bounce-present"])
        _ = try client.call("clock.advance", ["ms": 900])
        let presented = try client.call("scene.tree", ["presentation": true])
        _ = client.takeEvents()

        let dismissal: JSONObject = [
            "method": "modal.dismiss", "params": ["presented": "m", "animator": "normal-dismiss", "interactive": "swipe-up"],
        ]
        // Under half-way: cancelled.
        let began = try client.call("gesture.pan", ["phase": "began", "translation": ["x": 0, "y": 0], "start": .object(dismissal)])
        let t1 = try #require(began["transition"])
        #expect(began["state"] == "interactive")
        let changed = try client.call("gesture.pan", ["transition": t1, "phase": "changed", "translation": ["x": 0, "y": 120]])
        #expect(changed["percent"] == 0.3)
        let mid = try client.call("scene.tree", ["presentation": true])
        #expect(findView(mid["views"], "m.view")?["presentation"]?["frame"]?["y"]?.doubleValue.map { abs($0 - 144) < 1e-6 } == true)
        let ended = try client.call("gesture.pan", ["transition": t1, "phase": "ended", "translation": ["x": 0, "y": 120]])
        #expect(ended["state"] == "cancelling")
        _ = try client.call("clock.advance", ["ms": 500])
        #expect(try client.call("transition.get", ["transition": t1])["state"] == "cancelled")
        #expect(try client.call("scene.tree", ["presentation": true]) == presented)
        let cancelEvents = client.takeEvents()
        let types = cancelEvents.compactMap { $0["type"]?.stringValue }
        #expect(types.contains("transition.updated") && types.contains("transition.interaction_ended"))
        #expect(lifecycle(cancelEvents) == [
            "view_will_disappear m", "view_will_appear c", "view_will_appear a",
            "view_will_disappear c", "view_will_disappear a", "view_did_disappear c", "view_did_disappear a",
            "view_will_appear m", "view_did_appear m",
        ])
        #expect(try client.call("vc.get", ["vc": "m"])["presenting"] == "c")

        // Past half-way: finished (completion speed 1 − 0.7 = 0.3: the remaining 0.3 takes 0.4 s).
        let again = try client.call("gesture.pan", ["phase": "began", "start": .object(dismissal)])
        let t2 = try #require(again["transition"])
        _ = try client.call("gesture.pan", ["transition": t2, "phase": "changed", "translation": ["x": 0, "y": 280]])
        _ = try client.call("gesture.pan", ["transition": t2, "phase": "ended", "translation": ["x": 0, "y": 280]])
        #expect(try client.call("transition.get", ["transition": t2])["state"] == "finishing")
        _ = try client.call("clock.advance", ["ms": 300])
        #expect(try client.call("transition.get", ["transition": t2])["state"] == "finishing")
        _ = try client.call("clock.advance", ["ms": 150])
        #expect(try client.call("transition.get", ["transition": t2])["state"] == "completed")
        let after = try client.call("scene.tree", ["presentation": true])
        #expect(subviewIDs(after["views"]) == ["c.view"])
        #expect(try client.call("vc.get", ["vc": "m"])["appearance"] == "disappeared")
    }

    @Test("overlay-present / overlay-dismiss with overFullScreen: inset frame, presenter stays, delayed fade ends it")
    func overlay() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpModal(client)
        _ = try client.call("modal.present", [
            "presenting": "c", "presented": "m", "style": "overFullScreen", "animator": "overlay-present",
        ])
        _ = try client.call("clock.advance", ["ms": 600])
        let tree = try client.call("scene.tree", ["presentation": true])
        #expect(frame(tree, "m.view") == ["x": 40, "y": 40, "w": 240, "h": 240])
        #expect(subviewIDs(tree["views"]) == ["c.view", "m.presentation"])
        #expect(try client.call("vc.get", ["vc": "c"])["appearance"] == "appeared")
        let t = try client.call("modal.dismiss", ["presented": "m", "animator": "overlay-dismiss"])
        _ = try client.call("clock.advance", ["ms": 100])
        let early = try client.call("scene.tree", ["presentation": true])
        #expect(presentationAlpha(early, "m.view") == 1)  // the fade waits a quarter of the duration
        let scale = findView(early["views"], "m.view")?["presentation"]?["transform"]?["a"]?.doubleValue ?? 1
        #expect(scale < 1)
        _ = try client.call("clock.advance", ["ms": 420])
        #expect(try client.call("transition.get", ["transition": t["transition"] ?? .null])["state"] == "completed")
        #expect(subviewIDs(try client.call("scene.tree")["views"]) == ["c.view"])
    }

    @Test("transition.update/finish/cancel/pause over the socket, and their errors")
    func interactiveMethods() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpModal(client)
        let before = try client.call("scene.tree", ["presentation": true])
        let t = try #require(try client.call("container.select", ["container": "c", "index": 1, "interactive": true,
                                                                   "animator": "cross-dissolve"])["transition"])
        let began = client.takeEvents().first { $0["type"] == "transition.began" }
        #expect(began?["interactive"] == true)
        #expect(try client.call("transition.update", ["transition": t, "percent": 0.3])["percent"] == 0.3)
        #expect(try client.call("transition.get", ["transition": t])["state"] == "interactive")
        #expect(rpcErrorCode(client, "transition.update", ["transition": t, "percent": 1.5])?.param == "percent")
        #expect(rpcErrorCode(client, "transition.finish", ["transition": t, "speed": 0])?.param == "speed")
        #expect(rpcErrorCode(client, "transition.finish", ["transition": t, "curve": "bouncy"])?.param == "curve")
        #expect(rpcErrorCode(client, "transition.update", ["transition": "t-99", "percent": 0.5])?.code == -32001)
        #expect(try client.call("transition.cancel", ["transition": t, "speed": 2])["state"] == "cancelling")
        #expect(rpcErrorCode(client, "transition.update", ["transition": t, "percent": 0.5])?.code == -32002)
        _ = try client.call("clock.advance", ["ms": 200])
        #expect(try client.call("transition.get", ["transition": t])["state"] == "cancelled")
        #expect(try client.call("scene.tree", ["presentation": true]) == before)

        let t2 = try #require(try client.call("container.select", ["container": "c", "index": 1, "animator": "cross-dissolve"])["transition"])
        _ = try client.call("clock.advance", ["ms": 100])
        let paused = try client.call("transition.pause", ["transition": t2])
        #expect(paused["state"] == "interactive" && paused["percent"] == 0.2)
        _ = try client.call("transition.update", ["transition": t2, "percent": 0.8])
        _ = try client.call("transition.finish", ["transition": t2, "curve": "linear"])
        _ = try client.call("clock.advance", ["ms": 120])
        #expect(try client.call("transition.get", ["transition": t2])["state"] == "completed")
        #expect(try client.call("container.get", ["container": "c"])["selected"] == 1)

        // An interaction plugin that does not exist, and a gesture for a transition without one.
        #expect(rpcErrorCode(client, "container.select", ["container": "c", "index": 0, "interactive": "nope"])?.code == -32001)
        #expect(rpcErrorCode(client, "container.select", ["container": "c", "index": 0, "interactive": 3])?.param == "interactive")
        let t3 = try #require(try client.call("container.select", ["container": "c", "index": 0, "interactive": true])["transition"])
        #expect(rpcErrorCode(client, "gesture.pan", ["transition": t3, "phase": "changed"])?.code == -32002)
        #expect(rpcErrorCode(client, "gesture.pan", ["phase": "began"])?.param == "transition")
        #expect(rpcErrorCode(client, "gesture.pan", ["transition": t3, "phase": "wiggle"])?.param == "phase")
    }

    @Test("modal errors: not on screen, already presenting, not presented, a plugin with the wrong style")
    func modalErrors() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpModal(client)
        _ = try client.call("vc.create", ["id": "n"])
        #expect(rpcErrorCode(client, "modal.present", ["presenting": "b", "presented": "m"])?.code == -32002)  // b is off screen
        #expect(rpcErrorCode(client, "modal.dismiss", ["presented": "m"])?.code == -32002)
        #expect(rpcErrorCode(client, "modal.present", ["presenting": "a", "presented": "m", "style": "sheet"])?.param == "style")
        #expect(rpcErrorCode(client, "modal.present", ["presenting": "a", "presented": "m", "presentation": "side-panel",
                                                        "style": "fullScreen"])?.param == "presentation")
        #expect(rpcErrorCode(client, "modal.present", ["presenting": "a", "presented": "m", "presentation": "nope"])?.code == -32001)
        #expect(rpcErrorCode(client, "modal.present", ["presenting": "a", "presented": "a"])?.param == "presented")
        _ = try client.call("modal.present", ["presenting": "a", "presented": "m", "animated": false])
        #expect(rpcErrorCode(client, "modal.present", ["presenting": "a", "presented": "n"])?.code == -32002)
        #expect(rpcErrorCode(client, "vc.destroy", ["vc": "m"])?.code == -32002)
        // Presenting on top of a presented view controller, then dismissing the stack from the bottom.
        _ = try client.call("modal.present", ["presenting": "m", "presented": "n", "animated": false])
        let tree = try client.call("scene.tree")
        #expect(tree["controllers"]?["presented"]?["presented"]?["id"] == "n")
        _ = client.takeEvents()
        _ = try client.call("modal.dismiss", ["presented": "m", "animated": false])
        let after = try client.call("scene.tree")
        #expect(subviewIDs(after["views"]) == ["c.view"])
        #expect(after["controllers"]?["presented"] == nil)
        #expect(try client.call("vc.get", ["vc": "n"])["presenting"] == nil)
        #expect(lifecycle(client.takeEvents()) == [
            "view_will_disappear n", "view_will_disappear m", "view_will_appear c", "view_will_appear a",
            "view_did_disappear n", "view_did_disappear m", "view_did_appear c", "view_did_appear a",
        ])
    }
}
