/// The journals of the animator calls running now, innermost last (see CallJournal). Every owner that changes a
/// view, a group or the animations on the clock records the old state here first (`touch`, `noteStopped`,
/// `noteStarted`), so that a failed call can be undone exactly.
final class JournalStack {
    private(set) var entries: [CallJournal] = []
    private var nextEpoch = 0
    /// The journal the last successful call closed (`recycle`), emptied: the next `open` takes it when nothing else
    /// holds it any more, so a transition start allocates no journal (an object and its lists) once the scene has one.
    private var spare: CallJournal?

    /// Opens a journal: from here on every change to the scene is recorded until `close` or the scene's `restore`.
    func open(nextViewSerial: Int, nextAnimationSerial: Int, lastGroupID: Int, pendingCount: Int,
              nextTimerID: Int) -> CallJournal
    {
        nextEpoch += 1
        let journal: CallJournal
        // Only when the stack holds the last reference: whoever closed it may not see it reused under them.
        if spare != nil, isKnownUniquelyReferenced(&spare), let reused = spare {
            spare = nil
            reused.reopen(
                epoch: nextEpoch, nextViewSerial: nextViewSerial, nextAnimationSerial: nextAnimationSerial,
                lastGroupID: lastGroupID, pendingCount: pendingCount, nextTimerID: nextTimerID)
            journal = reused
        } else {
            journal = CallJournal(
                epoch: nextEpoch, nextViewSerial: nextViewSerial, nextAnimationSerial: nextAnimationSerial,
                lastGroupID: lastGroupID, pendingCount: pendingCount, nextTimerID: nextTimerID)
        }
        entries.append(journal)
        return journal
    }

    /// The call went well (or was undone): its journal closes.
    func close(_ journal: CallJournal) {
        guard let i = entries.lastIndex(where: { $0 === journal }) else { return }
        entries.remove(at: i)
    }

    /// The call went well: its journal closes, is emptied (what it recorded is let go at once, as when it was
    /// freed) and kept for the next `open`. A journal that was not open (already closed or restored) is left alone.
    func recycle(_ journal: CallJournal) {
        guard let i = entries.lastIndex(where: { $0 === journal }) else { return }
        entries.remove(at: i)
        journal.empty()
        spare = journal
    }

    /// Records `view` as it is now in the open journals that have not recorded it yet (call before changing it).
    @inline(__always)
    func touch(_ view: View?) {
        guard !entries.isEmpty, let view else { return }
        record(view)
    }

    private func record(_ view: View) {
        guard view.journalEpoch != entries[entries.count - 1].epoch else { return }
        view.journalEpoch = entries[entries.count - 1].epoch
        // Made in place in the one open journal (most calls): no copy of the state to destroy after.
        if entries.count == 1 {
            entries[0].views.append(CallJournal.ViewState(view))
            return
        }
        let state = CallJournal.ViewState(view)
        for journal in entries { journal.views.append(state) }
    }

    /// Records a group's counts before they change, in the open journals that knew the group before their call.
    @inline(__always)
    func touch(_ group: AnimationGroup) {
        guard !entries.isEmpty, group.journalEpoch != entries[entries.count - 1].epoch else { return }
        group.journalEpoch = entries[entries.count - 1].epoch
        for journal in entries where group.id <= journal.lastGroupID {
            journal.groups.append((group, group.remaining, group.finished, group.done))
        }
    }

    /// An animation is about to be marked removed.
    @inline(__always)
    func noteStopped(_ animation: PropertyAnimation) {
        guard !entries.isEmpty, !animation.removed, !animation.held else { return }
        for journal in entries where animation.serial < journal.nextAnimationSerial { journal.stopped.append(animation) }
    }

    /// A new animation (numbered by the clock) is recorded in the open journals.
    @inline(__always)
    func noteStarted(_ animation: PropertyAnimation) {
        for journal in entries { journal.started.append(animation) }
    }
}
