import SegueKit
import Testing

@testable import SegueDaemon

/// Realtime scenes on one frame grid per frame rate: which frame each tick brings a scene to (wall times are given,
/// so nothing here depends on the machine's clock).
@Suite("The realtime frame grid")
struct FrameGridTests {
    static func scene(_ id: String, fps: Int = 60) -> Scene {
        Scene(id: id, size: Size(w: 320, h: 480), clock: .realtime, fps: fps)
    }

    /// Runs one tick at grid time `wall` and returns, per scene advanced, the time it was advanced to.
    static func tick(_ grid: FrameGrid, at wall: Int64) -> [String: Int64] {
        var advanced: [String: Int64] = [:]
        grid.tick(wall: wall) { scene, frame in
            advanced[scene.id] = frame
            scene.advance(to: frame)
        }
        return advanced
    }

    @Test("every scene on the grid is advanced by the same tick, each to the last frame its wall time has passed")
    func oneTickAdvancesAll() {
        let grid = FrameGrid(fps: 60, now: 0)
        let a = Self.scene("a"), b = Self.scene("b")
        grid.add(a, now: 0)
        grid.add(b, now: 5_000_000)  // joined 5 ms later: a third of a frame behind
        #expect(grid.interval == 16_666_667)  // rounded up: a tick never comes before its frame
        let first = Self.tick(grid, at: grid.interval)
        #expect(first["a"] == a.frameTime(1))
        #expect(first["b"] == nil)  // 11.7 ms of its clock: no frame boundary passed yet
        let second = Self.tick(grid, at: 2 * grid.interval)
        #expect(second["a"] == a.frameTime(2))
        #expect(second["b"] == b.frameTime(1))
        #expect(a.now == a.frameTime(2))
        #expect(b.now == b.frameTime(1))
    }

    @Test("a late tick advances to the last frame owed, in one go (the engine ticks each frame on the way)")
    func lateTick() {
        let grid = FrameGrid(fps: 60, now: 0)
        let a = Self.scene("a")
        grid.add(a, now: 0)
        #expect(Self.tick(grid, at: 10 * grid.interval)["a"] == a.frameTime(10))
        #expect(Self.tick(grid, at: 11 * grid.interval)["a"] == a.frameTime(11))
    }

    @Test("a tick makes at most a quarter of a second of frames: a scene owing more lags the wall clock instead")
    func catchUpIsBounded() {
        let grid = FrameGrid(fps: 60, now: 0)
        let a = Self.scene("a")
        grid.add(a, now: 0)
        // Ten seconds late (a starved loop): 15 frames, never 600 in one turn; the rest of the ten seconds is dropped
        // from the scene's clock (it lags the wall clock), so the next ticks owe one frame each again.
        #expect(Self.tick(grid, at: 600 * grid.interval)["a"] == a.frameTime(15))
        #expect(Self.tick(grid, at: 601 * grid.interval)["a"] == a.frameTime(16))
        #expect(Self.tick(grid, at: 602 * grid.interval)["a"] == a.frameTime(17))
    }

    @Test("the grid time of a tick is the latest grid point, whatever the moment the loop got to it")
    func gridTime() {
        let grid = FrameGrid(fps: 60, now: 1_000)
        #expect(grid.gridTime(at: 1_000) == 1_000)
        #expect(grid.gridTime(at: 1_000 + grid.interval - 1) == 1_000)
        #expect(grid.gridTime(at: 1_000 + 3 * grid.interval + 5) == 1_000 + 3 * grid.interval)
    }

    @Test("a scene that joined after the tick's grid time waits for the next tick; a removed scene is not advanced")
    func joinAndLeave() {
        let grid = FrameGrid(fps: 60, now: 0)
        let a = Self.scene("a"), b = Self.scene("b")
        grid.add(a, now: 0)
        grid.add(b, now: grid.interval + 1)
        #expect(Self.tick(grid, at: grid.interval)["b"] == nil)
        grid.remove(id: "a")
        #expect(grid.count == 1)
        let later = Self.tick(grid, at: 3 * grid.interval)
        #expect(later["a"] == nil)
        #expect(later["b"] == b.frameTime(1))
        grid.remove(id: "b")
        #expect(grid.isEmpty)
    }

    @Test("a scene's speed scales the wall time it is advanced by")
    func speed() {
        let grid = FrameGrid(fps: 60, now: 0)
        let fast = Self.scene("fast")
        fast.speed = 2
        grid.add(fast, now: 0)
        #expect(Self.tick(grid, at: grid.interval)["fast"] == fast.frameTime(2))
        #expect(Self.tick(grid, at: 2 * grid.interval)["fast"] == fast.frameTime(4))
    }

    @Test("an idle scene sleeps: no tick until it is woken, then its clock is where the ticks would have put it")
    func idleScenesSleep() throws {
        let grid = FrameGrid(fps: 60, now: 0)
        let idle = Self.scene("idle"), busy = Self.scene("busy")
        grid.add(idle, now: 0)
        grid.add(busy, now: 0)
        let vc = try busy.createViewController(id: "v", title: nil, color: nil)
        func tick(_ k: Int64) -> [String: Int64] {
            var advanced: [String: Int64] = [:]
            grid.tick(wall: k * grid.interval, sleepWhenIdle: true) { scene, frame in
                advanced[scene.id] = frame
                scene.advance(to: frame)
            }
            return advanced
        }
        busy.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) { busy.set(vc.view, alpha: 0) }
        #expect(idle.isIdle && !busy.isIdle)
        #expect(tick(1)["idle"] == idle.frameTime(1))  // ticked once, found idle: asleep from here
        let second = tick(2)
        #expect(second["idle"] == nil && second["busy"] == busy.frameTime(2))
        #expect(tick(30)["idle"] == nil)
        #expect(idle.now == idle.frameTime(1) && grid.hasSleepers)
        // Woken (a request names it) at grid time 40: its clock jumps there, and it is ticked again.
        grid.wake(idle, wall: 40 * grid.interval)
        #expect(idle.now == idle.frameTime(40) && !grid.hasSleepers)
        let last = tick(41)
        #expect(last["idle"] == idle.frameTime(41))
        // The busy scene was never put to sleep while it animated (it lags: a tick makes at most 15 of its frames).
        #expect(last["busy"] != nil && !busy.isIdle)
    }
}
