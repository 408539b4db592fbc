import Logging
import SegueJSON
import SegueKit
import Testing

@testable import SegueDaemon

/// The data path's order (docs/DESIGN.md §4 "Inside the daemon"): the engine's events are queued while a handler
/// runs and delivered once it has returned, before its response; the transition.wait answers they end are given
/// once the request line has been handled whole, never from inside another request's dispatch.
@Suite("Event delivery after the handler")
struct EventDeliveryTests {
    /// What each line is: an event's type, `response N`, or `batch [ids]`.
    private func kinds(_ lines: [JSONValue]) -> [String] {
        lines.map { line in
            if case .array(let members) = line { return "batch \(members.map { $0["id"]?.serialized() ?? "?" })" }
            if let id = line["id"] { return "response \(id.serialized())" }
            return line["params"]?["type"]?.stringValue ?? "?"
        }
    }

    @Test("a request's events reach the subscriber before its response, in the order the engine emitted them")
    func eventsBeforeResponse() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("events.subscribe", ["types": ["transition", "lifecycle"]])
        let lines = try h.call("container.select", ["container": "tabs", "index": 1], id: 5)
        let seen = kinds(lines)
        #expect(seen.last == "response 5")
        #expect(seen.dropLast().contains("transition.began"))
        #expect(!seen.dropLast().contains { $0.hasPrefix("response") })
        let seqs = lines.dropLast().compactMap { $0["params"]?["seq"]?.intValue }
        #expect(seqs == seqs.sorted() && seqs.count == lines.count - 1)
    }

    @Test("an event the engine emits outside any request waits in the queue until its walk delivers it")
    func emittedEventsWaitForDelivery() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("events.subscribe", ["types": ["transition"]])
        let scene = try #require(h.daemon.scenes["main"])
        let tabs = try #require(scene.container("tabs"))
        _ = try scene.select(tabs, index: 1)
        // Emitted by the engine, not delivered: nothing is on the connection yet.
        #expect(!h.daemon.queue.isEmpty)
        #expect(h.daemon.connections.values.allSatisfy { !$0.needsFlush })
        // The loop's write point delivers, then writes.
        #expect(kinds(try h.readLines()).contains("transition.began"))
        #expect(h.daemon.queue.isEmpty)
    }

    @Test("a batch that waits for a transition and ends it in a later member is answered whole, as one array")
    func batchWaitEndedByLaterMember() throws {
        let h = try Harness()
        try h.setUpScene()
        let t = try #require(try h.result("container.select", ["container": "tabs", "index": 1])?["transition"]?.stringValue)
        let batch = #"[{"jsonrpc":"2.0","id":1,"method":"transition.wait","params":{"transition":"\#(t)"}},"#
            + #"{"jsonrpc":"2.0","id":2,"method":"clock.advance","params":{"ms":1100}}]"#
        let lines = try h.send(batch)
        #expect(kinds(lines) == ["batch [\"1\", \"2\"]"])
        guard case .array(let members)? = lines.first else {
            Issue.record("expected the batch's array: \(lines)")
            return
        }
        #expect(members.first?["result"] == ["ended": true, "state": "completed"])
        #expect(members.last?["result"] != nil)
        #expect(h.daemon.dispatcher.owed.isEmpty)
    }

    @Test("a wait on one connection ended by another's request: that request's events and response, then the answer")
    func waitEndedByAnotherConnection() throws {
        let h = try Harness()
        try h.setUpScene()
        let waiting = try Harness(daemon: h.daemon)
        try waiting.call("scene.use", ["scene": "main"])
        try h.call("events.subscribe", ["types": ["transition"]])
        let t = try #require(try h.result("container.select", ["container": "tabs", "index": 1])?["transition"])
        #expect(try waiting.call("transition.wait", ["transition": t], id: 7).isEmpty)
        #expect(kinds(try h.call("clock.advance", ["ms": 1100], id: 9)) == ["transition.completed", "response 9"])
        let answer = try waiting.readLines()
        #expect(kinds(answer) == ["response 7"])
        #expect(answer.first?["result"] == ["ended": true, "state": "completed"])
    }

    @Test("an event nobody subscribed to is not built, its sequence number is taken all the same, and the daemon still counts and ends waits with its own kinds")
    func unwantedEventsNotBuilt() throws {
        // One daemon subscribed from the start, one that subscribes only after a whole transition: the second
        // transition's events carry the same sequence numbers on both.
        let seen = try Harness()
        try seen.setUpScene()
        try seen.call("events.subscribe", ["types": ["transition", "lifecycle"]])
        let late = try Harness()
        try late.setUpScene()
        #expect(late.daemon.events.isEmpty)
        // transition.began with nobody subscribed is only counted: not built, counted by `skipped` (below).
        for kind in [EngineEvent.Kind.vcWillMoveToParent, .vcViewWillAppear, .vcViewDidDisappear, .frame, .transitionUpdated,
                     .transitionBegan] {
            #expect(!late.daemon.wants(kind))
            #expect(seen.daemon.wants(kind))
        }
        for kind in [EngineEvent.Kind.transitionCompleted, .transitionFailedOver, .transitionWatchdog,
                     .pluginFailed, .pluginWarning, .log] {
            #expect(late.daemon.wants(kind))
        }
        var secondSeqs: [[Int]] = []
        for h in [seen, late] {
            let t = try #require(try h.result("container.select", ["container": "tabs", "index": 1])?["transition"])
            // A wait is still answered by the transition's end with nobody subscribed.
            #expect(try h.call("transition.wait", ["transition": t], id: 7).allSatisfy { $0["id"] == nil })
            let advanced = try h.call("clock.advance", ["ms": 1100], id: 8)
            #expect(advanced.contains { $0["id"] == 7 && $0["result"] == ["ended": true, "state": "completed"] })
            if h === late { try h.call("events.subscribe", ["types": ["transition", "lifecycle"]]) }
            _ = try h.readLines()
            let lines = try h.call("container.select", ["container": "tabs", "index": 0], id: 9)
            secondSeqs.append(lines.compactMap { $0["params"]?["seq"]?.intValue })
            #expect(h.daemon.counters.transitionsStarted == 2)
            #expect(h.daemon.counters.transitionsCompleted == 1)
        }
        #expect(secondSeqs[0].count >= 5)
        #expect(secondSeqs[0] == secondSeqs[1])
    }
}
