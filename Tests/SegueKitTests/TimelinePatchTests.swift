import Testing

@testable import SegueKit

/// A tick in which a value was set outside an animation samples every running transition's container again; while
/// the first sample is deferred and the subtree keeps its shape, that sample is a patch on the first one (the views
/// changed since, Timeline+Patch), not a walk. Made full it must be the walk the tick would have taken — before the
/// transition ends, after, and after later transitions moved the live tree on.
@Suite("Timeline samples as patches on the first one")
struct TimelinePatchTests: SampleReference {
    /// Every sample of `timeline` is the reference walked at its time, in order.
    func expectReplay(_ timeline: Timeline, _ references: [Timeline.Sample],
                      sourceLocation: SourceLocation = #_sourceLocation)
    {
        let samples = timeline.samples
        #expect(samples.count == references.count, sourceLocation: sourceLocation)
        for (sample, reference) in zip(samples, references) { expectSame(sample, reference, sourceLocation: sourceLocation) }
        // Replay between samples starts from them (render.*): the same instants give the same pictures.
        for reference in references {
            let replayed = timeline.sample(at: reference.time)
            #expect(replayed?.channels.count == reference.channels.count, sourceLocation: sourceLocation)
        }
    }

    /// Steps `t` to its end, frame by frame, and walks the subtree as its final sample took it.
    func finish(_ t: Transition, _ scene: Scene, _ root: View) -> Timeline.Sample {
        var frames = 0
        while t.state != .completed && frames < 1000 {
            scene.step(frames: 1)
            frames += 1
        }
        return walked(root, at: t.endedAt ?? scene.now)
    }

    /// A crowded container, one view masked, an off-screen view, a second container to write in.
    func crowded(_ crowd: Int) throws -> (Scene, ContainerViewController, [View], View, StaticProvider) {
        let (scene, _, c, _, _, views, provider) = try BaselineTests().crowded(crowd)
        let mask = try scene.makeView(id: "mask", frame: Rect(x: 0, y: 0, w: 4, h: 4))
        #expect(scene.setMask(views[9], mask) == nil)
        let outside = try scene.makeView(id: "outside", frame: Rect(x: 0, y: 0, w: 4, h: 4))
        return (scene, c, views, outside, provider)
    }

    @Test("value writes while the first sample is deferred are patches, each the walk of its tick, until the shape changes")
    func writesArePatches() throws {
        let (scene, c, views, outside, provider) = try crowded(200)
        _ = provider
        scene.animate(AnimationOptions(duration: 3, timing: .curve(.linear))) { scene.set(views[5], alpha: 0) }
        scene.step(frames: 3)
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        var references = [walked(c.view, at: scene.now)]
        // Writes of every kind that keep the subtree's shape: each tick's sample is a patch.
        let writes: [() -> Void] = [
            { scene.set(outside, alpha: 0.3) },
            { scene.set(views[7], alpha: 0.2) },
            { scene.set(views[13], frame: Rect(x: 1, y: 2, w: 3, h: 4)) },
            { scene.set(views[20], hidden: true) },
            { scene.set(views[21], z: 4) },
            { scene.set(views[23], alpha: 0.1); scene.set(outside, alpha: 0.6) },
            { if let mask = scene.view("mask") { scene.set(mask, alpha: 0.5) } },
            { scene.makeGradient(views[30], GradientValues(colors: [Color(r: 1, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 1, a: 1)])) },
            { scene.set(views[7], alpha: 0.9) },
        ]
        for write in writes {
            write()
            scene.step(frames: 1)
            references.append(walked(c.view, at: scene.now))
        }
        #expect(t.timeline.deferred != nil)
        #expect(t.timeline.patches.count == writes.count)
        #expect(t.timeline.taken.isEmpty)
        // Read while it runs: the first made full from the live tree, the patches on it.
        expectReplay(t.timeline, references)
        // A change of shape in the subtree: a walk, and every sample after it too.
        scene.addSubview(views[41], to: views[42])
        scene.step(frames: 1)
        references.append(walked(c.view, at: scene.now))
        scene.set(views[8], alpha: 0.4)
        scene.step(frames: 1)
        references.append(walked(c.view, at: scene.now))
        #expect(t.timeline.patches.count == writes.count)
        #expect(t.timeline.taken.count == 2)
        references.append(finish(t, scene, c.view))
        #expect(t.state == .completed)
        expectReplay(t.timeline, references)
        #expect(t.estimatedBytes > 0)
        #expect(scene.journals.openRecorders == 0)
    }

    @Test("a retained transition's patches replay the same after later transitions moved the tree on")
    func replayAfterLaterTransitions() throws {
        let (scene, c, views, outside, provider) = try crowded(100)
        _ = provider
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        var references = [walked(c.view, at: scene.now)]
        for k in 0..<5 {
            scene.set(views[k * 3], alpha: 0.1 * Double(k + 1))
            scene.set(outside, alpha: 0.1 * Double(k + 1))
            scene.step(frames: 1)
            references.append(walked(c.view, at: scene.now))
            scene.step(frames: 1)
        }
        references.append(finish(t, scene, c.view))
        #expect(t.state == .completed && t.timeline.patches.count == 5)
        expectReplay(t.timeline, references)
        // Later transitions and writes change every view the patches name.
        for round in 0..<2 {
            let next = try #require(try scene.select(c, index: round % 2 == 0 ? 0 : 1, animator: "fade-slide").transition)
            for k in 0..<5 { scene.set(views[k * 3], alpha: 0.95) }
            scene.removeFromSuperview(views[1])
            scene.step(frames: 2)
            scene.advance(by: 3_000_000_000)
            #expect(next.state == .completed)
        }
        expectReplay(t.timeline, references)
    }

    @Test("a changed mask of a view in the subtree, or a list changed inside it, makes the sample a walk")
    func shapeChangesWalk() throws {
        let (scene, c, views, _, provider) = try crowded(60)
        _ = provider
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        var references = [walked(c.view, at: scene.now)]
        let other = try scene.makeView(id: "mask2", frame: Rect(x: 0, y: 0, w: 2, h: 2))
        #expect(scene.setMask(views[9], other) == nil)
        scene.step(frames: 1)
        references.append(walked(c.view, at: scene.now))
        #expect(t.timeline.patches.isEmpty && t.timeline.taken.count == 1)
        references.append(finish(t, scene, c.view))
        expectReplay(t.timeline, references)

        let u = try #require(try scene.select(c, index: 0, animator: "fade-slide").transition)
        var second = [walked(c.view, at: scene.now)]
        let made = try scene.makeView(id: "made", frame: Rect(x: 0, y: 0, w: 5, h: 5))
        scene.addSubview(made, to: views[30])
        scene.step(frames: 1)
        second.append(walked(c.view, at: scene.now))
        #expect(u.timeline.patches.isEmpty && u.timeline.taken.count == 1)
        second.append(finish(u, scene, c.view))
        expectReplay(u.timeline, second)
    }

    @Test("a subtree no larger than the views kept for the open recorders is walked, not patched")
    func smallSubtreeWalks() throws {
        let (scene, _, c, _, _, _, provider) = try BaselineTests().crowded(0)
        _ = provider
        var outside: [View] = []
        for i in 0..<20 { outside.append(try scene.makeView(id: "o\(i)", frame: Rect(x: 0, y: 0, w: 2, h: 2))) }
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        var references = [walked(c.view, at: scene.now)]
        for view in outside { scene.set(view, alpha: 0.5) }
        scene.step(frames: 1)
        references.append(walked(c.view, at: scene.now))
        #expect(t.timeline.patches.isEmpty && t.timeline.taken.count == 1)
        references.append(finish(t, scene, c.view))
        expectReplay(t.timeline, references)
    }

    @Test("a list changed outside the subtree still leaves the sample a patch")
    func outsideListChange() throws {
        let (scene, c, _, outside, provider) = try crowded(30)
        _ = provider
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        var references = [walked(c.view, at: scene.now)]
        let away = try scene.makeView(id: "away", frame: Rect(x: 0, y: 0, w: 3, h: 3))
        scene.addSubview(away, to: outside)
        scene.step(frames: 1)
        references.append(walked(c.view, at: scene.now))
        #expect(t.timeline.patches.count == 1 && t.timeline.taken.isEmpty)
        references.append(finish(t, scene, c.view))
        expectReplay(t.timeline, references)
    }
}
