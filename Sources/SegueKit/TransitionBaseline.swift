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
    /// This baseline's number: a view it recorded carries it in `View.baselineMark`, a view it found outside the
    /// subtrees its negation — trusted only while no other baseline was open beside it (`index` nil).
    let mark: Int
    /// The recorded views' states from before their first change, in the order they were first touched.
    private(set) var views: [CallJournal.ViewState] = []
    /// The views touched that were outside the subtrees (kept to build `index`).
    private var outside: [View] = []
    /// Each classified view: true when recorded. Built when a second baseline opens beside this one (then views'
    /// marks may belong to the other).
    private var index: [ObjectIdentifier: Bool]?
    /// False once the transition ended or was restored: it records nothing more.
    private(set) var isOpen = true

    init(roots: (View, View, View), nextViewSerial: Int, maxDepth: Int, mark: Int) {
        self.roots = roots
        self.nextViewSerial = nextViewSerial
        self.maxDepth = maxDepth
        self.mark = mark
    }

    /// Records `view` as it is now if it is in the subtrees, was there at the start and is not recorded yet (call
    /// before changing it).
    @inline(__always)
    func note(_ view: View) {
        if classification(of: view) != nil { return }
        guard view.serial < nextViewSerial else { return }
        if isInside(view) {
            views.append(CallJournal.ViewState(view))
            classify(view, inside: true)
        } else {
            classify(view, inside: false)
        }
    }

    /// Whether `view` has been classified, and how (nil: not yet).
    private func classification(of view: View) -> Bool? {
        if let index { return index[ObjectIdentifier(view)] }
        if view.baselineMark == mark { return true }
        if view.baselineMark == -mark { return false }
        return nil
    }

    private func classify(_ view: View, inside: Bool) {
        if index != nil {
            index?[ObjectIdentifier(view)] = inside
        } else {
            view.baselineMark = inside ? mark : -mark
            if !inside { outside.append(view) }
        }
    }

    /// Whether `view` (untouched since the start) was in the subtrees then, at most `maxDepth` below a root: up
    /// its superviews (those of the start: untouched) to a root or to a view classified already.
    private func isInside(_ view: View) -> Bool {
        var current: View? = view
        var depth = 0
        while let v = current, depth <= maxDepth {
            if v === roots.0 || v === roots.1 || v === roots.2 { return true }
            if v !== view, let known = classification(of: v) { return known }
            current = v.superview
            depth += 1
        }
        return false
    }

    /// Another baseline opened beside this one: from now on its classification is kept here, not in the views'
    /// marks.
    func keepOwnIndex() {
        guard index == nil else { return }
        var built: [ObjectIdentifier: Bool] = [:]
        for state in views { built[ObjectIdentifier(state.view)] = true }
        for view in outside { built[ObjectIdentifier(view)] = false }
        index = built
        outside = []
    }

    /// The transition ended or is being restored: nothing more is recorded.
    func close() { isOpen = false }
}
