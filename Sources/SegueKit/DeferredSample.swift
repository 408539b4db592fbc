/// A timeline sample taken without walking the subtree (issue 24: a transition's start independent of the views in
/// its container): the subtree at `time` is the live tree, except for the views changed since, each recorded just
/// before its first change (`JournalStack.touch`, which every writer of a view calls first), and the views whose
/// animations ran at `time` (they change without a touch), recorded at once. `Timeline` makes it a full sample
/// (`sample()`: one walk, with the recorded states in place of the live ones) when it next records — at the
/// latest the transition's end — or when it is read before that.
final class DeferredSample {
    let root: View
    let time: Int64
    /// Views with this serial or higher were made after `time` (not in the sample; never recorded).
    let nextViewSerial: Int
    /// Its place among the recorders opened in the scene (`JournalStack.openSample`): a view whose
    /// `View.touchedEpoch` is at least this was touched since `time`, and then recorded here if it may be in it.
    var epoch = 0
    /// The views changed since `time`, as they were then, in the order of their first change.
    private(set) var states: [CallJournal.ViewState] = []
    /// The stack it records from, until `close`.
    private weak var journals: JournalStack?

    init(root: View, time: Int64, nextViewSerial: Int, journals: JournalStack) {
        self.root = root
        self.time = time
        self.nextViewSerial = nextViewSerial
        self.journals = journals
    }

    /// Whether `view` (untouched since `time`) was in the subtree then (not when made since): up its superviews (a
    /// mask view: up the view it masks), which are those of then, to the root, or to a view touched since, which was
    /// classified at that touch (in the subtree when recorded here).
    func holds(_ view: View) -> Bool {
        guard view.serial < nextViewSerial else { return false }
        var current = view
        var depth = 0
        while true {
            if current === root { return true }
            if current !== view, current.touchedEpoch >= epoch { return recorded(current) }
            guard depth <= Scene.maxViewDepth + 1, let up = current.superview ?? current.maskedView else { return false }
            current = up
            depth += 1
        }
    }

    /// Records `state` (of a view `holds` says is in the subtree).
    func append(_ state: CallJournal.ViewState) {
        if states.isEmpty { states.reserveCapacity(8) }
        states.append(state)
        state.view.sampleMark = epoch
    }

    /// Whether this sample recorded `view`: its mark says so unless a newer sample recorded it since; then the
    /// list does.
    private func recorded(_ view: View) -> Bool {
        if view.sampleMark == epoch { return true }
        return view.sampleMark > epoch && states.records(view)
    }

    /// Made full (or dropped): it records nothing more.
    func close() {
        journals?.closeSample(self)
        journals = nil
    }

    /// The full sample: the subtree from `root` as it was at `time`.
    func sample() -> Timeline.Sample {
        var index: [ObjectIdentifier: Int] = [:]
        index.reserveCapacity(states.count)
        for (i, state) in states.enumerated() where index[ObjectIdentifier(state.view)] == nil {
            index[ObjectIdentifier(state.view)] = i
        }
        let states = states
        return Timeline.walk(root, at: time, expected: 4) { view in
            index.isEmpty ? nil : index[ObjectIdentifier(view)].map { states[$0] }
        }
    }
}
