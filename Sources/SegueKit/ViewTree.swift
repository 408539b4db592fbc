/// A scene's view tree: the window, every view by id and by serial, the versions timelines key their samples on,
/// and the views whose presentation changed in the current tick. It makes and files views (`makeView`), adds,
/// inserts, moves and removes them (`add`, `insert`, `place`, `detach`, `bringToFront`, `discard`), sets the
/// properties that are not animated (`setHidden`, `setZ`) and marks changes (`markChanged`), each change recorded
/// in the open journals first; nothing else writes its state.
final class ViewTree {
    /// The root of the tree.
    let window: View
    private(set) var viewsByID: [String: View] = [:]
    private(set) var viewsBySerial: [Int: View] = [:]
    /// The serial the next view gets (serials increase with creation: the engine's deterministic order).
    private(set) var nextViewSerial = 0
    /// Increases whenever a view moves in the tree, is destroyed, or changes `hidden` or `z` (timelines reuse the
    /// tree's shape while it stays the same).
    private(set) var structureVersion = 0
    /// Increases whenever a property is set outside an animation block.
    private(set) var valueVersion = 0
    /// The number of the last `nextBaselineMark` (views a transition's baseline reached carry it in
    /// `View.baselineMark`).
    private var baselineMark = 0
    /// Views whose presentation changed in this tick (one `frame` event entry each), not retained (`ChangedViews`).
    let dirtyViews = ChangedViews()
    /// The views discarded while `dirtyViews` was not empty: held here until it is emptied, so that no entry of it
    /// outlives its view (a view still in the scene is held by `viewsByID`).
    private var keptForChanges: [View] = []
    /// Where each change is recorded before it is made.
    let journals: JournalStack

    init(size: Size, journals: JournalStack) {
        self.journals = journals
        window = View(id: "window", serial: 0, frame: Rect(x: 0, y: 0, w: size.w, h: size.h), color: .clear)
        nextViewSerial = 1
        viewsByID["window"] = window
        viewsBySerial[0] = window
    }

    /// Makes a new view and files it (not yet in the tree): refused past `limit` views or for an id in use.
    func makeView(id: String?, frame: Rect, color: Color, limit: Int, scene: String) throws(EngineError) -> View {
        guard viewsByID.count < limit else {
            throw EngineError(.limitExceeded, "scene '\(scene)' has \(limit) views (limits.max_views_per_scene)")
        }
        let serial = nextViewSerial
        let viewID = id ?? "v-\(serial)"
        guard viewsByID[viewID] == nil else {
            throw EngineError(.invalidParams, "a view with id '\(viewID)' already exists", param: "id")
        }
        let view = View(id: viewID, serial: serial, frame: frame, color: color)
        insert(view)
        return view
    }

    /// Files a new view under its id and serial.
    func insert(_ view: View) {
        nextViewSerial = max(nextViewSerial, view.serial + 1)
        viewsByID[view.id] = view
        viewsBySerial[view.serial] = view
    }

    /// addSubview: `view` goes on top of `superview`'s subviews, when it may go there (`canAdd`).
    func add(_ view: View, to superview: View, maxDepth: Int) -> Bool {
        guard canAdd(view, to: superview, maxDepth: maxDepth) else { return false }
        journals.touch(view)
        journals.touch(view.superview)
        journals.touch(superview)
        place(view, in: superview)
        return true
    }

    /// insertSubview(_:at:), when `view` may go there.
    func insert(_ view: View, into superview: View, at index: Int, maxDepth: Int) {
        guard canAdd(view, to: superview, maxDepth: maxDepth) else { return }
        journals.touch(view)
        journals.touch(view.superview)
        journals.touch(superview)
        place(view, in: superview, at: index)
    }

    /// removeFromSuperview.
    func removeFromSuperview(_ view: View) {
        journals.touch(view)
        journals.touch(view.superview)
        detach(view)
    }

    /// bringSubviewToFront.
    func bringToFront(_ view: View) {
        structureVersion &+= 1
        guard let superview = view.superview else { return }
        journals.touch(superview)
        removeSubview(view, from: superview)
        insertSubview(view, into: superview, at: superview.subviews.count)
    }

    /// isHidden: not animated; reported in `frame` events when it changes.
    func setHidden(_ view: View, _ hidden: Bool) {
        guard view.hidden != hidden else { return }
        journals.touch(view)
        view.hidden = hidden
        structureVersion &+= 1
        markChanged(view, ViewProperty.hidden.changeBit)
    }

    /// zPosition: not animated (set at once, also inside a block); reported in `frame` events when it changes.
    func setZ(_ view: View, _ z: Double) {
        guard view.z != z, z.isFinite else { return }
        journals.touch(view)
        view.z = z
        structureVersion &+= 1
        markChanged(view, ViewProperty.z.changeBit)
    }

    /// CALayer.mask (the caller checked `Scene.maskRefusal`). A view masks at most one view: giving it to another
    /// takes it from the first. Part of the tree's structure (timelines sample again; frame events do not carry it).
    func setMask(_ view: View, _ mask: View?) {
        guard view.mask !== mask else { return }
        journals.touch(view)
        journals.touch(view.mask)
        journals.touch(mask)
        if let old = view.mask { old.maskedView = nil }
        if let mask, let other = mask.maskedView {
            journals.touch(other)
            other.mask = nil
        }
        view.mask = mask
        mask?.maskedView = view
        structureVersion &+= 1
    }

    /// Makes `view` a gradient view (`segue.gradient_view`: a view drawn by a CAGradientLayer) with `gradient` as its
    /// model and presentation values; every part is reported in the next frame.
    func makeGradient(_ view: View, _ gradient: GradientValues) {
        journals.touch(view)
        view.model.gradient = gradient
        view.presentation.gradient = gradient
        valuesChanged()
        markChanged(view, ViewPropertyLayout.shared.gradientParts)
    }

    /// A view going away leaves no mask link behind: the view it masked loses its mask, its own mask is freed.
    private func unlinkMask(_ view: View) {
        if let masked = view.maskedView {
            journals.touch(masked)
            masked.mask = nil
            view.maskedView = nil
        }
        if let mask = view.mask {
            journals.touch(mask)
            mask.maskedView = nil
            view.mask = nil
        }
    }

    /// A property was set outside an animation block (timelines sample again).
    @inline(__always)
    func valuesChanged() { valueVersion &+= 1 }

    /// Views moved or were put back wholesale (a journal's or a baseline's restore).
    func restored() {
        structureVersion &+= 1
        valueVersion &+= 1
    }

    /// A new mark for one walk over views (a transition's baseline: each view once).
    func nextBaselineMark() -> Int {
        baselineMark &+= 1
        return baselineMark
    }

    /// Takes one view out of the scene (its animations removed from the clock's bookkeeping, not yet dropped
    /// from its list), leaving its place in the hierarchy to the caller.
    func discard(_ view: View, clock: AnimationClock) {
        journals.touch(view)
        view.superview = nil
        if !view.subviews.isEmpty { replaceSubviews(of: view, with: []) }
        for property in ViewProperty.allCases {
            if let animation = view.animations[property.rawValue] {
                journals.touch(animation.group)
                journals.noteStopped(animation)
                clock.setRemoved(animation)
                animation.group.remaining -= 1
                view.animations[property.rawValue] = nil
            }
        }
        for animation in view.layerAnimations where !animation.removed {
            journals.touch(animation.group)
            journals.noteStopped(animation)
            clock.setRemoved(animation)
            animation.group.remaining -= 1
        }
        view.layerAnimations = []
        unlinkMask(view)
        view.isAlive = false
        // The changed-view list does not retain its entries: a view it may hold stays alive until it is emptied.
        if !dirtyViews.isEmpty { keptForChanges.append(view) }
        viewsByID[view.id] = nil
        viewsBySerial[view.serial] = nil
    }

    /// Undoes the view changes a journal recorded (the scene closed it first): the subview lists are put back by
    /// undoing `edits`, the views made since go, the views it recorded get their values and places back (newest record first, so each view ends with the state
    /// of its first record), and every view that was in the scene is reported changed in the next frame.
    func restore(_ journal: CallJournal, edits: ArraySlice<JournalStack.ListEdit>, clock: AnimationClock) {
        restored()
        // The subview lists first, back to what they were when the call began: the call's list edits (`edits`, read
        // from the stack before the journal closed) undone newest first, each undo itself an edit (journals still
        // open, and recorders, see it as any change).
        for edit in edits.reversed() {
            switch edit {
            case .inserted(let index, let superview): removeSubview(at: index, from: superview)
            case .removed(let view, let index, let superview): insertSubview(view, into: superview, at: index)
            case .replaced(let old, let superview): replaceSubviews(of: superview, with: old)
            }
        }
        // Views made since the journal opened go away, each on its own: their parents are views of before, whose
        // subviews are restored below, or made since and going too; a view of before the call moved under a new
        // one is no subview to destroy, it goes back where it was.
        if nextViewSerial > journal.nextViewSerial {
            for serial in journal.nextViewSerial..<nextViewSerial {
                if let view = viewsBySerial[serial] { discard(view, clock: clock) }
            }
        }
        var before: [ObjectIdentifier: ViewValues] = [:]
        for state in journal.views.reversed() {
            let view = state.view
            journals.keep(view)
            if before[ObjectIdentifier(view)] == nil { before[ObjectIdentifier(view)] = view.presentation }
            view.model = state.model
            view.presentation = state.presentation
            view.superview = state.superview
            view.hidden = state.hidden
            view.z = state.z
            view.mask = state.mask
            view.maskedView = state.maskedView
            view.layerAnimations = state.layerAnimations
        }
        for view in viewsBySerial.values where view.serial < journal.nextViewSerial {
            let old = before[ObjectIdentifier(view)] ?? view.presentation
            markChanged(view, ViewChanges.restored(from: old, to: view.presentation).rawValue)
        }
    }

    /// Forgets this tick's changes without reporting them (nobody listens to frames); true when a view still in
    /// the scene changed (the frame counts as sent).
    func dropChanges() -> Bool {
        // One walk, each view borrowed at +0 (the list holds it): no retain and release per view read.
        var anyAlive = false
        for view in dirtyViews.buffer {
            view._withUnsafeGuaranteedRef { v in
                if v.isAlive { anyAlive = true }
                v.dirty = 0
            }
        }
        emptyChanges()
        return anyAlive
    }

    /// Hands this tick's changed views, alive ones in creation order with what changed, to `views` (a frame
    /// event's storage) and starts the next tick's list.
    func takeChanges(into views: inout FrameViews) {
        // The views in creation order: sorted only when they are not in it already (the look is one walk).
        let dirty = dirtyViews.buffer
        if !ViewTree.inSerialOrder(UnsafeBufferPointer(dirty)) { ViewTree.sortBySerial(dirty) }
        views.reserve(views: dirtyViews.count, values: 7)
        let layout = ViewPropertyLayout.shared
        for entry in dirty {
            entry._withUnsafeGuaranteedRef { view in
                let changes = ViewChanges(rawValue: view.dirty)
                view.dirty = 0
                guard view.isAlive else { return }
                views.append(view, changes: changes, layout: layout)
            }
        }
        emptyChanges()
    }

    /// Empties this tick's list, and lets go of the discarded views it held.
    private func emptyChanges() {
        dirtyViews.removeAll()
        if !keptForChanges.isEmpty { keptForChanges.removeAll() }
    }

    /// Puts `views` in creation order. The frame loop leaves them nearly in it (a transition's from-view, made
    /// after its to-view, comes first): an insertion sort puts such a list in order in one walk and a swap per
    /// pair, where the standard sort paid a merge and a closure call per comparison (~7 000 instructions of a
    /// subscribed frame of 200 views); past a budget of moves (a list far from order) the standard sort finishes the job.
    static func sortBySerial(_ views: inout [View]) {
        views.withUnsafeMutableBufferPointer { buffer in
            buffer.withMemoryRebound(to: Unmanaged<View>.self) { sortBySerial($0) }
        }
    }

    /// `sortBySerial` in place on entries read at +0 (the changed-view list's).
    static func sortBySerial(_ buffer: UnsafeMutableBufferPointer<Unmanaged<View>>) {
        @inline(__always) func serial(_ i: Int) -> Int { buffer[i]._withUnsafeGuaranteedRef { $0.serial } }
        guard buffer.count > 1 else { return }
        var budget = 2 * buffer.count + 16
        for i in 1..<buffer.count {
            let s = serial(i)
            var j = i
            while j > 0, serial(j - 1) > s {
                buffer.swapAt(j - 1, j)
                j -= 1
                budget -= 1
                if budget < 0 {
                    var all = buffer
                    all.sort { a, b in
                        a._withUnsafeGuaranteedRef { $0.serial } < b._withUnsafeGuaranteedRef { $0.serial }
                    }
                    return
                }
            }
        }
    }

    /// Whether `views` (the changed-view list's entries, read at +0) are in creation order.
    static func inSerialOrder(_ views: UnsafeBufferPointer<Unmanaged<View>>) -> Bool {
        var previous = Int.min
        for view in views {
            let serial = view._withUnsafeGuaranteedRef { $0.serial }
            guard serial > previous else { return false }
            previous = serial
        }
        return true
    }

    /// A transition's baseline of the subtrees of `first`, `second` and `third` as they are now, recorded on first
    /// touch (TransitionBaseline) from here until it closes.
    func captureBaseline(_ first: View, _ second: View, _ third: View, maxDepth: Int) -> TransitionBaseline {
        TransitionBaseline(roots: (first, second, third), nextViewSerial: nextViewSerial, maxDepth: maxDepth,
                           journals: journals)
    }

    /// Puts every view of a baseline's subtrees back where it was (values, order, superviews) and reports each in
    /// the next frame; views made since and left in those subtrees are destroyed. The recorded views (the ones the
    /// transition's time changed) get their states back; the others are as they were. Animations end in the order
    /// of the subtrees' walk (container, from, to; depth first), as when every view was recorded at the start.
    func restore(_ baseline: TransitionBaseline, clock: AnimationClock) {
        // The views it recorded, read before it closes (then what was kept for it alone is let go).
        let (recorded, lists) = baseline.recorded
        baseline.close()
        restored()
        // Views made during the transition that are still inside the restored subtrees: a view made since can
        // only be in a subview list that changed, that is of a recorded view.
        var made: [View] = []
        for state in recorded {
            for sub in state.view.subviews where sub.serial >= baseline.nextViewSerial && sub.owner == nil {
                made.append(sub)
            }
        }
        for view in made where view.isAlive { destroy(view, clock: clock) }
        // The places first (each recorded view's superview and subviews of the start): then the subtrees are those
        // of the start again, and one walk reaches every view of them.
        var states: [ObjectIdentifier: Int] = [:]
        states.reserveCapacity(recorded.count)
        for (i, state) in recorded.enumerated() where state.view.isAlive {
            let view = state.view
            states[ObjectIdentifier(view)] = i
            journals.touch(view)
            journals.touch(view.superview)
            let subviews = lists.subviews(of: view)
            for sub in subviews where sub.superview !== view { journals.touch(sub); journals.touch(sub.superview) }
            if let old = view.superview, old !== state.superview { removeSubview(view, from: old) }
            view.superview = state.superview?.isAlive == true ? state.superview : nil
            replaceSubviews(of: view, with: subviews.filter(\.isAlive))
            for sub in view.subviews where sub.superview !== view {
                if let old = sub.superview { removeSubview(sub, from: old) }
                sub.superview = view
            }
        }
        func putBack(_ state: CallJournal.ViewState) {
            let view = state.view
            for property in ViewProperty.allCases { clock.removeAnimation(of: view, property, finished: false) }
            let old = view.presentation
            view.model = state.model
            view.presentation = state.presentation
            view.hidden = state.hidden
            view.z = state.z
            view.mask = state.mask
            view.maskedView = state.maskedView
            markChanged(view, ViewChanges.restored(from: old, to: view.presentation).rawValue)
        }
        let unchanged = ViewChanges.alwaysRestored  // what `restored` reports for a view whose values are the same
        let mark = nextBaselineMark()
        var done = 0
        func walk(_ view: View, depth: Int) {
            guard view.baselineMark != mark else { return }
            view.baselineMark = mark
            if let i = states[ObjectIdentifier(view)] {
                putBack(recorded[i])
                done += 1
            } else if view.isAlive {
                if view.animations.contains(where: { $0 != nil }) {
                    // Untouched since the start, its animation running since before it (no frame has written it
                    // since): as a recorded view is, its animations removed.
                    putBack(CallJournal.ViewState(view))
                } else {
                    // Untouched since the start: as it was (its presentation too), reported as a restored view is.
                    markChanged(view, unchanged.rawValue)
                }
            }
            guard depth < baseline.maxDepth else { return }
            for sub in view.subviews { walk(sub, depth: depth + 1) }
        }
        walk(baseline.roots.0, depth: 0)
        walk(baseline.roots.1, depth: 0)
        walk(baseline.roots.2, depth: 0)
        // Recorded views the walk did not reach (their superview of the start is gone).
        if done < states.count {
            for state in recorded where state.view.isAlive && state.view.baselineMark != mark {
                state.view.baselineMark = mark
                putBack(state)
            }
        }
        clock.dropRemoved()
    }

    /// Removes a view (and its subviews) from the scene for good.
    func destroy(_ view: View, clock: AnimationClock) {
        for subview in view.subviews { destroy(subview, clock: clock) }
        removeFromSuperview(view)
        discard(view, clock: clock)
        clock.dropRemoved()
    }

    /// The frame loop's access to this tick's changed views (appending without a call per view).
    @inline(__always)
    func withChangedViews<R>(_ body: (ChangedViews) -> R) -> R { body(dirtyViews) }

    /// Moves `view` into `superview`, on top or at `index` (clamped), out of its old superview first.
    func place(_ view: View, in superview: View, at index: Int? = nil) {
        structureVersion &+= 1
        if let old = view.superview { removeSubview(view, from: old) }
        insertSubview(view, into: superview, at: max(0, min(index ?? superview.subviews.count, superview.subviews.count)))
        view.superview = superview
    }

    /// Takes `view` out of its superview.
    func detach(_ view: View) {
        structureVersion &+= 1
        if let old = view.superview { removeSubview(view, from: old) }
        view.superview = nil
    }

    // The three changes of a subview list: every change goes through one of them, logged while anything records
    // (JournalStack.ListEdit: journals undo, and recorders read back, a list by its changes — nothing holds a copy
    // of a list, so a change to it never copies it).

    /// Inserts `view` into `superview`'s subviews at `index` (at the end: an append).
    private func insertSubview(_ view: View, into superview: View, at index: Int) {
        if index >= superview.subviews.count {
            superview.subviews.append(view)
            journals.noteEdit(.inserted(at: superview.subviews.count - 1, in: superview))
        } else {
            superview.subviews.insert(view, at: index)
            journals.noteEdit(.inserted(at: index, in: superview))
        }
    }

    /// Takes `view` out of `superview`'s subviews (a view is there at most once). Searched from the top: a view
    /// leaving is most often one added last (a transition's from-view), so the search is short even in a crowded
    /// superview.
    private func removeSubview(_ view: View, from superview: View) {
        guard let index = superview.subviews.lastIndex(where: { $0 === view }) else { return }
        removeSubview(at: index, from: superview)
    }

    private func removeSubview(at index: Int, from superview: View) {
        guard index < superview.subviews.count else { return }
        let view = superview.subviews.remove(at: index)
        journals.noteEdit(.removed(view, at: index, from: superview))
    }

    /// Replaces `view`'s subviews wholesale (a discarded view's, a baseline's restore).
    private func replaceSubviews(of view: View, with subviews: [View]) {
        var old = subviews
        swap(&old, &view.subviews)
        journals.noteEdit(.replaced(old, in: view))
    }

    /// Notes that `view`'s presentation changed in this tick (`flags`: the ViewChanges bits).
    func markChanged(_ view: View, _ flags: UInt64) {
        if view.dirty == 0 {
            dirtyViews.append(view)
            // A view no longer filed in the tree: held until the list is emptied.
            if !view.isAlive { keptForChanges.append(view) }
        }
        view.dirty |= flags
    }

    /// Whether `view` (with its own subtree) can go into `superview`: not into itself, not deeper than `maxDepth`.
    func canAdd(_ view: View, to superview: View, maxDepth: Int) -> Bool {
        // One walk up from `superview`: `view` must not be on it (not into itself or its own subtree), and its
        // length is the new place's depth (counted up to maxDepth + 1, as deeper is refused anyway).
        var depth = 0
        var current: View? = superview
        while let v = current {
            if v === view { return false }
            if depth <= maxDepth { depth += 1 }
            current = v.superview
        }
        return depth + subtreeHeight(view, maxDepth: maxDepth) <= maxDepth
    }

    /// scene.tree's view part: the subtree from `view`, with presentation values when asked.
    func node(_ view: View, presentation: Bool) -> ViewNode {
        ViewNode(id: view.id, model: view.model, presentation: presentation ? view.presentation : nil,
                 hidden: view.hidden, z: view.z, mask: view.mask?.id,
                 subviews: view.subviews.map { node($0, presentation: presentation) })
    }

    func subtreeHeight(_ view: View, maxDepth: Int) -> Int {
        var height = 0
        var level = view.subviews
        while !level.isEmpty, height <= maxDepth {
            height += 1
            level = level.flatMap(\.subviews)
        }
        return height
    }
}
