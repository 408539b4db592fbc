import Logging
import SegueKit
import Testing

@testable import SegueDaemon

/// The daemon's references to and from scenes are not `weak` (see `Anchor`, `SceneEventRelay`): a frame grid
/// entry must see a gone scene as gone, and a scene outliving its daemon must emit into nothing.
@Suite("Scenes and the daemon outliving each other")
struct SceneBackReferenceTests {
    @Test("a scene gone while on the frame grid is skipped by the next tick")
    func gridOutlivesScene() {
        let grid = FrameGrid(fps: 60, now: 0)
        let kept = Scene(id: "kept", size: Size(w: 320, h: 480), clock: .realtime, fps: 60)
        weak var gone: Scene?
        do {
            let scene = Scene(id: "gone", size: Size(w: 320, h: 480), clock: .realtime, fps: 60)
            grid.add(scene, now: 0)
            gone = scene
        }
        grid.add(kept, now: 0)
        #expect(gone == nil)
        var advanced: [String] = []
        grid.tick(wall: 2 * grid.interval) { scene, frame in
            advanced.append(scene.id)
            scene.advance(to: frame)
        }
        #expect(advanced == ["kept"])
        #expect(grid.count == 2)  // the daemon's scene.destroy takes it off (`remove(id:)`)
    }

    @Test("a scene's events reach the daemon through its relay, and nothing once the daemon is gone")
    func sceneOutlivesDaemon() {
        let scene = Scene(id: "s", size: Size(w: 320, h: 480), clock: .manual)
        let relay: SceneEventRelay
        weak var gone: Daemon?
        do {
            let daemon = Daemon(config: DaemonConfig(), logger: Logger(label: "test"))
            relay = daemon.sceneEvents
            scene.sink = relay  // what scene.create does
            scene.emit(.watchdog(transition: "t-1", animator: "a"))
            #expect(daemon.counters.transitionsWatchdog == 1)
            gone = daemon
        }
        #expect(gone == nil)
        #expect(relay.daemon == nil)
        #expect(!relay.isListening(to: .transitionWatchdog, in: "s"))
        scene.emit(.watchdog(transition: "t-1", animator: "a"))
        #expect(scene.eventSeq == 2)
    }
}
