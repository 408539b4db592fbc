import SegueJSON
import Testing

@testable import SegueDaemon

/// plugins.check on the event loop: one case per turn, other connections served in between.
@Suite("plugins.check across turns of the loop")
struct PluginCheckTurnTests {
    /// The loop's scheduled actions, run by hand: each is one turn.
    final class Turns {
        var queue: [() -> Void] = []
        func runOne() {
            guard !queue.isEmpty else { return }
            queue.removeFirst()()
        }
    }

    static func daemonWithTurns() throws -> (Harness, Turns) {
        let h = try Harness()
        let turns = Turns()
        h.daemon.scheduleAfter = { _, action in turns.queue.append(action) }
        return (h, turns)
    }

    @Test("a check runs one case per turn; other connections are answered between cases; the answer comes at the end")
    func casePerTurn() throws {
        let (h, turns) = try Self.daemonWithTurns()
        let other = try Harness(daemon: h.daemon)
        #expect(try h.call("plugins.check", ["name": "dt-slide"]).isEmpty)
        var cases = 0
        while !turns.queue.isEmpty {
            #expect(turns.queue.count == 1)
            turns.runOne()
            cases += 1
            let lines = try h.readLines()
            if turns.queue.isEmpty {
                #expect(lines.count == 1)
                #expect(lines.first?["result"]?["cases"]?.arrayValue?.count == cases)
                #expect(lines.first?["result"]?["passed"] == true)
            } else {
                #expect(lines.isEmpty)
                #expect(try other.result("daemon.ping") != nil)
            }
        }
        #expect(cases == 10)  // dt-slide: select, push, pop (4 straight cases, 6 interactive)
        #expect(h.daemon.plugins.scenesWithPluginState == 0)
        #expect(try other.result("scene.list")?.arrayValue?.isEmpty == true)
    }

    @Test("a connection that goes away mid-check stops it, and nothing of the check is left")
    func hangUpStops() throws {
        let (h, turns) = try Self.daemonWithTurns()
        let other = try Harness(daemon: h.daemon)
        #expect(try h.call("plugins.check", ["name": "dt-slide"]).isEmpty)
        turns.runOne()
        turns.runOne()
        #expect(turns.queue.count == 1)
        h.channel.hangUp()
        #expect(h.daemon.dispatcher.owed.waiters.isEmpty)
        turns.runOne()
        #expect(turns.queue.isEmpty)  // no further case was scheduled
        #expect(h.daemon.plugins.scenesWithPluginState == 0)
        #expect(try other.result("scene.list")?.arrayValue?.isEmpty == true)
    }

    @Test("a batch after a finished check is answered at once (it must not take the check for its member)")
    func batchAfterCheck() throws {
        let (h, turns) = try Self.daemonWithTurns()
        #expect(try h.call("plugins.check", ["name": "flip"], id: 5).isEmpty)
        while !turns.queue.isEmpty { turns.runOne() }
        #expect(try h.readLines().last?["id"] == 5)
        let answered = try h.send(#"[{"jsonrpc":"2.0","id":1,"method":"daemon.ping"}]"#)
        #expect(answered.first?.arrayValue?.first?["result"] == "pong")
    }

    @Test("a check in a batch is answered with the batch once it is done; its errors come at once")
    func inBatch() throws {
        let (h, turns) = try Self.daemonWithTurns()
        let batch = """
            [{"jsonrpc":"2.0","id":1,"method":"daemon.ping"},\
            {"jsonrpc":"2.0","id":2,"method":"plugins.check","params":{"name":"flip"}}]
            """
        #expect(try h.send(batch).isEmpty)
        while !turns.queue.isEmpty { turns.runOne() }
        let lines = try h.readLines()
        #expect(lines.first?.arrayValue?.count == 2)
        #expect(lines.first?.arrayValue?.last?["result"]?["plugin"] == "flip")
        let refused = try h.call("plugins.check", ["name": "flip", "presentation": "nope"]).last?["error"]
        #expect(refused?["code"] == -32001 && refused?["data"]?["param"] == "presentation")
        #expect(turns.queue.isEmpty)
    }

    @Test("a pending check is an owed answer: past the limit a check is refused with -32004, and nothing starts")
    func waiterLimit() throws {
        let (h, turns) = try Self.daemonWithTurns()
        h.daemon.dispatcher.owed.limit = 1
        #expect(try h.call("plugins.check", ["name": "dt-slide"]).isEmpty)
        let refused = try h.call("plugins.check", ["name": "flip"]).last?["error"]
        #expect(refused?["code"] == -32004 && refused?["data"]?["limit"] == 1)
        #expect(h.daemon.dispatcher.owed.waiters.count == 1 && turns.queue.count == 1)
        while !turns.queue.isEmpty { turns.runOne() }
        #expect(try h.readLines().first?["result"]?["plugin"] == "dt-slide")
        #expect(h.daemon.dispatcher.owed.waiters.isEmpty)
    }

    @Test("a check still running when the daemon drains is answered -32005 with its id, and runs no further case")
    func drainAnswers() throws {
        let (h, turns) = try Self.daemonWithTurns()
        #expect(try h.call("plugins.check", ["name": "dt-slide"], id: 42).isEmpty)
        turns.runOne()
        h.daemon.drain()
        let lines = try h.readLines()
        #expect(lines.count == 1)
        #expect(lines.first?["id"] == 42 && lines.first?["error"]?["code"] == -32005)
        #expect(h.daemon.dispatcher.owed.waiters.isEmpty)
        turns.runOne()
        #expect(turns.queue.isEmpty)
        #expect(h.daemon.plugins.scenesWithPluginState == 0)
    }
}
