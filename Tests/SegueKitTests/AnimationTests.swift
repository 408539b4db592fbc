import Foundation
import Testing

@testable import SegueKit

/// A manual scene with one 100×100 view in the window.
func makeViewScene() throws -> (Scene, View, EventRecorder) {
    let recorder = EventRecorder()
    let scene = Scene(id: "anim", size: Size(w: 320, h: 480), clock: .manual, fps: 100)
    scene.sink = recorder
    let view = try scene.makeView(id: "v", frame: Rect(x: 0, y: 0, w: 100, h: 100))
    scene.addSubview(view, to: scene.window)
    return (scene, view, recorder)
}

@Suite("Animations: supersede, repeat, keyframes, transforms, view transitions")
struct AnimationTests {
    @Test("a new animation of an animating property starts from the presentation value; the old block gets finished = false")
    func supersede() throws {
        let (scene, view, _) = try makeViewScene()
        var results: [String] = []
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(view, alpha: 0)
        } completion: { results.append("first \($0)") }
        scene.advance(by: 400_000_000)
        #expect(abs(view.presentation.alpha - 0.6) < 1e-9)
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(view, alpha: 1)
        } completion: { results.append("second \($0)") }
        scene.advance(by: 10_000_000)
        #expect(results == ["first false"])
        // From 0.6 (where it was on screen) toward 1: 1 % of the way after 10 ms.
        #expect(abs(view.presentation.alpha - (0.6 + 0.4 * 0.01)) < 1e-9)
        scene.advance(by: 1_000_000_000)
        #expect(results == ["first false", "second true"])
        #expect(view.presentation.alpha == 1)
    }

    @Test("a spring that supersedes a moving animation carries its velocity: no jump in speed")
    func springCarriesVelocity() throws {
        let (scene, view, _) = try makeViewScene()
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(view, center: Point(x: 1050, y: 50))  // 1000 points per second to the right
        }
        scene.advance(by: 500_000_000)
        let x0 = view.presentation.center.x
        #expect(abs(x0 - 550) < 1e-6)
        let spring = try #require(Spring(dampingRatio: 1, initialVelocity: 0, duration: 1))
        scene.animate(AnimationOptions(duration: 1, timing: .spring(spring))) {
            scene.set(view, center: Point(x: 550, y: 50))  // stay where it is
        }
        scene.advance(by: 10_000_000)
        // Without the carried velocity the view would not move at all (target = start, v0 = 0). With it, it keeps
        // going right at first at about 1000 points per second.
        let moved = view.presentation.center.x - x0
        #expect(moved > 8 && moved < 10.5)
        scene.advance(by: 1_000_000_000)
        #expect(view.presentation.center.x == 550)
    }

    @Test("autoreverse runs forward then back; repeat_count repeats; at the end the view shows the model value")
    func repeatAndAutoreverse() throws {
        let (scene, view, _) = try makeViewScene()
        var finished: Bool?
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear), repeatCount: 2, autoreverses: true)) {
            scene.set(view, alpha: 0)
        } completion: { finished = $0 }
        scene.advance(by: 500_000_000)
        #expect(abs(view.presentation.alpha - 0.5) < 1e-9)
        scene.advance(by: 1_000_000_000)  // 1.5 s: half-way back
        #expect(abs(view.presentation.alpha - 0.5) < 1e-9)
        scene.advance(by: 400_000_000)  // 1.9 s: nearly back at 1
        #expect(abs(view.presentation.alpha - 0.9) < 1e-9)
        scene.advance(by: 300_000_000)  // 2.2 s: second cycle, going down again
        #expect(abs(view.presentation.alpha - 0.8) < 1e-9)
        #expect(finished == nil)
        scene.advance(by: 1_900_000_000)  // 4.1 s: over
        #expect(finished == true)
        #expect(view.presentation.alpha == 0 && view.model.alpha == 0)
    }

    @Test("keyframes: each segment runs in its own window; between windows the value holds")
    func keyframes() throws {
        let (scene, view, _) = try makeViewScene()
        var finished: Bool?
        scene.beginKeyframes(AnimationOptions(duration: 1, timing: .curve(.linear)), completion: { finished = $0 })
        scene.addKeyframe(start: 0, duration: 0.25) { scene.set(view, alpha: 0.5) }
        scene.addKeyframe(start: 0.5, duration: 0.5) { scene.set(view, alpha: 0) }
        scene.commitAnimations()
        #expect(view.model.alpha == 0)
        scene.advance(by: 100_000_000)
        #expect(abs(view.presentation.alpha - 0.8) < 1e-9)  // 1 → 0.5 over 0…0.25
        scene.advance(by: 300_000_000)
        #expect(abs(view.presentation.alpha - 0.5) < 1e-9)  // held
        scene.advance(by: 350_000_000)
        #expect(abs(view.presentation.alpha - 0.25) < 1e-9)  // 0.5 → 0 over 0.5…1, half-way
        scene.advance(by: 300_000_000)
        #expect(view.presentation.alpha == 0 && finished == true)
    }

    @Test("a rotation animates as a rotation (decomposed), not as a matrix blend that shrinks the view")
    func rotationByDecomposition() throws {
        let (scene, view, _) = try makeViewScene()
        let quarter = Transform3D(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0)  // rotate(π/2)
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) { scene.set(view, transform: quarter) }
        scene.advance(by: 500_000_000)
        let t = view.presentation.transform.affine
        // Half-way: rotate(π/4), whose scale is still 1 (a matrix blend would give 0.5/0.5 and a scale of 0.71).
        #expect(abs(t.a - cos(Double.pi / 4)) < 1e-9 && abs(t.b - sin(Double.pi / 4)) < 1e-9)
        #expect(abs((t.a * t.a + t.b * t.b).squareRoot() - 1) < 1e-9)
        scene.advance(by: 600_000_000)
        #expect(view.presentation.transform == quarter)
    }

    @Test("flip: the model swaps at once; on screen from_view (a snapshot) shows until half-way, to_view after")
    func flip() throws {
        let (scene, from, _) = try makeViewScene()
        let container = try scene.makeView(id: "box", frame: Rect(x: 0, y: 0, w: 320, h: 480))
        scene.addSubview(container, to: scene.window)
        scene.addSubview(from, to: container)
        let to = try scene.makeView(id: "to", frame: Rect(x: 0, y: 0, w: 100, h: 100), color: .clear)
        var finished: Bool?
        try scene.transitionViews(from: from, to: to, duration: 1, style: .flipFromRight) { finished = $0 }
        #expect(from.superview == nil && to.superview === container)
        #expect(to.model.transform.isIdentity)
        let snapshot = try #require(container.subviews.last)
        #expect(snapshot !== to && container.subviews.count == 2)
        scene.advance(by: 250_000_000)
        // A quarter of the way: the snapshot is turning (perspective m34 = −1/500), to_view is still edge-on.
        let s = snapshot.presentation.transform.values
        #expect(s[11] != 0 && abs(s[0]) < 1)
        #expect(!snapshot.hidden)
        scene.advance(by: 300_000_000)
        #expect(snapshot.hidden)
        scene.advance(by: 500_000_000)
        #expect(finished == true)
        #expect(!snapshot.isAlive && container.subviews.map(\.id) == ["to"])
        #expect(to.presentation.transform.isIdentity)
    }

    @Test("curl_up: the snapshot turns about its top edge (which stays put) until it is edge-on; curl_down brings to_view down")
    func curls() throws {
        let (scene, from, _) = try makeViewScene()
        let to = try scene.makeView(id: "to", frame: Rect(x: 0, y: 0, w: 100, h: 100))
        try scene.transitionViews(from: from, to: to, duration: 1, style: .curlUp, completion: nil)
        let snapshot = try #require(scene.window.subviews.last)
        #expect(scene.window.subviews.map(\.id) == ["to", snapshot.id])  // the page lies on top of to_view
        scene.advance(by: 500_000_000)
        let t = snapshot.presentation.transform
        // Relative to the centre the top edge is y = -50: its corners do not move; the bottom edge rises.
        let topLeft = t.apply(Point(x: -50, y: -50)), bottom = t.apply(Point(x: 0, y: 50))
        #expect(abs(topLeft.x + 50) < 1e-9 && abs(topLeft.y + 50) < 1e-9)
        #expect(bottom.y < 50 && bottom.y > -50)
        scene.advance(by: 600_000_000)
        #expect(!snapshot.isAlive && to.presentation.transform.isIdentity)

        let back = try scene.makeView(id: "back", frame: Rect(x: 0, y: 0, w: 100, h: 100))
        try scene.transitionViews(from: to, to: back, duration: 1, style: .curlDown, completion: nil)
        // curl_down: the snapshot stays underneath, to_view comes down onto it from edge-on.
        #expect(scene.window.subviews.last === back)
        let start = back.presentation.transform.apply(Point(x: 0, y: 50))
        #expect(start.y < -40)  // edge-on: its bottom edge is seen up by the top edge (perspective shifts it a little)
        scene.advance(by: 1_100_000_000)
        #expect(back.presentation.transform.isIdentity && scene.window.subviews.map(\.id) == ["back"])
    }

    @Test("cross_dissolve fades the snapshot out while to_view fades in")
    func crossDissolve() throws {
        let (scene, from, _) = try makeViewScene()
        let to = try scene.makeView(id: "to", frame: Rect(x: 0, y: 0, w: 100, h: 100))
        try scene.transitionViews(from: from, to: to, duration: 1, style: .crossDissolve, completion: nil)
        let snapshot = try #require(scene.window.subviews.last)
        scene.advance(by: 500_000_000)
        #expect(abs(snapshot.presentation.alpha - 0.5) < 1e-9 && abs(to.presentation.alpha - 0.5) < 1e-9)
        scene.advance(by: 500_000_000)
        #expect(to.presentation.alpha == 1 && !snapshot.isAlive)
    }

    @Test("timelines: a finished transition keeps its samples; only engine.timeline_retention transitions are kept")
    func timelineRetention() throws {
        var config = EngineConfig()
        config.timelineRetention = 3
        let recorder = EventRecorder()
        let (scene, container, _, _) = try makeScene(recorder: recorder, config: config)
        var ids: [String] = []
        for i in 0..<6 {
            let t = try #require(try scene.select(container, index: (i + 1) % 2).transition)
            ids.append(t.id)
            scene.advance(by: 1_100_000_000)
        }
        #expect(scene.transitions.map(\.id) == Array(ids.suffix(3)))
        let last = try #require(scene.transition(ids[5]))
        #expect(last.timeline.samples.first?.time == last.startedAt)
        #expect(last.timeline.samples.last?.time == last.endedAt)
        #expect(last.timeline.samples.last?.views.first?.id == "c.view")
    }

    @Test("timelines: the oldest ended transitions are forgotten first, and a running one started before them stays")
    func timelineRetentionKeepsRunning() throws {
        var config = EngineConfig()
        config.timelineRetention = 2
        let (scene, container, _, _) = try makeScene(recorder: EventRecorder(), config: config)
        let x = try scene.createViewController(id: "x", title: nil, color: nil)
        let y = try scene.createViewController(id: "y", title: nil, color: nil)
        let other = try scene.createContainer(id: "o", kind: .custom, items: [x, y])
        scene.addSubview(other.view, to: container.view)
        // Paused at 0 and never driven: it runs throughout, first in start order.
        let running = try #require(try scene.select(other, index: 1, interactive: .percent).transition)
        var ended: [String] = []
        for i in 0..<5 {
            let t = try #require(try scene.select(container, index: (i + 1) % 2).transition)
            ended.append(t.id)
            scene.advance(by: 1_100_000_000)
            #expect(t.isEnded)
            #expect(scene.transitions.map(\.id) == [running.id] + Array(ended.suffix(2)))
        }
        #expect(!running.isEnded)
        #expect(scene.transition(ended[2]) == nil && scene.transition(ended[3]) != nil)
    }

    @Test("timelines: engine.timeline_retention_bytes forgets the oldest ended transitions past the budget, never the newest")
    func timelineRetentionBytes() throws {
        // One byte: only the newest ended transition is kept (the one a client may still want to render).
        var tiny = EngineConfig()
        tiny.timelineRetentionBytes = 1
        let (scene, container, _, _) = try makeScene(recorder: EventRecorder(), config: tiny)
        var ended: [Transition] = []
        for i in 0..<4 {
            ended.append(try #require(try scene.select(container, index: (i + 1) % 2).transition))
            scene.advance(by: 1_100_000_000)
            #expect(scene.transitions.map(\.id) == [ended[i].id])
            #expect(ended[i].retainedBytes == ended[i].estimatedBytes && ended[i].retainedBytes > Transition.recordBytes)
        }
        #expect(scene.transition(ended[0].id) == nil)
        // A budget of three of them keeps the most recent ones that fit, and no more.
        var config = EngineConfig()
        config.timelineRetentionBytes = 3 * ended[3].retainedBytes
        let (other, otherContainer, _, _) = try makeScene(recorder: EventRecorder(), config: config)
        var all: [Transition] = []
        for i in 0..<8 {
            all.append(try #require(try other.select(otherContainer, index: (i + 1) % 2).transition))
            other.advance(by: 1_100_000_000)
            let kept = other.transitions
            let bytes = kept.reduce(0) { $0 + $1.retainedBytes }
            #expect(bytes <= config.timelineRetentionBytes)
            #expect(kept.map(\.id) == all.suffix(kept.count).map(\.id))  // the newest, in start order
            if kept.count < all.count {
                // The next older one would not have fitted.
                #expect(bytes + all[all.count - kept.count - 1].retainedBytes > config.timelineRetentionBytes)
            }
        }
        #expect(other.transitions.count >= 2 && other.transitions.count <= 3)
    }

    @Test("a timeline replays a finished transition exactly: every tick's presentation values, rebuilt from it")
    func timelineReplay() throws {
        let recorder = EventRecorder()
        let (scene, container, a, b) = try makeScene(recorder: recorder)
        let transition = try #require(try scene.select(container, index: 1).transition)
        var seen: [(Int64, [Double], [Double])] = []
        while !transition.isEnded {
            scene.step(frames: 1)
            seen.append((scene.now, a.view.presentation.channels, b.view.presentation.channels))
        }
        #expect(seen.count > 50)
        // Few full samples: the start, the completion's resets, the end — not one per tick.
        #expect(transition.timeline.samples.count < 6)
        for (time, aValues, bValues) in seen.dropLast() {
            let sample = try #require(transition.timeline.sample(at: time))
            let views = sample.views
            let ra = try #require(views.first { $0.id == "a.view" }), rb = try #require(views.first { $0.id == "b.view" })
            for (x, y) in zip(ra.values.channels, aValues) { #expect(abs(x - y) < 1e-9) }
            for (x, y) in zip(rb.values.channels, bValues) { #expect(abs(x - y) < 1e-9) }
        }
        // After the end: the final state (a.view gone, b.view in place).
        let end = try #require(transition.timeline.sample(at: scene.now + 1))
        #expect(end.views.map(\.id) == ["c.view", "b.view"])
    }

    @Test("a set animates with the innermost open block (its options, its group, its keyframes); the outer one's again once it closes")
    func innermostBlock() throws {
        let (scene, view, _) = try makeViewScene()
        var done: [String] = []
        scene.beginAnimations(AnimationOptions(duration: 2, timing: .curve(.linear)), completion: { _ in done.append("outer") })
        scene.beginAnimations(AnimationOptions(duration: 0.5, timing: .curve(.easeIn)), completion: { _ in done.append("inner") })
        scene.set(view, alpha: 0)
        scene.set(view, z: 3)  // not animated: set at once, also inside a block
        scene.beginKeyframes(AnimationOptions(duration: 0.8, timing: .curve(.linear)), completion: { _ in done.append("keys") })
        scene.addKeyframe(start: 0, duration: 1) { scene.set(view, bounds: Rect(x: 0, y: 0, w: 50, h: 50)) }
        scene.commitAnimations()
        scene.set(view, color: Color(r: 1, g: 0, b: 0, a: 1))
        scene.commitAnimations()
        scene.set(view, center: Point(x: 10, y: 10))
        scene.commitAnimations()
        let alpha = try #require(view.animations[ViewProperty.alpha.rawValue])
        let color = try #require(view.animations[ViewProperty.color.rawValue])
        let bounds = try #require(view.animations[ViewProperty.bounds.rawValue])
        let center = try #require(view.animations[ViewProperty.center.rawValue])
        #expect(alpha.duration == 0.5 && color.duration == 0.5 && bounds.duration == 0.8 && center.duration == 2)
        #expect(alpha.timing == .curve(.easeIn) && center.timing == .curve(.linear))
        #expect(alpha.group === color.group && alpha.group !== center.group && bounds.group !== alpha.group)
        #expect(bounds.keyframes != nil && alpha.keyframes == nil && center.keyframes == nil)
        #expect(view.z == 3 && view.animations[ViewProperty.z.rawValue] == nil)
        _ = scene.advance(by: 600_000_000)
        #expect(done == ["inner"])
        _ = scene.advance(by: 300_000_000)
        #expect(done == ["inner", "keys"])
        _ = scene.advance(by: 2_000_000_000)
        #expect(done == ["inner", "keys", "outer"])
    }
}
