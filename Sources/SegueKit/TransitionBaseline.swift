/// What the views a transition's animator can reach looked like before it ran: a cancelled transition puts them
/// back (`ViewTree.restore(_:clock:)`). Recorded on first touch (issue 24, a start independent of the scene's view
/// count): the baseline covers the subtrees of the container's view and of the from and to views as they were at
/// the start, but records a view only just before its first change (`JournalStack.touch`, which every writer of
/// a view calls first), plus at the start the views of those subtrees whose animations were already running (they
/// change without a touch). A view nothing changed needs no record: it is still as it was. Whether a touched view
/// was in the subtrees at the start is found by walking up from it: an untouched view still has its superview of
/// the start, and a touched one is classified already.
final class TransitionBaseline {
    /// The subtrees' roots: the container's view, the from view, the to view.
    let roots: (View, View, View)
    /// Views with this serial or higher were made during the transition (never recorded; the restore destroys
    /// those left in the subtrees).
    let nextViewSerial: Int
    let maxDepth: Int
    /// This baseline's number: a view it recorded carries it in `View.baselineMark` (until a newer baseline or a
    /// restore's walk marks the view).
    let mark: Int
    /// Its place among the recorders opened in the scene (`JournalStack.openBaseline`): a view whose
    /// `View.touchedEpoch` is at least this was touched since the start, and then classified here.
    var epoch = 0
    /// The recorded views' states from before their first change, in the order they were first touched.
    private(set) var views: [CallJournal.ViewState] = []
    /// False once the transition ended or was restored: it records nothing more.
    private(set) var isOpen = true

    init(roots: (View, View, View), nextViewSerial: Int, maxDepth: Int, mark: Int) {
        self.roots = roots
        self.nextViewSerial = nextViewSerial
        self.maxDepth = maxDepth
        self.mark = mark
    }

    /// `view`'s first touch since the start (JournalStack.touchRecorders): recorded as it is now when it was in the
    /// subtrees then (not when made since).
    func note(_ view: View) {
        guard view.serial < nextViewSerial, isInside(view) else { return }
        if views.isEmpty { views.reserveCapacity(8) }  // a start records a few: room at once
        views.append(CallJournal.ViewState(view))
        view.baselineMark = mark
    }

    /// Whether `view` (untouched since the start) was in the subtrees then, at most `maxDepth` below a root: up its
    /// superviews, which are those of the start, to a root, or to a view touched since, which was classified at
    /// that touch (in the subtrees when recorded).
    private func isInside(_ view: View) -> Bool {
        var current = view
        var depth = 0
        while true {
            if current === roots.0 || current === roots.1 || current === roots.2 { return true }
            if current !== view, current.touchedEpoch >= epoch { return recorded(current) }
            guard depth < maxDepth, let up = current.superview else { return false }
            current = up
            depth += 1
        }
    }

    /// Whether this baseline recorded `view`: its mark says so unless a newer baseline (or a restore's walk) marked
    /// the view since; then the list does.
    private func recorded(_ view: View) -> Bool {
        if view.baselineMark == mark { return true }
        return view.baselineMark > mark && views.records(view)
    }

    /// The transition ended or is being restored: nothing more is recorded.
    func close() { isOpen = false }
}
