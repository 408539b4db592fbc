import Testing

@testable import SegueKit

/// The reference a timeline sample taken without a walk (deferred, or a patch on a deferred one) is held to: the
/// whole subtree walked at that instant, compared field by field (DeferredSampleTests, TimelinePatchTests).
protocol SampleReference {}

extension SampleReference {
    /// The whole subtree walked now.
    func walked(_ root: View, at time: Int64) -> Timeline.Sample {
        Timeline.walk(root, at: time, expected: 4) { _, _ in false }
    }

    func expectSame(_ a: Timeline.Sample, _ b: Timeline.Sample, sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(a.time == b.time, sourceLocation: sourceLocation)
        #expect(a.structure.ids == b.structure.ids, sourceLocation: sourceLocation)
        #expect(a.structure.parents == b.structure.parents, sourceLocation: sourceLocation)
        #expect(a.structure.hidden == b.structure.hidden, sourceLocation: sourceLocation)
        #expect(a.structure.z == b.structure.z, sourceLocation: sourceLocation)
        #expect(a.structure.masks == b.structure.masks, sourceLocation: sourceLocation)
        #expect(a.channels == b.channels, sourceLocation: sourceLocation)
        #expect(a.gradients == b.gradients, sourceLocation: sourceLocation)
    }
}
