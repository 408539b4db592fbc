import Logging
import SegueKit
import Testing

@testable import SegueDaemon

/// The event bus's index of subscriptions by scene and the owed answers' index by transition (issue 24): each
/// event and each transition's end looks only at what can want it, with the same outcomes as a scan of everything.
@Suite("Subscriptions and waiters indexed for many scenes")
struct EventBusIndexTests {
    final class Lines: ConnectionOutput {
        var isWritable: Bool { true }
        var lines: [String] = []
        func send(_ line: String) { lines.append(line) }
        func flush() {}
        func close() {}
    }

    static func event(_ scene: String?, _ payload: EngineEvent.Payload) -> EngineEvent {
        EngineEvent(scene: scene, seq: 1, time: 0, payload: payload)
    }

    @Test("a scene's events reach its own subscriptions and the unbound ones, once per connection, in order")
    func sceneIndex() {
        let daemon = Daemon(config: DaemonConfig(), logger: Logger(label: "t"))
        let a = Lines(), all = Lines(), both = Lines()
        let ca = daemon.connect(output: a), cAll = daemon.connect(output: all), cBoth = daemon.connect(output: both)
        let bus = daemon.events
        let onA = bus.subscribe(ca, scene: "a", types: ["frame"])
        _ = bus.subscribe(cAll, scene: nil, types: ["plugin"])
        _ = bus.subscribe(cBoth, scene: "b", types: ["*"])
        _ = bus.subscribe(cBoth, scene: nil, types: ["*"])
        #expect(bus.isListening(to: .frame, in: "a"))
        #expect(bus.isListening(to: .frame, in: "c"))  // cBoth's unbound "*"
        let log = Self.event("a", .log(level: "info", plugin: "p", message: "m"))
        bus.publish(log)
        #expect(a.lines.isEmpty && all.lines.isEmpty && both.lines.count == 1)  // once, though two subscriptions want it
        let plugin = Self.event(nil, .pluginLoaded(name: "p", file: "p.lua"))
        bus.publish(plugin)
        #expect(all.lines.count == 1 && both.lines.count == 2 && a.lines.isEmpty)
        daemon.disconnect(cBoth)
        #expect(!bus.isListening(to: .frame, in: "c"))
        #expect(bus.isListening(to: .frame, in: "a"))
        #expect(bus.unsubscribe(onA, of: ca))
        #expect(!bus.isListening(to: .frame, in: "a"))
        #expect(!bus.unsubscribe(onA, of: ca))
    }

    @Test("a transition's end answers its own waiters, oldest first, and no one else's")
    func waiterIndex() {
        let owed = OwedAnswers()
        let daemon = Daemon(config: DaemonConfig(), logger: Logger(label: "t"))
        let out = Lines()
        let c = daemon.connect(output: out)
        let first = owed.add(scene: "s", transition: "t-1", connection: c, id: .number("1"))
        _ = owed.add(scene: "s", transition: "t-2", connection: c, id: .number("2"))
        _ = owed.add(scene: "s", transition: "t-1", connection: c, id: .number("3"))
        _ = owed.add(scene: "other", transition: "t-1", connection: c, id: .number("4"))
        #expect(owed.count == 4 && c.owedAnswers == 4)
        owed.transitionEnded(scene: "s", transition: "t-1", completed: true)
        #expect(out.lines.count == 2)
        #expect(out.lines.first?.contains(#""id":1"#) == true && out.lines.last?.contains(#""id":3"#) == true)
        #expect(owed.count == 2 && c.owedAnswers == 2 && !owed.contains(first))
        owed.transitionEnded(scene: "s", transition: "t-1", completed: true)
        #expect(out.lines.count == 2)
        #expect(owed.removeAll { $0.scene == "other" }.map(\.transition) == ["t-1"])
        owed.transitionEnded(scene: "other", transition: "t-1", completed: true)
        #expect(out.lines.count == 2 && owed.count == 1 && c.owedAnswers == 1)
    }
}
