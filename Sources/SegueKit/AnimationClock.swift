/// A scene's animation clock: the scene time, the animations running on it (contiguous tracks, see
/// RunningAnimations), the open animation blocks, the completions waiting to run and the timers. `evaluate` is the
/// per-frame loop; `Scene.tick` drives it and runs what it leaves pending.
final class AnimationClock {
    /// A call scheduled with `Scene.after`.
    struct ScheduledCall {
        let id: Int
        let at: Int64
        let action: () -> Void
    }

    /// Scene time in nanoseconds.
    var now: Int64 = 0
    var running = RunningAnimations()
    /// Indexes in `running` of the animations that ended in this tick (kept to reuse its storage).
    var endedScratch: [Int] = []
    var blockStack: [AnimationBlock] = []
    var nextGroupID = 0
    var pendingCompletions: [(group: AnimationGroup, finished: Bool)] = []
    var timers: [ScheduledCall] = []
    var nextTimerID = 0
    /// The number the next animation gets: `running` is in this order.
    var nextAnimationSerial = 0
    var isTicking = false

    /// One frame of the animations on the clock: a walk over their contiguous tracks that writes each animation's
    /// value into its view (appending views that change to `dirtyViews`), then the bookkeeping of the ones that
    /// ended, in start order (their groups' completions become pending).
    func evaluate(dirtyViews: inout [View]) {
        let count = running.count
        guard count > 0 else { return }
        let now = self.now
        var anyRemoved = false
        endedScratch.removeAll(keepingCapacity: true)
        running.tracks.withUnsafeBufferPointer { tracks in
            // The progress last computed, and the track it was computed for: the next track of the same block
            // reuses it (the same function of the same inputs, so the same bits).
            var shared = -1
            var sharedProgress = 0.0
            for i in 0..<count {
                if tracks[i].removed {
                    anyRemoved = true
                    continue
                }
                let view = tracks[i].view
                if view.dirty == 0 { dirtyViews.append(view) }
                let elapsed = now - tracks[i].begin
                guard tracks[i].isInFlight(elapsed) else {
                    // Ended, or evaluated by the animation object (which writes its end value when it ends).
                    if tracks[i].animation.evaluate(at: now) { endedScratch.append(i) }
                    continue
                }
                if elapsed < 0 { continue }
                if shared < 0 || !tracks[i].sharesProgress(with: tracks[shared]) {
                    shared = i
                    sharedProgress = tracks[i].progress(elapsed)
                }
                tracks[i].write(progress: sharedProgress)
            }
        }
        guard anyRemoved || !endedScratch.isEmpty else { return }
        for i in endedScratch {
            let animation = running[i]
            setRemoved(animation)
            animation.view.animations[animation.property.rawValue] = nil
            let group = animation.group
            group.remaining -= 1
            if group.remaining == 0, !group.done {
                group.done = true
                pendingCompletions.append((group, group.finished))
            }
        }
        running.removeAll { $0.removed }
    }

    /// Marks an animation removed (or, undoing a failed call, running again) in the object and in its track.
    func setRemoved(_ animation: PropertyAnimation, _ removed: Bool = true) {
        animation.removed = removed
        if animation.trackIndex >= 0 { running.tracks[animation.trackIndex].removed = removed }
    }
}
