import SegueKit
import SegueLua

/// The realtime scenes of one frame rate, ticked like a display link by one repeating loop timer on one wall-clock
/// grid (`anchor` + k × interval): each tick advances every scene on it to the last frame boundary its wall time
/// (times the scene's speed) has passed, then the daemon's output is flushed once for all of them.
///
/// A scene's frames are never dropped: a tick that comes late (or a turn that skipped grid times) advances each
/// scene through every frame it owes, one `frame` event per frame, never an extra one between frames — up to a
/// quarter of a second of frames per tick; a scene owing more (its frames cost more than real time) lags the wall
/// clock rather than hold the loop. The wall time
/// a tick stands for is its grid time, not the moment the loop got to it, so scheduling jitter never moves a frame
/// from one tick to the next. Loop-confined.
package final class FrameGrid {
    package let fps: Int
    /// Nanoseconds between ticks: 10⁹ / fps rounded up, so a tick never comes before the frame boundary it is for
    /// (truncated, the first scene's every frame would land a hair after its tick and wait for the next one).
    package let interval: Int64
    /// Where the grid is anchored (monotonic ns): the first scene's start.
    let anchor: Int64
    /// Cancelled when the last scene leaves.
    package var timer: LoopTimer?

    /// A scene on the grid: the wall time it was last advanced for, and the scene time that wall time has reached.
    private struct Entry {
        /// The scene's anchor, not a `weak` reference (see `Anchor`): nil once the scene is gone.
        let anchor: Anchor<Scene>
        var scene: Scene? { anchor.object }
        let id: String
        var lastWall: Int64
        var target: Double
        /// Idle (`Scene.isIdle`) at its last tick: not ticked until `wake` (its clock catches up then).
        var asleep = false
    }

    /// The sleeping scenes' entries, by scene.
    private var sleeping: [ObjectIdentifier: Int] = [:]
    package var hasSleepers: Bool { !sleeping.isEmpty }

    /// In the order the scenes joined (the order their frames are made in within a tick).
    private var entries: [Entry] = []

    package init(fps: Int, now: Int64) {
        self.fps = max(1, fps)
        interval = Int64((1_000_000_000 + self.fps - 1) / self.fps)
        anchor = now
    }

    package var isEmpty: Bool { entries.isEmpty }
    package var count: Int { entries.count }

    /// Adds a scene at wall time `now`: its clock runs from `scene.now` from there.
    package func add(_ scene: Scene, now: Int64) {
        entries.append(Entry(anchor: scene.anchor, id: scene.id, lastWall: now, target: Double(scene.now)))
    }

    /// Takes the scene off the grid.
    package func remove(id: String) {
        entries.removeAll { $0.id == id }
        sleeping.removeAll()
        for (i, entry) in entries.enumerated() where entry.asleep {
            if let scene = entry.scene { sleeping[ObjectIdentifier(scene)] = i }
        }
    }

    /// A sleeping scene is about to be used (a request names it): its clock jumps to where grid time `wall` puts
    /// it — what the ticks it slept through would have done, as nothing happened in them — and it is ticked again.
    package func wake(_ scene: Scene, wall: Int64) {
        guard let i = sleeping.removeValue(forKey: ObjectIdentifier(scene)) else { return }
        entries[i].asleep = false
        let elapsed = wall - entries[i].lastWall
        guard elapsed > 0 else { return }
        entries[i].target += Double(elapsed) * scene.speed
        entries[i].lastWall = wall
        let frame = scene.frameTime(Int64((entries[i].target * Double(scene.fps) / 1e9).rounded(.down)))
        if frame > scene.now { scene.jumpIdle(to: frame) }
    }

    /// The grid time a tick at `now` stands for: the latest one not after it.
    package func gridTime(at now: Int64) -> Int64 {
        anchor + (now - anchor) / interval * interval
    }

    /// The most frames one tick makes for a scene: a quarter of a second of them (at least one).
    func maxCatchUp(fps: Int) -> Int { max(1, fps / 4) }

    /// Advances every scene on the grid to where grid time `wall` puts its clock; `advance` moves one scene's clock
    /// (the daemon's `tickRealtime`).
    /// With `sleepWhenIdle`, a scene left idle by its tick sleeps (no tick of a scene with nothing animating:
    /// with 10 000 scenes, idle ticks were a third of the daemon's instructions) until `wake`.
    package func tick(wall: Int64, sleepWhenIdle: Bool = false, advance: (Scene, Int64) -> Void) {
        var i = 0
        while i < entries.count {
            defer { i += 1 }
            guard !entries[i].asleep, let scene = entries[i].scene else { continue }
            let elapsed = wall - entries[i].lastWall
            // A scene that joined after this grid time (earlier in the same turn) waits for the next tick.
            guard elapsed > 0 else { continue }
            entries[i].target += Double(elapsed) * scene.speed
            entries[i].lastWall = wall
            // At most `maxCatchUp` frames in one tick: a scene whose frames cost more than real time (a starved
            // machine, a huge scene) would otherwise owe more each tick until one tick held the loop for seconds.
            // Past the cap its clock lags the wall clock instead; every frame it makes is still on its grid.
            let cap = Double(scene.now) + Double(maxCatchUp(fps: scene.fps)) * 1e9 / Double(scene.fps)
            if entries[i].target > cap { entries[i].target = cap }
            let frame = scene.frameTime(Int64((entries[i].target * Double(scene.fps) / 1e9).rounded(.down)))
            if frame > scene.now { advance(scene, frame) }
            if sleepWhenIdle, scene.isIdle {
                entries[i].asleep = true
                sleeping[ObjectIdentifier(scene)] = i
            }
        }
    }
}
