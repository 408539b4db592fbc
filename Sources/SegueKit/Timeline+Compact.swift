/// A finished timeline's storage made exact (issue 24: memory per scene after 100 transitions). The samples and the
/// animation list are built while the transition runs with room to grow (`Timeline.walk` reserves for at least four
/// views, `started` for eight animations); a retained transition kept that room — a 2-view sample's channels held
/// 1 952 bytes for 976 used, and `Timeline.estimatedBytes`, which counts what is used, undercounted each retained
/// transition by ~1.8 KB. And a transition's first sample is, in a container run back to back, the state the one
/// before it ended in: then it shares that sample's storage (its shape and channels) instead of holding a copy.
/// What the timeline replays is unchanged: the same values, bit for bit.
extension Timeline {
    /// Called once, when the transition has ended (`TransitionLedger.recordEnd`, before its bytes are counted):
    /// each sample's channels and the animation list hold no spare capacity, and the first sample shares the
    /// storage of `previous`'s last one when the two are the same subtree in the same state.
    mutating func compact(sharingWith previous: Timeline?) {
        guard isFinished, deferred == nil, !taken.isEmpty else { return }
        if let previous, let last = previous.taken.last, Timeline.sameState(taken[0], last) {
            taken[0] = Sample(time: taken[0].time, structure: last.structure, channels: last.channels,
                              gradients: last.gradients)
        }
        for i in taken.indices where taken[i].channels.capacity > taken[i].channels.count {
            taken[i].channels = Timeline.exactly(taken[i].channels)
        }
        if taken.capacity > taken.count { taken = Timeline.exactly(taken) }
        if animations.capacity > animations.count { animations = Timeline.exactly(animations) }
    }

    /// The same views in the same shape and the same values, bit for bit (a -0 is not a 0): one can stand for the
    /// other in every replay. Samples with gradients are not compared (rare; they keep their own storage).
    static func sameState(_ a: Sample, _ b: Sample) -> Bool {
        guard a.gradients.isEmpty, b.gradients.isEmpty, Timeline.sameBits(a.channels, b.channels) else { return false }
        let s = a.structure, t = b.structure
        if s === t { return true }
        guard s.views.count == t.views.count, s.parents == t.parents, s.hidden == t.hidden, s.masks == t.masks,
              Timeline.sameBits(s.z, t.z)
        else { return false }
        for i in s.views.indices where s.views[i] !== t.views[i] { return false }
        return true
    }

    /// The same doubles, bit for bit.
    static func sameBits(_ a: [Double], _ b: [Double]) -> Bool {
        guard a.count == b.count else { return false }
        for i in a.indices where a[i].bitPattern != b[i].bitPattern { return false }
        return true
    }

    /// `array`'s elements in storage of exactly their count.
    static func exactly<Element>(_ array: [Element]) -> [Element] {
        var copy: [Element] = []
        copy.reserveCapacity(array.count)
        copy.append(contentsOf: array)
        return copy
    }
}
