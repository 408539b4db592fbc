import Testing

@testable import SegueKit

/// Issue 24 (a transition's end): a sample's walk reserves exactly the views it takes (Timeline+Exact), so it does
/// not keep room `Timeline.compact` must copy away; the samples are the same.
@Suite("Timeline samples sized exactly")
struct TimelineExactTests {
    @Test("the count of the live subtree is the walk's, masks included")
    func liveCount() throws {
        let (scene, c, views, provider) = try DeferredSampleTests().crowded(50)
        _ = provider
        scene.addSubview(views[3], to: views[4])
        let walked = Timeline.walk(c.view, at: scene.now, expected: 1) { _, _ in false }
        #expect(walked.structure.masks != nil)
        #expect(Timeline.count(c.view) == walked.structure.views.count)
    }

    @Test("a count stops past its limit, and a crowded subtree's sample is reserved as the last one's")
    func boundedCount() throws {
        let (scene, c, _, provider) = try DeferredSampleTests().crowded(200)
        _ = provider
        let full = Timeline.count(c.view)
        #expect(full > Timeline.exactLimit)
        let bounded = Timeline.count(c.view, upTo: 10)
        #expect(bounded > 10 && bounded < full)
        #expect(Timeline.count(c.view, upTo: full) == full)
        var timeline = Timeline()
        // No sample yet: the count as far as it went (past the limit, short of the subtree).
        let first = timeline.expectedViews(c.view)
        #expect(first > Timeline.exactLimit && first < full)
        timeline.record(c.view, at: scene.now, structureVersion: 1, valueVersion: 1)
        #expect(timeline.taken.last?.structure.views.count == full)
        #expect(timeline.expectedViews(c.view) == full)
    }

    @Test("an ended transition's samples were taken exact: compact copies none of them")
    func endedExact() throws {
        let (scene, c, _, provider) = try DeferredSampleTests().crowded(30)
        _ = provider
        let t = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition)
        scene.step(frames: 3)
        scene.advance(by: 3_000_000_000)
        #expect(t.state == .completed && t.timeline.taken.count >= 2)
        for sample in t.timeline.taken {
            #expect(!Timeline.hasSlack(sample.channels))
            #expect(sample.channels.count == sample.structure.views.count * ViewProperty.channelCount)
        }
        #expect(!Timeline.hasSlack(t.timeline.taken))
    }

    @Test("hasSlack: more spare room than malloc's 16-byte rounding")
    func slack() {
        var a: [Double] = []
        a.reserveCapacity(64)
        a.append(contentsOf: [1, 2, 3])
        #expect(Timeline.hasSlack(a))
        #expect(!Timeline.hasSlack(Timeline.exactly(a)))
    }
}
