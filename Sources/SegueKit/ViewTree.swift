/// A scene's view tree: the window, every view by id and by serial, the versions timelines key their samples on,
/// and the views whose presentation changed in the current tick. It files views, moves them (`place`, `detach`)
/// and marks changes (`markChanged`); `Scene` journals each change first (SceneJournal) and calls these.
final class ViewTree {
    /// The root of the tree.
    let window: View
    var viewsByID: [String: View] = [:]
    var viewsBySerial: [Int: View] = [:]
    /// The serial the next view gets (serials increase with creation: the engine's deterministic order).
    var nextViewSerial = 0
    /// Increases whenever a view moves in the tree, is destroyed, or changes `hidden` or `z` (timelines reuse the
    /// tree's shape while it stays the same).
    var structureVersion = 0
    /// Increases whenever a property is set outside an animation block.
    var valueVersion = 0
    /// Views whose presentation changed in this tick (one `frame` event entry each). Written by the frame loop
    /// without an exclusivity check per append: the tree is only touched on its scene's thread.
    @exclusivity(unchecked) var dirtyViews: [View] = []

    init(size: Size) {
        window = View(id: "window", serial: 0, frame: Rect(x: 0, y: 0, w: size.w, h: size.h), color: .clear)
        nextViewSerial = 1
        viewsByID["window"] = window
        viewsBySerial[0] = window
    }

    /// Files a new view under its id and serial.
    func insert(_ view: View) {
        nextViewSerial = max(nextViewSerial, view.serial + 1)
        viewsByID[view.id] = view
        viewsBySerial[view.serial] = view
    }

    /// Takes a view out of the indexes (it stays an object others may hold).
    func remove(_ view: View) {
        viewsByID[view.id] = nil
        viewsBySerial[view.serial] = nil
    }

    /// Moves `view` into `superview`, on top or at `index` (clamped), out of its old superview first.
    func place(_ view: View, in superview: View, at index: Int? = nil) {
        structureVersion &+= 1
        view.superview?.subviews.removeAll { $0 === view }
        if let index {
            superview.subviews.insert(view, at: max(0, min(index, superview.subviews.count)))
        } else {
            superview.subviews.append(view)
        }
        view.superview = superview
    }

    /// Takes `view` out of its superview.
    func detach(_ view: View) {
        structureVersion &+= 1
        view.superview?.subviews.removeAll { $0 === view }
        view.superview = nil
    }

    /// Notes that `view`'s presentation changed in this tick (`flags`: the ViewChanges bits).
    func markChanged(_ view: View, _ flags: UInt64) {
        if view.dirty == 0 { dirtyViews.append(view) }
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
