import SegueJSON
import Testing

@testable import SegueDaemon
import SegueKit

@Suite("transition.wait and the container methods")
struct WaitAndContainerMethodTests {
    @Test("transition.wait is answered when the transition ends, after its events; requests after it go on")
    func waitAnsweredAtTheEnd() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("events.subscribe", ["types": ["transition"]])
        let start = try h.result("container.select", ["container": "tabs", "index": 1])
        let t = try #require(start?["transition"])
        // Nothing comes back for the wait yet…
        #expect(try h.call("transition.wait", ["transition": t], id: 7).isEmpty)
        // …while the next request is answered.
        #expect(try h.call("daemon.ping", id: 8).last?["result"] == "pong")
        // The clock moves on: the completed event, then the wait's answer, then the advance's response.
        let lines = try h.call("clock.advance", ["ms": 1100], id: 9)
        let kinds = lines.map { $0["id"].map { "response \($0.serialized())" } ?? ($0["params"]?["type"]?.stringValue ?? "?") }
        #expect(kinds == ["transition.completed", "response 7", "response 9"])
        #expect(lines[1]["result"] == ["ended": true, "state": "completed"])
        // Waiting on an ended transition answers at once; timeout_ms 0 polls.
        #expect(try h.result("transition.wait", ["transition": t]) == ["ended": true, "state": "completed"])
        let next = try h.result("container.select", ["container": "tabs", "index": 0])
        #expect(try h.result("transition.wait", ["transition": next?["transition"] ?? .null, "timeout_ms": 0])
            == ["ended": false, "state": "animating"])
        #expect(try h.errorCode("transition.wait", ["transition": "t-99"]) == -32001)
    }

    @Test("a batch holding a transition.wait is answered as one array once the transition has ended")
    func waitInBatch() throws {
        let h = try Harness()
        try h.setUpScene()
        let t = try #require(try h.result("container.select", ["container": "tabs", "index": 1])?["transition"]?.stringValue)
        let batch = #"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"},{"jsonrpc":"2.0","id":2,"method":"transition.wait","params":{"transition":"\#(t)"}}]"#
        #expect(try h.send(batch).isEmpty)
        let lines = try h.call("clock.advance", ["ms": 1100], id: 3)
        #expect(lines.count == 2)
        guard case .array(let members)? = lines.first else {
            Issue.record("expected the batch's array first: \(lines)")
            return
        }
        #expect(members.map { $0["id"] } == [1, 2])
        #expect(members[1]["result"]?["ended"] == true)
        #expect(lines[1]["id"] == 3)
    }

    @Test("a batch after a plain transition.wait is answered at once, and the wait's answer stays its own line")
    func batchAfterPlainWait() throws {
        let h = try Harness()
        try h.setUpScene()
        let t = try #require(try h.result("container.select", ["container": "tabs", "index": 1])?["transition"])
        #expect(try h.call("transition.wait", ["transition": t], id: 7).isEmpty)
        // The batch has no wait of its own: it must not take the pending one for its member.
        let answered = try h.send(#"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}]"#)
        #expect(answered.count == 1)
        guard case .array(let members)? = answered.first else {
            Issue.record("expected the batch's array at once: \(answered)")
            return
        }
        #expect(members.map { $0["id"] } == [1])
        let lines = try h.call("clock.advance", ["ms": 1100], id: 9)
        #expect(lines.map { $0["id"] } == [7, 9])
        #expect(lines.first?["result"]?["ended"] == true)
    }

    @Test("navigation, tab and paging containers over the protocol, with their container.get fields")
    func containerKinds() throws {
        let h = try Harness()
        try h.setUpScene()
        for id in ["n1", "n2", "n3"] { try h.call("vc.create", ["id": .string(id)]) }
        #expect(try h.result("container.create", ["id": "nav", "kind": "navigation", "root": "n1"])?["container"] == "nav")
        #expect(try h.result("nav.push", ["container": "nav", "vc": "n2", "animated": false])?["state"] == "completed")
        #expect(try h.result("container.get", ["container": "nav"])?["stack"] == ["n1", "n2"])
        #expect(try h.result("nav.set", ["container": "nav", "vcs": ["n1", "n3"], "animated": false]) != nil)
        #expect(try h.result("container.get", ["container": "nav"])?["stack"] == ["n1", "n3"])
        #expect(try h.result("nav.pop_to_root", ["container": "nav", "animated": false]) != nil)
        #expect(try h.errorCode("nav.pop", ["container": "nav"]) == -32002)  // only the root is left
        #expect(try h.errorCode("nav.push", ["container": "tabs", "vc": "n2"]) == -32602)  // not a navigation container
        #expect(try h.errorCode("container.select", ["container": "nav", "index": 0]) == -32602)
        let paging = try h.result("container.create", ["id": "p", "kind": "paging", "count": 5, "reuse": 2])
        #expect(paging?["container"] == "p")
        let get = try h.result("container.get", ["container": "p"])
        #expect(get?["count"] == 5 && get?["alive"]?.arrayValue?.count == 1 && get?["page_of"] != nil)
        #expect(try h.errorCode("container.create", ["kind": "paging", "count": 5, "reuse": 1]) == -32602)
        #expect(try h.errorCode("container.create", ["kind": "paging"]) == -32602)  // count is required
        #expect(try h.errorCode("container.create", ["kind": "custom", "count": 3]) == -32602)
        #expect(try h.errorCode("container.create", ["kind": "tab", "delegate": "nobody"]) == -32001)
        let badRule = try h.call("container.set_delegate", ["container": "tabs", "rules": [["when": ["kind": "fly"], "animator": "x"]]])
        #expect(badRule.last?["error"]?["data"]?["param"] == "rules")
        // An unknown kind or direction is refused with the values a rule may name.
        let kinds = TransitionKind.allCases.map(\.rawValue).joined(separator: ", ")
        #expect(badRule.last?["error"]?["message"]?.stringValue == "rules[0].when.kind must be one of \(kinds), got 'fly'")
        let badDirection = try h.call("container.set_delegate", ["container": "tabs", "rules": [["when": ["direction": "up"], "animator": "x"]]])
        #expect(badDirection.last?["error"]?["code"] == -32602)
        #expect(badDirection.last?["error"]?["message"]?.stringValue == "rules[0].when.direction must be one of forward, backward, got 'up'")
        // when_busy queue over the protocol: the queued id is returned and transition.get knows it.
        let first = try h.result("container.select", ["container": "tabs", "index": 1])
        #expect(first?["state"] == "animating")
        let queued = try h.result("container.select", ["container": "tabs", "index": 0, "when_busy": "queue"])
        #expect(queued?["state"] == "queued")
        #expect(try h.result("transition.get", ["transition": queued?["transition"] ?? .null])?["state"] == "queued")
        try h.call("clock.advance", ["ms": 1100])
        #expect(try h.result("transition.get", ["transition": queued?["transition"] ?? .null])?["state"] == "animating")
        // scene.resize (-32002 while a transition runs: a size transition does not overlap one) and vc.destroy.
        #expect(try h.errorCode("scene.resize", ["size": ["w": 100, "h": 200]]) == -32002)
        try h.call("clock.advance", ["ms": 1100])
        #expect(try h.result("scene.resize", ["size": ["w": 100, "h": 200]])?["size"] == ["w": 100, "h": 200])
        #expect(try h.errorCode("vc.destroy", ["vc": "a"]) == -32002)  // it is in a container
        try h.call("vc.create", ["id": "loose"])
        #expect(try h.result("vc.destroy", ["vc": "loose"])?["destroyed"] == true)
        #expect(try h.errorCode("vc.get", ["vc": "loose"]) == -32001)
    }
}
