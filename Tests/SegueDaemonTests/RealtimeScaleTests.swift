import Logging
import SegueKit
import Testing

@testable import SegueDaemon

/// The per-frame and shutdown paths of many realtime scenes (issue 24): what a scene's tick asks of the daemon is
/// answered without hashing its id, and the answers are the ones the bus and the registry give.
@Suite("Realtime scenes at scale: the tick's questions and the stop")
struct RealtimeScaleTests {
    typealias Lines = EventBusIndexTests.Lines

    /// Records the driver calls the registry makes.
    final class Driver: RealtimeDriver {
        var started: [String] = []
        var stopped: [String] = []
        var stoppedAll: [[String]] = []
        func start(scene: Scene, daemon: Daemon) { started.append(scene.id) }
        func stop(scene: Scene) { stopped.append(scene.id) }
        func stopAll(_ scenes: [Scene]) { stoppedAll.append(scenes.map(\.id)) }
    }

    static func reply(_ daemon: Daemon, _ c: ClientConnection, _ line: String) -> String {
        daemon.handle(line: line, from: c) ?? ""
    }

    @Test("a scene's sink answers for its frames as the bus does, before and after each change of subscriptions")
    func frameRelayFollowsSubscriptions() throws {
        let daemon = Daemon(config: DaemonConfig(), logger: Logger(label: "t"))
        let out = Lines()
        let c = daemon.connect(output: out)
        #expect(Self.reply(daemon, c, #"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"id":"a","size":{"w":10,"h":10},"clock":"manual"}}"#).contains("result"))
        let scene = try #require(daemon.scenes["a"])
        let sink = try #require(scene.sink as? SceneFrameRelay)
        #expect(!sink.isListening(to: .frame, in: "a"))
        let bus = daemon.events
        let other = bus.subscribe(c, scene: "b", types: ["frame"])
        #expect(!sink.isListening(to: .frame, in: "a"))
        let own = bus.subscribe(c, scene: "a", types: ["frame"])
        #expect(sink.isListening(to: .frame, in: "a") && bus.isListening(to: .frame, in: "a"))
        #expect(bus.unsubscribe(own, of: c))
        #expect(!sink.isListening(to: .frame, in: "a"))
        _ = bus.subscribe(c, scene: nil, types: ["*"])  // an unbound subscription wants every scene's frames
        #expect(sink.isListening(to: .frame, in: "a"))
        daemon.disconnect(c)  // its subscriptions go with it
        #expect(!sink.isListening(to: .frame, in: "a") && !bus.isListening(to: .frame, in: "a"))
        _ = other
        // Other kinds are the bus's answer as before.
        #expect(sink.isListening(to: .transitionBegan, in: "a") == bus.isListening(to: .transitionBegan, in: "a"))
    }

    @Test("a scene's sink hears nothing once the daemon is gone")
    func frameRelayOutlivesDaemon() {
        let relay: SceneFrameRelay
        do {
            let daemon = Daemon(config: DaemonConfig(), logger: Logger(label: "t"))
            relay = SceneFrameRelay(shared: daemon.sceneEvents)
        }
        #expect(!relay.isListening(to: .frame, in: "a"))
        relay.emit(EngineEvent(scene: "a", seq: 1, time: 0, payload: .watchdog(transition: "t-1", animator: "x")))
    }

    @Test("the registry holds a scene until it is destroyed, by identity: a new scene of the same id is not the old one")
    func holdsByIdentity() {
        let daemon = Daemon(config: DaemonConfig(), logger: Logger(label: "t"))
        let c = daemon.connect(output: Lines())
        let create = #"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"id":"s","size":{"w":10,"h":10},"clock":"manual"}}"#
        #expect(Self.reply(daemon, c, create).contains("result"))
        guard let first = daemon.scenes["s"] else { Issue.record("no scene"); return }
        #expect(daemon.scenes.holds(first))
        #expect(Self.reply(daemon, c, #"{"jsonrpc":"2.0","id":2,"method":"scene.destroy","params":{"scene":"s"}}"#).contains("result"))
        #expect(!daemon.scenes.holds(first))
        #expect(Self.reply(daemon, c, create).contains("result"))
        guard let second = daemon.scenes["s"] else { Issue.record("no scene"); return }
        #expect(daemon.scenes.holds(second) && !daemon.scenes.holds(first))
        // A tick for the destroyed scene is dropped: its clock does not move.
        let before = first.now
        daemon.tickRealtime(first, elapsedNanoseconds: 1_000_000_000)
        #expect(first.now == before)
        daemon.tickRealtime(second, elapsedNanoseconds: 1_000_000_000)
        #expect(second.now == 1_000_000_000)
    }

    @Test("the daemon's stop hands every scene to the driver at once, not one by one")
    func stopClocksAtOnce() {
        let daemon = Daemon(config: DaemonConfig(), logger: Logger(label: "t"))
        let driver = Driver()
        daemon.realtimeDriver = driver
        let c = daemon.connect(output: Lines())
        for id in ["r1", "r2", "m"] {
            let clock = id == "m" ? "manual" : "realtime"
            #expect(Self.reply(daemon, c, #"{"jsonrpc":"2.0","id":1,"method":"scene.create","params":{"id":"\#(id)","size":{"w":10,"h":10},"clock":"\#(clock)"}}"#).contains("result"))
        }
        #expect(driver.started == ["r1", "r2"])
        daemon.stop()
        #expect(driver.stoppedAll == [["r1", "r2", "m"]])
        #expect(driver.stopped.isEmpty)
    }
}
