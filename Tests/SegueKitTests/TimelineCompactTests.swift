import Testing

@testable import SegueKit

/// Issue 24 (memory per scene): an ended transition's timeline holds no spare capacity, and its first sample shares
/// the storage of the previous transition's last one when they are the same state — with the same replay.
@Suite("Timeline compaction at a transition's end")
struct TimelineCompactTests {
    @Test("back to back: the first sample shares the previous one's last sample, and no sample keeps spare room")
    func sharesBackToBack() throws {
        let (scene, container, _, _) = try makeScene(recorder: EventRecorder())
        var ended: [Transition] = []
        for i in 0..<3 {
            ended.append(try #require(try scene.select(container, index: (i + 1) % 2).transition))
            scene.advance(by: 1_100_000_000)
        }
        for t in ended {
            #expect(t.isEnded && t.timeline.samples.count == 2)
            for sample in t.timeline.taken {
                // Exact, up to malloc's rounding to 16 bytes.
                #expect(sample.channels.capacity <= sample.channels.count + 1)
            }
            #expect(t.timeline.animations.capacity <= t.timeline.animations.count + 1)
        }
        for (before, after) in zip(ended, ended.dropFirst()) {
            let last = try #require(before.timeline.taken.last), first = try #require(after.timeline.taken.first)
            #expect(first.structure === last.structure)
            #expect(first.time == after.startedAt && last.time == before.endedAt)
            #expect(first.channels.withUnsafeBufferPointer { $0.baseAddress }
                    == last.channels.withUnsafeBufferPointer { $0.baseAddress })
        }
    }

    @Test("a change between two transitions: the next one's first sample keeps its own storage, with the new value")
    func changedBetween() throws {
        let (scene, container, _, _) = try makeScene(recorder: EventRecorder())
        let first = try #require(try scene.select(container, index: 1).transition)
        scene.advance(by: 1_100_000_000)
        scene.set(container.view, alpha: 0.5)
        let second = try #require(try scene.select(container, index: 0).transition)
        scene.advance(by: 1_100_000_000)
        let last = try #require(first.timeline.taken.last), start = try #require(second.timeline.taken.first)
        #expect(start.structure !== last.structure)
        #expect(start.views.first?.values.alpha == 0.5 && last.views.first?.values.alpha == 1)
        #expect(second.timeline.sample(at: second.startedAt)?.views.first?.values.alpha == 0.5)
    }

    @Test("samples the same but for a -0 against a 0 are not the same state")
    func signedZero() {
        #expect(Timeline.sameBits([0, 1], [0, 1]))
        #expect(!Timeline.sameBits([0, 1], [-0.0, 1]))
        #expect(!Timeline.sameBits([0], [0, 0]))
    }
}
