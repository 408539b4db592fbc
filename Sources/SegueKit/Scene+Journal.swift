extension Scene {
    // MARK: Journal (undoing a failed animator call)

    /// Opens a journal: from here on every change to the scene is recorded until `closeJournal` or `restore`.
    func openJournal() -> CallJournal {
        journals.open(
            nextViewSerial: tree.nextViewSerial, nextAnimationSerial: clock.nextAnimationSerial,
            lastGroupID: clock.nextGroupID, pendingCount: clock.pendingCompletions.count, nextTimerID: clock.nextTimerID)
    }

    /// The call went well: its changes stay (the journal is kept for the scene's next call: JournalStack.recycle).
    func closeJournal(_ journal: CallJournal) { journals.recycle(journal) }

    /// Records `view` as it is now in the open journals (JournalStack.touch).
    @inline(__always)
    func touch(_ view: View?) { journals.touch(view) }

    /// Undoes everything recorded since `journal` opened (closing it): the tree's part (ViewTree.restore), then
    /// the clock's (AnimationClock.restore).
    func restore(_ journal: CallJournal) {
        // Its subview-list edits, read before it closes (closing the last open journal or recorder lets them go).
        let edits = journals.edits(since: journal.editMark)
        journals.close(journal)
        tree.restore(journal, edits: edits, clock: clock)
        clock.restore(journal)
        // Stopped animations went back on the clock: their views are kept again before the next frame.
        journals.animationsRestored()
    }

    /// Removes a view (and its subviews) from the scene for good.
    func destroyView(_ view: View) {
        tree.destroy(view, clock: clock)
    }

    /// Removes a view a plugin made and no longer wants (for example when its options were invalid).
    public func destroyViewForPlugin(_ view: View) {
        guard view.owner == nil, view !== window else { return }
        destroyView(view)
    }
}
