/// A finished timeline's storage made exact (issue 24: memory per scene after 100 transitions). The samples and the
/// animation list are built while the transition runs with room to grow (`Timeline.walk` reserves channels for at
/// least four views, `started` room for eight animations), and a retained transition kept that room: a 2-view
/// sample's channels held 1 952 bytes for 976 used, so that `Timeline.estimatedBytes`, which counts what is used,
/// undercounted each retained transition of a two-child container by ~1.6 KB (9.0 KB resident against 7.1 KB
/// counted). What the timeline replays is unchanged: the same values in smaller storage.
extension Timeline {
    /// Called once, when the transition has ended (`TransitionLedger.recordEnd`, before its bytes are counted):
    /// each sample's channels, the sample list and the animation list hold no spare capacity.
    mutating func compact() {
        guard isFinished, deferred == nil else { return }
        for i in taken.indices where Timeline.hasSlack(taken[i].channels) {
            taken[i].channels = Timeline.exactly(taken[i].channels)
        }
        if Timeline.hasSlack(taken) { taken = Timeline.exactly(taken) }
        if Timeline.hasSlack(patches) { patches = Timeline.exactly(patches) }
        if Timeline.hasSlack(animations) { animations = Timeline.exactly(animations) }
    }

    /// Whether `array` holds more spare room than malloc's rounding (16 bytes) would leave in a copy: storage
    /// reserved exactly (Timeline+Exact) is not copied again for nothing.
    static func hasSlack<Element>(_ array: [Element]) -> Bool {
        (array.capacity - array.count) * MemoryLayout<Element>.stride >= 16
    }

    /// `array`'s elements in storage of exactly their count (up to malloc's rounding).
    static func exactly<Element>(_ array: [Element]) -> [Element] {
        var copy: [Element] = []
        copy.reserveCapacity(array.count)
        copy.append(contentsOf: array)
        return copy
    }
}
