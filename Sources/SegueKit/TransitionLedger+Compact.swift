extension TransitionLedger {
    /// The ended transition recording the same subtree that `transition` (ending now) follows most closely in start
    /// order: its last sample is usually `transition`'s first (Timeline.compact shares it). Looked for among the
    /// few transitions just before it, so an end costs O(1) however many the scene keeps.
    func lastEnded(before transition: Transition) -> Transition? {
        guard let root = transition.timelineRoot else { return nil }
        var looked = 0
        for candidate in transitionOrder.reversed() where candidate !== transition {
            looked += 1
            if looked > 8 { return nil }
            if candidate.isEnded, candidate.timelineRoot === root { return candidate }
        }
        return nil
    }
}
