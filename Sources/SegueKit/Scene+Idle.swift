extension Scene {
    /// True when a tick would do nothing but move the clock: no animation, timer, pending completion, transition
    /// (running, interactive or ramping) or changed view. A realtime driver need not tick such a scene: the
    /// daemon's frame grid lets it sleep and moves its clock with `jumpIdle(to:)` when it is next used.
    public var isIdle: Bool {
        clock.running.count == 0 && clock.timers.isEmpty && clock.pendingCompletions.isEmpty
            && ledger.activeTransitionCount == 0 && ledger.drivenTransitions.isEmpty
            && tree.dirtyViews.isEmpty && !clock.animatorRunning
    }

    /// Moves an idle scene's clock to `time` at once — what ticking it there frame by frame would do, since a tick
    /// of an idle scene only moves the clock (no frame event: nothing changed). A scene that is not idle is
    /// advanced frame by frame as usual.
    public func jumpIdle(to time: Int64) {
        guard isIdle, !clock.isTicking else { return advance(to: time) }
        clock.move(to: time)
    }
}
