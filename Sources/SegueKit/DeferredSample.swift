/// A timeline sample taken without walking the subtree (issue 24: a transition's start independent of the views in
/// its container): the subtree at `time` is the live tree, except for the views changed since, each kept just
/// before its first change by the scene's `JournalStack`, of which it is a recorder (as a cancel baseline is:
/// TransitionBaseline). `Timeline` makes it a full sample (`sample()`: one walk, with the kept states in place of
/// the live ones) when it is read, and for good when the timeline is finished (`Timeline.settle`).
final class DeferredSample {
    let root: View
    let time: Int64
    /// Its epoch among the scene's recorders (`JournalStack.openRecorder`).
    let epoch: Int
    /// The stack's edit mark when it opened (the subview lists of then: `JournalStack.lists(since:)`).
    let editMark: Int
    /// The stack it records in, until `close`.
    private(set) weak var journals: JournalStack?

    init(root: View, time: Int64, journals: JournalStack) {
        self.root = root
        self.time = time
        self.journals = journals
        epoch = journals.openRecorder()
        editMark = journals.editMark
    }

    /// Made full (or dropped): it records nothing more.
    func close() {
        journals?.closeRecorder(epoch)
        journals = nil
    }

    /// The full sample: the subtree from `root` as it was at `time` (read before `close`).
    func sample() -> Timeline.Sample {
        let journals = journals, epoch = epoch
        let lists = journals?.lists(since: editMark) ?? JournalStack.ListsThen()
        // Not counted first (Timeline+Exact): measured dearer than `Timeline.compact`'s copy of its channels.
        return Timeline.walk(root, at: time, expected: 4, lists: lists) { view, read in
            journals?.withRecorded(view, since: epoch, read) ?? false
        }
    }
}
