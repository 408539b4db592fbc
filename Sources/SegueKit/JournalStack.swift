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
    /// The epoch of the newest deferred sample opened (`View.sampledEpoch` says which samples recorded a view).
    private var sampleEpoch = 0
    /// Whether a journal, a baseline or a deferred sample is open (the one check `touch` makes when none is).
    private var isRecording = false

    /// Opens a journal: from here on every change to the scene is recorded until `close` or the scene's `restore`.
    func open(nextViewSerial: Int, nextAnimationSerial: Int, lastGroupID: Int, pendingCount: Int,
              nextTimerID: Int) -> CallJournal
    {
        nextEpoch += 1
        let journal = CallJournal(
            epoch: nextEpoch, nextViewSerial: nextViewSerial, nextAnimationSerial: nextAnimationSerial,
            lastGroupID: lastGroupID, pendingCount: pendingCount, nextTimerID: nextTimerID)
        entries.append(journal)
        isRecording = true
        return journal
    }

    /// The call went well (or was undone): its journal closes.
    func close(_ journal: CallJournal) {
        entries.removeAll { $0 === journal }
        isRecording = !entries.isEmpty || !baselines.isEmpty || !samples.isEmpty
    }

    /// A transition's baseline starts recording (until `closeBaseline`). Beside another one, each keeps its own
    /// index of the views it classified (a view has one mark).
    func openBaseline(_ baseline: TransitionBaseline) {
        baselines.append(baseline)
        isRecording = true
        if baselines.count > 1 { for open in baselines { open.keepOwnIndex() } }
    }

    /// The transition ended, or its baseline is being restored: it records nothing more.
    func closeBaseline(_ baseline: TransitionBaseline) {
        guard baseline.isOpen else { return }
        baseline.close()
        baselines.removeAll { $0 === baseline }
        isRecording = !entries.isEmpty || !baselines.isEmpty || !samples.isEmpty
    }

    /// A deferred timeline sample starts recording (until it closes: `DeferredSample.close`).
    func openSample(_ sample: DeferredSample) {
        sampleEpoch += 1
        sample.epoch = sampleEpoch
        samples.append(sample)
        isRecording = true
    }

    func closeSample(_ sample: DeferredSample) {
        samples.removeAll { $0 === sample }
        isRecording = !entries.isEmpty || !baselines.isEmpty || !samples.isEmpty
    }

    /// Records `view` as it is now in the open deferred samples that have not recorded it (one state shared by
    /// them): those opened after its last record, and before it was made.
    func touchSamples(_ view: View) {
        guard view.sampledEpoch < sampleEpoch else { return }
        var state: CallJournal.ViewState?
        for sample in samples.reversed() {
            guard sample.epoch > view.sampledEpoch else { break }
            guard view.serial < sample.nextViewSerial else { continue }
            let recorded = state ?? CallJournal.ViewState(view)
            state = recorded
            sample.append(recorded)
        }
        view.sampledEpoch = sampleEpoch
    }

    /// Records `view` as it is now in the open journals and baselines that have not recorded it yet (call before
    /// changing it).
    @inline(__always)
    func touch(_ view: View?) {
        guard isRecording, let view else { return }
        record(view)
    }

    /// Records `view` in the open baselines and deferred samples only (a journal's restore, which its own journals
    /// must not record).
    func touchBaselines(_ view: View) {
        for baseline in baselines { baseline.note(view) }
        if !samples.isEmpty { touchSamples(view) }
    }

    private func record(_ view: View) {
        if !baselines.isEmpty || !samples.isEmpty { touchBaselines(view) }
        guard !entries.isEmpty, view.journalEpoch != entries[entries.count - 1].epoch else { return }
        view.journalEpoch = entries[entries.count - 1].epoch
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
