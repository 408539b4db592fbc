/// The animations running on a scene's clock, in start order: the animation objects (identity and bookkeeping)
/// and, at the same index, the value records the per-frame loop reads (`AnimationTrack`). Every change goes through
/// here so the two arrays and each animation's `trackIndex` stay in step.
struct RunningAnimations: Sequence {
    private(set) var animations: [PropertyAnimation] = []
    /// One record per animation, contiguous: what `AnimationClock.evaluate` walks each frame.
    var tracks: [AnimationTrack] = []
    /// The last `AnimationTrack.progressKey` given out.
    private var lastProgressKey = 0

    var count: Int { animations.count }
    var isEmpty: Bool { animations.isEmpty }
    subscript(i: Int) -> PropertyAnimation { animations[i] }

    func makeIterator() -> IndexingIterator<[PropertyAnimation]> { animations.makeIterator() }

    mutating func append(_ animation: PropertyAnimation) {
        animation.trackIndex = animations.count
        animations.append(animation)
        var track = AnimationTrack(animation)
        // The animations one block made together are appended one after the other: a track that shares its
        // progress with the one before gets its key, any other a new one (two tracks that share it but are not
        // neighbours compute it each, to the same bits).
        let last = tracks.count - 1
        if last >= 0, track.sharesProgress(with: tracks[last]) {
            track.progressKey = tracks[last].progressKey
        } else {
            lastProgressKey += 1
            track.progressKey = lastProgressKey
        }
        tracks.append(track)
    }

    mutating func append(contentsOf more: [PropertyAnimation]) {
        for animation in more { append(animation) }
    }

    /// Drops the animations `shouldRemove` picks (their `trackIndex` becomes −1), keeping the order of the rest.
    mutating func removeAll(where shouldRemove: (PropertyAnimation) -> Bool) {
        var kept = 0
        for i in animations.indices {
            let animation = animations[i]
            if shouldRemove(animation) {
                animation.trackIndex = -1
                continue
            }
            if kept != i {
                animations[kept] = animation
                tracks[kept] = tracks[i]
                animation.trackIndex = kept
            }
            kept += 1
        }
        guard kept < animations.count else { return }
        animations.removeSubrange(kept...)
        tracks.removeSubrange(kept...)
    }

    /// Puts the animations back in start order (`PropertyAnimation.serial`).
    mutating func sortByStart() {
        let sorted = animations.sorted { $0.serial < $1.serial }
        animations.removeAll(keepingCapacity: true)
        tracks.removeAll(keepingCapacity: true)
        for animation in sorted { append(animation) }
    }
}
