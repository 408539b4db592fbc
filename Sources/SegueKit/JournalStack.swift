/// The journals of the animator calls running now, innermost last (see CallJournal). Every owner that changes a
/// view, a group or the animations on the clock records the old state here first (`touch`, `noteStopped`,
/// `noteStarted`), so that a failed call can be undone exactly.
final class JournalStack {
    private(set) var entries: [CallJournal] = []
    private var nextEpoch = 0
    /// The epoch of the newest recorder opened (a transition's cancel baseline or deferred first timeline sample:
    /// `openRecorder`): a view touched since a recorder opened has a `View.touchedEpoch` at least the recorder's.
    private var recorderEpoch = 0
    /// The epochs of the recorders still open, oldest first.
    private var openEpochs: [Int] = []
    /// The states of the views touched while recorders were open, each from just before its first touch after a
    /// recorder opened (`keep`), oldest first per view: a recorder of epoch e finds a view as it was when it
    /// opened in the first entry with an epoch of at least e (`recorded(_:since:)`); a view without one is
    /// unchanged since. Kept here, not on the view (a state names its view: that would be a cycle).
    private var histories: [ObjectIdentifier: [Kept]] = [:]
    /// The histories' size at which the next close drops the entries no open recorder needs.
    private var sweepAt = 64
    /// Numbers the kept states in the order of the touches (a baseline restores its views in that order).
    private var keptCount = 0
    /// `recorderEpoch` and the clock's next animation serial when the views of the running animations were last
    /// kept (`keepAnimating`): those change without a touch, so they are kept before the next frame writes them
    /// whenever a recorder or an animation started since.
    private var animatingKept = (epoch: 0, serial: 0)
    /// Whether a journal or a recorder is open (the one check `touch` makes when none is).
    private var isRecording = false
    /// The changes to subview lists made while anything records, oldest first (`noteEdit`; ViewTree makes every
    /// change to a list through one of three edits): a journal undoes its call's list changes by replaying their
    /// inverses from its mark (`CallJournal.editMark`), and a recorder reads a list as it was when it opened by
    /// applying them backwards to the live list (`lists(since:)`). A view's state (`CallJournal.ViewState`) holds
    /// no copy of its list: a copy shared with the view made the next change to the list copy all of it (the
    /// animator's add of its to-view copied a crowded container's 10 000-entry list, issue 24).
    private var edits: [ListEdit] = []
    /// The marks of the edits dropped from the front of `edits` (no open journal or recorder needs them).
    private var editsDropped = 0
    /// The edit marks of the open recorders, as `openEpochs` (oldest first).
    private var openMarks: [Int] = []

    /// A change to a view's subview list, with what undoes it.
    enum ListEdit {
        /// A view was inserted at `at` (its inverse: remove the view at `at`).
        case inserted(at: Int, in: View)
        /// `view` was removed from `at` (its inverse: insert it there again).
        case removed(View, at: Int, from: View)
        /// The whole list was replaced; the old one (its inverse: put it back).
        case replaced([View], in: View)

        var superview: View {
            switch self {
            case .inserted(_, let superview), .removed(_, _, let superview), .replaced(_, let superview): superview
            }
        }
    }

    /// The mark of the next edit (a journal or recorder opening now undoes or reads back from here).
    var editMark: Int { editsDropped + edits.count }

    /// Logs a change ViewTree just made to a subview list, while anything records (nothing is logged otherwise).
    @inline(__always)
    func noteEdit(_ edit: ListEdit) {
        guard isRecording else { return }
        edits.append(edit)
    }

    /// The edits from `mark` to now, oldest first (a journal's restore replays their inverses, newest first).
    func edits(since mark: Int) -> ArraySlice<ListEdit> {
        let from = max(0, mark - editsDropped)
        return from < edits.count ? edits[from...] : []
    }

    /// The subview lists as they were at `mark`, for the views whose lists changed since (the others' are as they
    /// are now): the edits since applied backwards to copies of the live lists — one copy per changed list, taken
    /// when a recorder is read (a cancel, a deferred sample made full), not when the list changes.
    func lists(since mark: Int) -> ListsThen {
        var then = ListsThen()
        for edit in edits(since: mark).reversed() {
            let superview = edit.superview
            var list = then.take(superview) ?? superview.subviews
            switch edit {
            case .inserted(let index, _): if index < list.count { list.remove(at: index) }
            case .removed(let view, let index, _): list.insert(view, at: min(index, list.count))
            case .replaced(let old, _): list = old
            }
            then.put(superview, list)
        }
        return then
    }

    /// Subview lists as they were at a mark (`lists(since:)`); a view not in it has its list of now.
    struct ListsThen {
        private var lists: [(view: View, subviews: [View])] = []
        /// The index of each list by view, once there are more than a few (most reads have one or two).
        private var index: [ObjectIdentifier: Int] = [:]

        private func position(_ view: View) -> Int? {
            if lists.count > 8 { return index[ObjectIdentifier(view)] }
            for i in lists.indices where lists[i].view === view { return i }
            return nil
        }

        fileprivate mutating func take(_ view: View) -> [View]? {
            guard let i = position(view) else { return nil }
            // Moved out (not copied): changed in place, then put back.
            var list: [View] = []
            Swift.swap(&list, &lists[i].subviews)
            return list
        }

        fileprivate mutating func put(_ view: View, _ subviews: [View]) {
            if let i = position(view) {
                lists[i].subviews = subviews
                return
            }
            lists.append((view, subviews))
            if lists.count > 8 {
                if index.isEmpty { for (i, l) in lists.enumerated() { index[ObjectIdentifier(l.view)] = i } }
                index[ObjectIdentifier(view)] = lists.count - 1
            }
        }

        /// `view`'s subviews at the mark.
        func subviews(of view: View) -> [View] {
            guard !lists.isEmpty, let i = position(view) else { return view.subviews }
            return lists[i].subviews
        }
    }

    /// A state kept for a recorder: the view as it was just before its first touch after the recorders up to
    /// `epoch` opened.
    struct Kept {
        let epoch: Int
        let order: Int
        let state: CallJournal.ViewState
    }

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
        journal.editMark = editMark
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

    /// A recorder opens (a transition's cancel baseline, or its first timeline sample taken without a walk): from
    /// now until `closeRecorder` every view is kept as it is just before its first change (`touch`; the running
    /// animations' views before the next frame: `keepAnimating`). Its epoch.
    func openRecorder() -> Int {
        recorderEpoch += 1
        openEpochs.append(recorderEpoch)
        openMarks.append(editMark)
        isRecording = true
        return recorderEpoch
    }

    /// The recorder of `epoch` is done: what was kept only for it is let go (all of it once none is open).
    func closeRecorder(_ epoch: Int) {
        // Recorders close in about the order they opened: the search from the front is short.
        guard let i = openEpochs.firstIndex(of: epoch) else { return }
        openEpochs.remove(at: i)
        openMarks.remove(at: i)
        noteClosed()
        if openEpochs.isEmpty {
            if !histories.isEmpty { histories.removeAll(keepingCapacity: histories.count <= 1024) }
        } else if i == 0, histories.count >= sweepAt {
            let oldest = openEpochs[0]
            histories = histories.compactMapValues { kept in
                let live = kept.filter { $0.epoch >= oldest }
                return live.isEmpty ? nil : live
            }
            sweepAt = max(64, 2 * histories.count)
        }
    }

    /// Whether anything still records, after one closed; the edits no open journal or recorder needs are let go
    /// (all of them once nothing records; from the front once they are most of the log).
    private func noteClosed() {
        isRecording = !entries.isEmpty || !openEpochs.isEmpty
        guard !edits.isEmpty else { return }
        guard isRecording else {
            editsDropped += edits.count
            edits.removeAll(keepingCapacity: edits.count <= 1024)
            return
        }
        // Journals nest (the first is the oldest) and recorders' marks grow with their epochs.
        let needed = min(entries.first?.editMark ?? Int.max, openMarks.first ?? Int.max)
        let unneeded = needed - editsDropped
        if unneeded >= 64, 2 * unneeded >= edits.count {
            edits.removeFirst(unneeded)
            editsDropped = needed
        }
    }

    /// Keeps `view` as it is now for the open recorders that opened since its last touch (call before changing it).
    func keep(_ view: View) {
        guard view.touchedEpoch < recorderEpoch, !openEpochs.isEmpty else { return }
        keep(view, CallJournal.ViewState(view))
    }

    /// `keep` with the view's state already made (`record`: one state for the journal and the recorders), moved in.
    private func keep(_ view: View, _ state: consuming CallJournal.ViewState) {
        guard let oldest = openEpochs.first else { return }
        view.touchedEpoch = recorderEpoch
        let kept = Kept(epoch: recorderEpoch, order: keptCount, state: state)
        keptCount += 1
        // One lookup: what no open recorder needs any more goes first, in place, then the new state.
        histories[ObjectIdentifier(view), default: []].append(kept, droppingBefore: oldest)
    }

    /// `view` as it was when the recorder of `epoch` opened, if it changed since (else it is as it was).
    func recorded(_ view: View, since epoch: Int) -> Kept? {
        guard view.touchedEpoch >= epoch, let kept = histories[ObjectIdentifier(view)] else { return nil }
        var i = 0
        while i < kept.count {
            if kept[i].epoch >= epoch { return kept[i] }
            i += 1
        }
        return nil
    }

    /// `recorded(_:since:)` read in place: `body` gets the state without a copy of it (a deferred sample's walk
    /// reads a few of its fields). False, `body` not called, when the view is as it was.
    @inline(__always)
    func withRecorded(_ view: View, since epoch: Int, _ body: (borrowing CallJournal.ViewState) -> Void) -> Bool {
        guard view.touchedEpoch >= epoch, let kept = histories[ObjectIdentifier(view)] else { return false }
        return kept.withUnsafeBufferPointer { kept in
            for i in kept.indices where kept[i].epoch >= epoch {
                body(kept[i].state)
                return true
            }
            return false
        }
    }

    /// Calls `body` with every view kept since the recorder of `epoch` opened — the views changed since, each
    /// once — and its state as it was then (`recorded(_:since:)`, read in place), in no set order: O(views kept
    /// for the open recorders), whatever the scene holds (a later timeline sample as a patch on a deferred first
    /// one: Timeline+Patch).
    func forEachKept(since epoch: Int, _ body: (View, borrowing CallJournal.ViewState) -> Void) {
        for kept in histories.values {
            guard let last = kept.last, last.epoch >= epoch else { continue }
            kept.withUnsafeBufferPointer { kept in
                for i in kept.indices where kept[i].epoch >= epoch {
                    body(kept[i].state.view, kept[i].state)
                    return
                }
            }
        }
    }

    /// Whether the running animations' views must be kept before the next frame writes them (a recorder opened,
    /// or an animation was numbered, since they last were; `nextAnimationSerial`: the clock's).
    func awaitsAnimating(nextAnimationSerial: Int) -> Bool {
        !openEpochs.isEmpty && (animatingKept.epoch != recorderEpoch || animatingKept.serial != nextAnimationSerial)
    }

    /// The running animations' views were kept (`keep`) for every recorder open now.
    func keptAnimating(nextAnimationSerial: Int) { animatingKept = (recorderEpoch, nextAnimationSerial) }

    /// A restored journal put animations back on the clock: their views are kept again before the next frame.
    func animationsRestored() { animatingKept = (0, 0) }

    /// The number of recorders open, of views with kept states, and of states kept so far (tests).
    var openRecorders: Int { openEpochs.count }
    var keptViews: Int { histories.count }
    var keptStates: Int { keptCount }

    /// Records `view` as it is now in the open journals that have not recorded it yet, and for the open recorders
    /// (`keep`; call before changing it).
    @inline(__always)
    func touch(_ view: View?) {
        guard isRecording, let view else { return }
        record(view)
    }

    private func record(_ view: View) {
        let keeps = !openEpochs.isEmpty && view.touchedEpoch < recorderEpoch
        guard !entries.isEmpty, view.journalEpoch != entries[entries.count - 1].epoch else {
            if keeps { keep(view, CallJournal.ViewState(view)) }
            return
        }
        view.journalEpoch = entries[entries.count - 1].epoch
        // The journal and the recorders keep the view as it is now, before the change: one state made for both (its
        // presentation copied once, not once per keeper; its fields are constants). Moved into the one open journal
        // (most calls), copied only when journals nest.
        let state = CallJournal.ViewState(view)
        if keeps { keep(view, state) }
        if entries.count == 1 {
            entries[0].views.append(state)
            return
        }
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

extension [JournalStack.Kept] {
    /// Appends `kept` after dropping the states of recorders older than `oldest` (none open needs them).
    @inline(__always)
    fileprivate mutating func append(_ kept: JournalStack.Kept, droppingBefore oldest: Int) {
        if let first, first.epoch < oldest { removeAll { $0.epoch < oldest } }
        append(kept)
    }
}
