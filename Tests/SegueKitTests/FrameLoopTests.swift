import Testing

@testable import SegueKit

/// The per-frame loop (`AnimationClock.evaluate` over `AnimationTrack`s) and the changed-view list it leaves: the
/// values it writes are the animation objects' to the bit, the progress it reuses is only a block's own, and the
/// views of a frame come out in creation order however the loop listed them.
@Suite("Frame loop: tracks, shared progress, the changed views' order")
struct FrameLoopTests {
    /// A scene with `count` views in the window.
    static func scene(views count: Int) throws -> (Scene, [View]) {
        let scene = Scene(id: "loop", size: Size(w: 320, h: 480), clock: .manual, fps: 120)
        var views: [View] = []
        for i in 0..<count {
            let view = try scene.makeView(id: "v\(i)", frame: Rect(x: 0, y: Double(i), w: 100, h: 100))
            scene.addSubview(view, to: scene.window)
            views.append(view)
        }
        return (scene, views)
    }

    /// Every running animation's view shows what the animation object computes for now, to the bit.
    static func showsObjectsValues(_ scene: Scene) -> [String] {
        var wrong: [String] = []
        for animation in scene.clock.running where !animation.removed {
            let elapsed = scene.now - animation.begin
            guard elapsed >= 0, elapsed < animation.activeNs else { continue }
            let shown = Array(animation.view.presentation.get(animation.property))
            let expected = animation.values(atElapsed: elapsed)
            if shown.map(\.bitPattern) != expected.map(\.bitPattern) {
                wrong.append("\(animation.view.id).\(animation.property): \(shown) ≠ \(expected)")
            }
        }
        return wrong
    }

    @Test("the loop writes each view's values as the animation objects compute them, to the bit, whatever mode")
    func sameBits() throws {
        let (scene, views) = try Self.scene(views: 6)
        let spring = Timing.spring(try #require(Spring(dampingRatio: 0.75, initialVelocity: 0.5, duration: 1)))
        // The default animator's shape (both views' transform and alpha in one spring block), a curve block, a
        // repeating animation (evaluated by its object) between two tracks of one view, and a delayed one.
        scene.animate(AnimationOptions(duration: 1, timing: spring)) {
            scene.set(views[0], transform: .translation(-336, 0))
            scene.set(views[0], alpha: 0)
            scene.set(views[1], transform: .identity)
            scene.set(views[1], alpha: 1)
        }
        scene.animate(AnimationOptions(duration: 0.7, timing: .curve(.easeInOut))) {
            scene.set(views[2], center: Point(x: 200, y: 300))
            scene.set(views[2], color: Color(r: 1, g: 0, b: 0, a: 1))
        }
        scene.animate(AnimationOptions(duration: 0.3, timing: .curve(.linear), repeatCount: 2)) { scene.set(views[2], alpha: 0.25) }
        scene.animate(AnimationOptions(duration: 0.5, timing: .curve(.linear))) {
            scene.set(views[2], .cornerRadius, [12])
        }
        scene.animate(AnimationOptions(duration: 0.4, delay: 0.2, timing: .curve(.easeOut))) { scene.set(views[3], bounds: Rect(x: 0, y: 0, w: 40, h: 40)) }
        // Keyframe blocks (the loop's `keyframed` mode): linear on a curve, and cubic.
        scene.beginKeyframes(AnimationOptions(duration: 0.9, timing: .curve(.easeIn)), completion: nil)
        scene.addKeyframe(start: 0, duration: 0.3) { scene.set(views[4], center: Point(x: 90, y: 10)) }
        scene.addKeyframe(start: 0.5, duration: 0.5) { scene.set(views[4], center: Point(x: -20, y: 70)) }
        scene.commitAnimations()
        scene.beginKeyframes(AnimationOptions(duration: 0.8, timing: .curve(.linear)), calculationMode: .cubic,
                             completion: nil)
        scene.addKeyframe(start: 0, duration: 0.4) { scene.set(views[5], alpha: 0.2) }
        scene.addKeyframe(start: 0.4, duration: 0.3) { scene.set(views[5], alpha: 0.9) }
        scene.addKeyframe(start: 0.7, duration: 0.3) { scene.set(views[5], alpha: 0.4) }
        scene.commitAnimations()
        let modes = Set(scene.clock.running.tracks.map(\.mode))
        #expect(modes.contains(.affine) && modes.contains(.line) && modes.contains(.general) && modes.contains(.keyframed),
                "\(modes)")
        for _ in 0..<130 {
            _ = scene.step(frames: 1)
            let wrong = Self.showsObjectsValues(scene)
            #expect(wrong.isEmpty, "\(scene.now): \(wrong)")
            if !wrong.isEmpty { break }
        }
    }

    @Test("the changed-view list and dirty bits are a per-track check's: a view listed once per run of its tracks, again after a track it did not write (not begun), never once written; removed tracks list nothing")
    func changedViewsPerRun() throws {
        let (scene, views) = try Self.scene(views: 4)
        let linear = Timing.curve(.linear)
        scene.animate(AnimationOptions(duration: 1, timing: linear)) {
            scene.set(views[0], transform: .translation(10, 0))
            scene.set(views[0], alpha: 0.5)
        }
        // A track not begun (listed, no bit) before a written one of the same view: listed twice, as per track.
        scene.animate(AnimationOptions(duration: 1, delay: 0.5, timing: linear)) { scene.set(views[1], center: Point(x: 5, y: 5)) }
        scene.animate(AnimationOptions(duration: 1, timing: linear)) { scene.set(views[1], alpha: 0.5) }
        // A track the animation object evaluates (a repeat) inside a run of the view's tracks.
        scene.animate(AnimationOptions(duration: 1, timing: linear)) { scene.set(views[2], alpha: 0.5) }
        scene.animate(AnimationOptions(duration: 0.3, timing: linear, repeatCount: 2)) { scene.set(views[2], .cornerRadius, [3]) }
        scene.animate(AnimationOptions(duration: 1, timing: linear)) { scene.set(views[2], center: Point(x: 7, y: 7)) }
        scene.animate(AnimationOptions(duration: 1, timing: linear)) { scene.set(views[3], alpha: 0.5) }
        // A later track of a view already written this frame.
        scene.animate(AnimationOptions(duration: 1, timing: linear)) { scene.set(views[0], .cornerRadius, [4]) }
        let modes = scene.clock.running.tracks.map(\.mode)
        #expect(modes == [.affine, .line, .line, .line, .line, .general, .line, .line, .line], "\(modes)")
        _ = scene.step(frames: 1)
        scene.clock.removeAnimation(of: views[3], .alpha, finished: false)
        #expect(scene.tree.dirtyViews.isEmpty)
        scene.clock.move(to: scene.clock.nextFrameTime())
        scene.clock.evaluate()
        #expect(scene.tree.dirtyViews.map(\.id) == [views[0].id, views[1].id, views[1].id, views[2].id])
        let bits = { (properties: [ViewProperty]) in properties.reduce(UInt64(0)) { $0 | $1.changeBit } }
        #expect(views[0].dirty == bits([.transform, .alpha, .cornerRadius]))
        #expect(views[1].dirty == bits([.alpha]))
        #expect(views[2].dirty == bits([.alpha, .cornerRadius, .center]))
        #expect(views[3].dirty == 0)
        #expect(Self.showsObjectsValues(scene).isEmpty)
        _ = scene.tree.dropChanges()
    }

    @Test("the tracks one block made together share a progress key; another block's, or another timing, do not")
    func progressKeys() throws {
        let (scene, views) = try Self.scene(views: 3)
        let spring = Timing.spring(try #require(Spring(dampingRatio: 0.75, initialVelocity: 0.5, duration: 1)))
        scene.animate(AnimationOptions(duration: 1, timing: spring)) {
            scene.set(views[0], transform: .translation(10, 0))
            scene.set(views[0], alpha: 0.5)
            scene.set(views[1], alpha: 0.5)
        }
        scene.animate(AnimationOptions(duration: 1, timing: spring)) { scene.set(views[2], alpha: 0.5) }
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(views[2], .cornerRadius, [4])
        }
        let keys = scene.clock.running.tracks.map(\.progressKey)
        #expect(keys.count == 5)
        #expect(keys[0] == keys[1] && keys[1] == keys[2], "one block: \(keys)")
        #expect(Set(keys[2...]).count == 3, "other blocks: \(keys)")
    }

    @Test("changed views come out in creation order: nearly in order, far from it (past the move budget), repeated")
    func creationOrder() throws {
        let (_, views) = try Self.scene(views: 60)
        // Each pair swapped, as the frame loop lists a transition's from-view (made later) before its to-view.
        var pairs: [View] = []
        for i in stride(from: 0, to: views.count, by: 2) { pairs += [views[i + 1], views[i]] }
        ViewTree.sortBySerial(&pairs)
        #expect(pairs.map(\.serial) == views.map(\.serial))
        // Reversed: the insertion sort gives up past its budget and the standard sort finishes.
        var reversed = Array(views.reversed())
        ViewTree.sortBySerial(&reversed)
        #expect(reversed.map(\.serial) == views.map(\.serial))
        // A view listed twice stays listed twice, next to itself.
        var repeated = [views[3], views[1], views[3], views[0]]
        ViewTree.sortBySerial(&repeated)
        #expect(repeated.map(\.serial) == [views[0], views[1], views[3], views[3]].map(\.serial))
        var empty: [View] = []
        ViewTree.sortBySerial(&empty)
        #expect(empty.isEmpty)
    }

    @Test("an animation's ends, tested 2-D once when it starts, choose the path and the track the separate tests chose")
    func endsTestedOnce() throws {
        let (scene, views) = try Self.scene(views: 2)
        let spring = Timing.spring(try #require(Spring(dampingRatio: 0.5, initialVelocity: 0, duration: 1)))
        let rotated = Transform3D(a: 0, b: 1, c: -1, d: 0, tx: 3, ty: 0)
        // Two views taking turns, from what each shows to each target: a translation only (a straight line), a 2-D
        // scale and turn (decomposed), 3-D at either end or both, a non-invertible end, the sublayer transform, then
        // springs superseding running animations (a velocity carried over is not plain).
        let steps: [(ViewProperty, Transform3D, Timing)] = [
            (.transform, .translation(-336, 0), .curve(.linear)),
            (.transform, Transform3D(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0), .curve(.easeInOut)),
            (.transform, rotated, .curve(.linear)),
            (.transform, .rotation(0.5, 0, 1, 0), .curve(.linear)),
            (.transform, .perspective(500), .curve(.linear)),
            (.transform, .translation(10, 20), .curve(.linear)),
            (.transform, Transform3D(a: 0, b: 0, c: 0, d: 0, tx: 0, ty: 0), .curve(.linear)),
            (.sublayerTransform, .rotation(0.3, 1, 0, 0), .curve(.linear)),
            (.sublayerTransform, .translation(4, 4), .curve(.linear)),
            (.transform, rotated, spring),
            (.transform, .identity, spring),
        ]
        var modes: Set<AnimationTrack.Mode> = []
        for (i, (property, target, timing)) in steps.enumerated() {
            let view = views[i % 2]
            scene.animate(AnimationOptions(duration: 1, timing: timing)) { scene.set(view, property, target.values) }
            let animation = try #require(view.animations[property.stored.rawValue], "step \(i)")
            let (from, to) = (animation.from, animation.to)
            #expect(animation.straightAffine == (animation.plain && AnimationTrack.isAffinePair(from, to)), "step \(i)")
            if animation.carried == nil {
                #expect((animation.path == nil) == (AffineDecomposition.path(from: from, to: to) == nil), "step \(i)")
                #expect((animation.affinePath == nil) == (AffinePath(from: from, to: to) == nil), "step \(i)")
                #expect(animation.affinePath.map { [$0.start, $0.end] } == AffinePath(from: from, to: to).map { [$0.start, $0.end] },
                        "step \(i)")
            }
            let track = scene.clock.running.tracks[animation.trackIndex]
            modes.insert(track.mode)
            _ = scene.step(frames: 3)
            #expect(Self.showsObjectsValues(scene).isEmpty, "step \(i)")
        }
        #expect(modes == [.affine, .decomposed, .general], "\(modes)")
    }
}
