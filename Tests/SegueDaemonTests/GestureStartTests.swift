import Testing
import SegueJSON

@testable import SegueDaemon

/// gesture.pan `began` with `start` runs a transition-starting method and drives the transition it started: the
/// method's typed result (`MethodResult.started`) is read as the transition itself, and a start that started
/// nothing is refused.
@Suite("gesture.pan start")
struct GestureStartTests {
    @Test("a start that starts a transition drives it: the pan's transition is the one the select started")
    func startsAndDrives() throws {
        let h = try Harness()
        try h.setUpScene()
        let start: JSONValue = [
            "method": "container.select", "params": ["container": "tabs", "index": 1, "interactive": "swipe-up"],
        ]
        let began = try #require(try h.result("gesture.pan", ["phase": "began", "start": start]))
        let id = try #require(began["transition"]?.stringValue)
        #expect(began["state"] == "interactive")
        let listed = try #require(try h.result("transition.get", ["transition": .string(id)]))
        #expect(listed["kind"] == "select" && listed["to"] == "b" && listed["interactive"] == true)
    }

    @Test("a start with nothing to do (the child already selected) is invalid_state, and nothing changes")
    func nothingToDo() throws {
        let h = try Harness()
        try h.setUpScene()
        let start: JSONValue = [
            "method": "container.select", "params": ["container": "tabs", "index": 0, "interactive": "swipe-up"],
        ]
        let response = try #require(try h.call("gesture.pan", ["phase": "began", "start": start]).last)
        #expect(response["error"]?["code"] == -32002)
        #expect(response["error"]?["message"]?.stringValue?.contains("did not start a transition") == true)
        #expect(try h.result("transition.list") == [])
    }

    /// Scene `other` with the same tabs as `main`, so that a start naming it would succeed if it were let through.
    func setUpTwoScenes(_ h: Harness) throws {
        try h.setUpScene()
        try h.call("scene.create", ["id": "other", "size": ["w": 320, "h": 480], "clock": "manual"])
        try h.call("vc.create", ["scene": "other", "id": "a", "color": "#ff0000"])
        try h.call("vc.create", ["scene": "other", "id": "b", "color": "#0000ff"])
        try h.call("container.create", ["scene": "other", "id": "tabs", "kind": "custom", "children": ["a", "b"]])
        try h.call("scene.set_root", ["scene": "other", "vc": "tabs"])
    }

    @Test("a start naming another scene is invalid_params on 'start', naming both scenes; neither scene changes",
          arguments: [
              (JSONValue.string("main"), JSONValue.string("other")),
              (JSONValue.string("other"), JSONValue.string("main")),
              (JSONValue.string("main"), JSONValue.string("nope")),
              (JSONValue.string("main"), JSONValue.number(5)),
              (JSONValue.string("main"), JSONValue.null),
              (JSONValue.string("main"), JSONValue.string("MAIN")),
          ])
    func foreignScene(gesture: JSONValue, named: JSONValue) throws {
        let h = try Harness()
        try setUpTwoScenes(h)
        let start: JSONValue = [
            "method": "container.select",
            "params": ["scene": named, "container": "tabs", "index": 1, "interactive": "swipe-up"],
        ]
        let response = try #require(try h.call("gesture.pan", ["scene": gesture, "phase": "began", "start": start]).last)
        #expect(response["error"]?["code"] == -32602)
        #expect(response["error"]?["data"]?["param"] == "start")
        let message = response["error"]?["message"]?.stringValue ?? ""
        #expect(message.contains(named.serialized()) && message.contains("'\(gesture.stringValue ?? "")'"))
        for scene in ["main", "other"] {
            #expect(try h.result("transition.list", ["scene": .string(scene)]) == [])
        }
    }

    @Test("a start naming the gesture's own scene, or none, is run as before")
    func ownScene() throws {
        for named: JSONValue? in [.string("other"), nil] {
            let h = try Harness()
            try setUpTwoScenes(h)
            var params: JSONObject = ["container": "tabs", "index": 1, "interactive": "swipe-up"]
            if let named { params["scene"] = named }
            let start: JSONValue = ["method": "container.select", "params": .object(params)]
            let began = try #require(try h.result("gesture.pan", ["scene": "other", "phase": "began", "start": start]))
            #expect(began["state"] == "interactive")
            #expect(try h.result("transition.list", ["scene": "main"]) == [])
            #expect(try h.result("transition.list", ["scene": "other"])?.arrayValue?.count == 1)
        }
    }
}
