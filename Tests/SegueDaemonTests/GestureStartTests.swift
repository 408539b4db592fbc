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
}
