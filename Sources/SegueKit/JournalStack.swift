/// The journals of the animator calls running now, innermost last (see CallJournal). Every owner that changes a
/// view, a group or the animations on the clock records the old state here first (`touch`, `noteStopped`,
/// `noteStarted`), so that a failed call can be undone exactly.
final class JournalStack {
    private(set) var entries: [CallJournal] = []
    private var nextEpoch = 0
    /// The cancel baselines of the running transitions: each records a view of its subtrees just before the first
    /// change to it (TransitionBaseline).
    private(set) var baselines: [TransitionBaseline] = []
    /// The deferred timeline samples not yet made full, oldest first: each records a view just before its first
    /// change after the sample's time (DeferredSample).
    private(set) var samples: [DeferredSample] = []
    /// The epoch of the newest baseline or deferred sample opened: a view touched since a recorder opened has a
    /// `View.touchedEpoch` at least the recorder's, and was classified (and maybe recorded) by it at that touch.
    private var recorderEpoch = 0
    /// Whether a journal, a baseline or a deferred sample is open (the one check `touch` makes when none is).
    private var isRecording = false
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
        isRecording = true
        return journal
    }

    /// The call went well (or was undone): its journal closes.
    func close(_ journal: CallJournal) {
        guard let i = entries.lastIndex(where: { $0 === journal }) else { return }
        entries.remove(at: i)
        noteClosed()
    }

    /// The call went well: its journal closes, is emptied (what it recorded is let go at once, as when it was
    /// freed) and kept for the next `open`. A journal that was not open (already closed or restored) is left alone.
    func recycle(_ journal: CallJournal) {
        guard let i = entries.lastIndex(where: { $0 === journal }) else { return }
        entries.remove(at: i)
        noteClosed()
        journal.empty()
        spare = journal
    }

    /// A transition's baseline starts recording (until `closeBaseline`).
    func openBaseline(_ baseline: TransitionBaseline) {
        baseline.epoch = nextRecorderEpoch()
        baselines.append(baseline)
    }

    /// A baseline or deferred sample opens: its epoch (every view touched from now on is touched since it).
    private func nextRecorderEpoch() -> Int {
        recorderEpoch += 1
        isRecording = true
        return recorderEpoch
    }

    /// Whether anything still records, after one closed.
    private func noteClosed() { isRecording = !entries.isEmpty || !baselines.isEmpty || !samples.isEmpty }

    /// The transition ended, or its baseline is being restored: it records nothing more.
    func closeBaseline(_ baseline: TransitionBaseline) {
        guard baseline.isOpen else { return }
        baseline.close()
        baselines.removeAll { $0 === baseline }
        noteClosed()
    }

    /// A deferred timeline sample starts recording (until it closes: `DeferredSample.close`).
    func openSample(_ sample: DeferredSample) {
        sample.epoch = nextRecorderEpoch()
        samples.append(sample)
    }

    /// A deferred sample was made full (or dropped): it records nothing more.
    func closeSample(_ sample: DeferredSample) {
        samples.removeAll { $0 === sample }
        noteClosed()
    }

    /// `view`'s first touch since each open baseline or deferred sample opened goes to it (classified there, and
    /// recorded as it is now when it was in the recorder's subtree then); the samples share one state.
    func touchRecorders(_ view: View) {
        let since = view.touchedEpoch
        guard since < recorderEpoch else { return }
        // Both lists are in epoch order: the recorders opened since the view's last touch are a suffix of each.
        var b = baselines.count
        while b > 0, baselines[b - 1].epoch > since { b -= 1 }
        while b < baselines.count {
            baselines[b].note(view)
            b += 1
        }
        var s = samples.count
        while s > 0, samples[s - 1].epoch > since { s -= 1 }
        var state: CallJournal.ViewState?
        while s < samples.count {
            let sample = samples[s]
            s += 1
            guard sample.holds(view) else { continue }
            let recorded = state ?? CallJournal.ViewState(view)
            state = recorded
            sample.append(recorded)
        }
        view.touchedEpoch = recorderEpoch
    }

    /// Records `view` as it is now in the open journals and baselines that have not recorded it yet (call before
    /// changing it).
    @inline(__always)
    func touch(_ view: View?) {
        guard isRecording, let view else { return }
        record(view)
    }

    private func record(_ view: View) {
        if !baselines.isEmpty || !samples.isEmpty { touchRecorders(view) }
        guard !entries.isEmpty, view.journalEpoch != entries[entries.count - 1].epoch else { return }
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
