/// A sample's storage sized exactly before its walk (issue 24: a transition's end). `Timeline.record` reserved room
/// for the last sample's views, or four: a 3-view sample's channels kept a fourth view's room (488 bytes) that
/// `Timeline.compact` then copied away at the end. Counting the live subtree first (a walk that only follows the
/// subview lists and masks) lets the walk reserve exactly what it fills, so `compact` finds nothing to copy in the
/// samples taken so. The deferred first sample is not counted first: a count of the tree as it was would look
/// each changed view up in the journal's history as its walk does, which costs more than `compact`'s copy.
extension Timeline {
    /// The number of views `walk` takes from `root` as it is now: the subtree depth first (to
    /// `Scene.maxViewDepth`), then one mask view per masked view.
    static func count(_ root: View) -> Int {
        var count = 0
        func visit(_ view: View, depth: Int) {
            count += view.mask == nil ? 1 : 2
            guard depth < Scene.maxViewDepth else { return }
            for sub in view.subviews { visit(sub, depth: depth + 1) }
        }
        visit(root, depth: 0)
        return count
    }
}
