/// What the views a transition's animator can reach looked like before it ran: a cancelled transition puts them
/// back (`ViewTree.restore(_:clock:)`). Recorded on first touch (issue 24, a start independent of the scene's view
/// count): the baseline covers the subtrees of the container's view and of the from and to views as they were at
/// the start, but nothing is copied then. It is a recorder of the scene's `JournalStack`: from the start on, every
/// view is kept just before its first change (`JournalStack.touch`, which every writer of a view calls first; the
/// running animations' views before the next frame writes them), whichever subtree it is in — no test per view
/// and per open baseline. A view nothing changed needs no record: it is still as it was. Which kept views are in
/// the subtrees is found only when the baseline is read (`views`, on cancel): by a walk of the subtrees as they
/// were at the start (a changed view's subviews read back from the list edits since: JournalStack.lists(since:);
/// an unchanged one's as they are).
final class TransitionBaseline {
    /// The subtrees' roots: the container's view, the from view, the to view.
    let roots: (View, View, View)
    /// Views with this serial or higher were made during the transition (never recorded; the restore destroys
    /// those left in the subtrees).
    let nextViewSerial: Int
    let maxDepth: Int
    /// Its epoch among the scene's recorders (`JournalStack.openRecorder`).
    let epoch: Int
    /// The stack's edit mark when it opened: the subview lists of the start are the live ones with the edits
    /// since undone (`JournalStack.lists(since:)`).
    let editMark: Int
    /// The stack it records in, until `close`.
    private weak var journals: JournalStack?

    init(roots: (View, View, View), nextViewSerial: Int, maxDepth: Int, journals: JournalStack) {
        self.roots = roots
        self.nextViewSerial = nextViewSerial
        self.maxDepth = maxDepth
        self.journals = journals
        epoch = journals.openRecorder()
        editMark = journals.editMark
    }

    /// False once the transition ended or was restored: it records nothing more.
    var isOpen: Bool { journals != nil }

    /// The views of the subtrees (as they were at the start, at most `maxDepth` below a root) that changed since,
    /// each as it was before its first change, in the order of those changes; empty once closed.
    var views: [CallJournal.ViewState] { recorded.states }

    /// `views`, with the subview lists of the start of the views whose lists changed since (the others' are as
    /// they are now).
    var recorded: (states: [CallJournal.ViewState], lists: JournalStack.ListsThen) {
        guard let journals else { return ([], JournalStack.ListsThen()) }
        var found: [JournalStack.Kept] = []
        var seen: Set<ObjectIdentifier> = []
        let epoch = epoch, maxDepth = maxDepth
        let lists = journals.lists(since: editMark)
        func walk(_ view: View, depth: Int) {
            let kept = journals.recorded(view, since: epoch)
            if let kept, seen.insert(ObjectIdentifier(view)).inserted { found.append(kept) }
            guard depth < maxDepth else { return }
            for sub in kept == nil ? view.subviews : lists.subviews(of: view) { walk(sub, depth: depth + 1) }
        }
        walk(roots.0, depth: 0)
        walk(roots.1, depth: 0)
        walk(roots.2, depth: 0)
        found.sort { $0.order < $1.order }
        return (found.map(\.state), lists)
    }

    /// The transition ended or is being restored: nothing more is recorded for it.
    func close() {
        journals?.closeRecorder(epoch)
        journals = nil
    }
}
