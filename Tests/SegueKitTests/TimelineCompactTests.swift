import Testing

@testable import SegueKit

/// Issue 24 (memory per scene): an ended transition's timeline holds no spare capacity, and replays the same.
@Suite("Timeline compaction at a transition's end")
struct TimelineCompactTests {
    @Test("an ended transition's samples and animation list keep no spare room, and replay the same values")
    func exactAfterEnd() throws {
        let (scene, container, _, _) = try makeScene(recorder: EventRecorder())
        let t = try #require(try scene.select(container, index: 1).transition)
        scene.advance(by: 100_000_000)
        // While it runs: the walk's room is still there (the first sample reserved for four views).
        let mid = try #require(t.timeline.sample(at: scene.now))
        let midChannels = mid.channels
        scene.advance(by: 1_000_000_000)
        #expect(t.isEnded && t.timeline.samples.count == 2)
        for sample in t.timeline.taken {
            // Exact, up to malloc's rounding to 16 bytes.
            #expect(sample.channels.capacity <= sample.channels.count + 1)
            #expect(sample.channels.count == sample.structure.views.count * ViewProperty.channelCount)
        }
        #expect(t.timeline.taken.capacity <= t.timeline.taken.count + 1)
        #expect(t.timeline.animations.capacity <= t.timeline.animations.count + 1 && !t.timeline.animations.isEmpty)
        // The same replay from the compact storage.
        #expect(t.timeline.sample(at: t.startedAt + 100_000_000)?.channels == midChannels)
        #expect(t.timeline.sample(at: t.startedAt)?.views.map(\.id) == ["c.view", "a.view", "b.view"])
        #expect(t.retainedBytes == t.estimatedBytes)
    }

    @Test("a running transition's timeline is not compacted (it still grows)")
    func notWhileRunning() throws {
        let (scene, container, _, _) = try makeScene(recorder: EventRecorder())
        let t = try #require(try scene.select(container, index: 1).transition)
        scene.advance(by: 100_000_000)
        var timeline = t.timeline
        let before = timeline.animations.capacity
        timeline.compact()
        #expect(!timeline.isFinished && timeline.animations.capacity == before)
    }

    @Test("exactly: the same elements, capacity their count")
    func exactly() {
        var a: [Double] = []
        a.reserveCapacity(64)
        a.append(contentsOf: [1, -0.0, .nan])
        let b = Timeline.exactly(a)
        #expect(b.count == 3 && b.capacity < 64)
        #expect(zip(a, b).allSatisfy { $0.bitPattern == $1.bitPattern })
    }
}
