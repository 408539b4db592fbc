import SegueJSON
import Testing

@testable import SegueDaemon

/// A transition ended by scene.destroy reports `forced: true` (issue 23): the docs call it force-completed.
@Suite("scene.destroy force-completes")
struct DestroyForcedTests {
    func completedEvents(_ lines: [JSONValue]) -> [JSONValue] {
        lines.filter { $0["method"] == "event" && $0["params"]?["type"] == "transition.completed" }
            .compactMap { $0["params"] }
    }

    @Test("a running transition, or one half-way, ended by scene.destroy: transition.completed with forced true",
          arguments: [0, 100, 279])
    func destroyForces(ms: Int) throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("events.subscribe", ["scene": "main", "types": ["transition"]])
        try h.call("container.select", ["container": "tabs", "index": 1, "animator": "dt-slide"])
        if ms > 0 { try h.call("clock.advance", ["ms": .number(Double(ms))]) }
        let completed = completedEvents(try h.call("scene.destroy", ["scene": "main"]))
        #expect(completed.count == 1)
        #expect(completed.first?["forced"] == true)
    }

    @Test("a transition that finishes by itself, and one finished by transition.finish, are not forced")
    func notForced() throws {
        let h = try Harness()
        try h.setUpScene()
        try h.call("events.subscribe", ["scene": "main", "types": ["transition"]])
        try h.call("container.select", ["container": "tabs", "index": 1, "animator": "dt-slide"])
        let done = completedEvents(try h.call("clock.advance", ["ms": 400]))
        #expect(done.first?["forced"] == false)
        // Nothing running: scene.destroy reports nothing more.
        #expect(completedEvents(try h.call("scene.destroy", ["scene": "main"])).isEmpty)
    }
}
