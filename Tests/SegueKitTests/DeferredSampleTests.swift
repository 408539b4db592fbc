import Testing

@testable import SegueKit

/// A transition's first timeline sample is taken without a walk of its container's subtree (DeferredSample, issue
/// 24) and made full later: it must be the sample a walk at the start gave, whatever changed in between.
@Suite("Deferred first timeline samples")
struct DeferredSampleTests: SampleReference {
    /// BaselineTests' crowded container, one of its views masked.
    func crowded(_ crowd: Int) throws -> (Scene, ContainerViewController, [View], StaticProvider) {
        let (scene, _, c, _, _, views, provider) = try BaselineTests().crowded(crowd)
        let mask = try scene.makeView(id: "mask", frame: Rect(x: 0, y: 0, w: 4, h: 4))
        #expect(scene.setMask(views[9], mask) == nil)
        return (scene, c, views, provider)
    }

    @Test("the first sample, made full at the end, is the walk at the start, after client writes of every kind")
    func firstSampleAfterWrites() throws {
        let (scene, c, views, provider) = try crowded(200)
        _ = provider
        // An animation running before the start changes its view without a touch.
        scene.animate(AnimationOptions(duration: 3, timing: .curve(.linear))) { scene.set(views[5], alpha: 0) }
        scene.step(frames: 10)
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        let start = walked(c.view, at: scene.now)
        #expect(t.timeline.deferred != nil)
        // Read while it runs: made full from the live tree.
        expectSame(try #require(t.timeline.samples.first), start)
        scene.step(frames: 5)
        scene.set(views[7], alpha: 0.2)
        scene.set(views[13], frame: Rect(x: 1, y: 2, w: 3, h: 4))
        scene.set(views[20], hidden: true)
        scene.set(views[21], z: 4)
        scene.bringToFront(views[0])
        scene.addSubview(views[41], to: views[42])
        scene.removeFromSuperview(views[44])
        scene.destroyView(views[45])
        let other = try scene.makeView(id: "mask2", frame: Rect(x: 0, y: 0, w: 2, h: 2))
        #expect(scene.setMask(views[9], other) == nil)
        scene.set(try #require(scene.view("mask")), alpha: 0.5)
        let made = try scene.makeView(id: "made", frame: Rect(x: 0, y: 0, w: 5, h: 5))
        scene.addSubview(made, to: views[60])
        scene.step(frames: 1)
        let second = walked(c.view, at: scene.now)
        // The frame took a full sample after it; the first is still deferred (no frame makes it full).
        #expect(t.timeline.deferred != nil)
        scene.advance(by: 3_000_000_000)
        #expect(t.state == .completed)
        #expect(t.timeline.deferred == nil)
        #expect(scene.journals.openRecorders == 0)
        let samples = t.timeline.samples
        #expect(samples.count >= 3)
        expectSame(samples[0], start)
        expectSame(samples[1], second)
        // The replay at instants before the second sample starts from the first.
        let early = try #require(t.timeline.sample(at: start.time + 40_000_000))
        #expect(early.structure.ids == start.structure.ids)
    }

    @Test("with nothing changed until the end the first sample still is the walk at the start")
    func firstSampleUntouched() throws {
        let (scene, c, _, provider) = try crowded(100)
        _ = provider
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        let start = walked(c.view, at: scene.now)
        scene.advance(by: 3_000_000_000)
        #expect(t.state == .completed)
        expectSame(try #require(t.timeline.samples.first), start)
        #expect(t.estimatedBytes > 0)
    }

    @Test("two transitions' deferred samples at once, each the walk at its own start")
    func twoDeferred() throws {
        let (scene, c, d, crowd, provider) = try twoContainers(crowd: 20)
        _ = provider
        let t1 = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        let start1 = walked(c.view, at: scene.now)
        scene.animate(AnimationOptions(duration: 0.5)) { scene.set(crowd[0], alpha: 0.5) }
        scene.addSubview(crowd[2], to: d.view)
        let t2 = try #require(try scene.select(d, index: 1, animator: "fade-slide").transition)
        let start2 = walked(d.view, at: scene.now)
        scene.animate(AnimationOptions(duration: 0.5)) { scene.set(crowd[1], alpha: 0.5) }
        scene.addSubview(crowd[3], to: c.view)
        scene.advance(by: 3_000_000_000)
        expectSame(try #require(t1.timeline.samples.first), start1)
        expectSame(try #require(t2.timeline.samples.first), start2)
    }
}
