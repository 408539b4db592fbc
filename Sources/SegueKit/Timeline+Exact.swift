/// A sample's storage sized exactly before its walk (issue 24: a transition's end). `Timeline.record` reserved room
/// for the last sample's views, or four: a 3-view sample's channels kept a fourth view's room (488 bytes) that
/// `Timeline.compact` then copied away at the end. Counting the live subtree first (a walk that only follows the
/// subview lists and masks) lets the walk reserve exactly what it fills, so `compact` finds nothing to copy in the
/// samples taken so. The count stops past `exactLimit` views: in a crowded container a second walk of every view
/// would be paid on every sample (a frame after a write, the final sample), so a large subtree is reserved as the
/// last sample's and left to `compact`. The deferred first sample is not counted first: a count of the tree as it
/// was would look each changed view up in the journal's history as its walk does, which costs more than
/// `compact`'s copy.
extension Timeline {
    /// Subtrees up to this many views are counted before their walk; larger ones are not counted to the end.
    static let exactLimit = 64

    /// The number of views `walk` takes from `root` as it is now — the subtree depth first (to
    /// `Scene.maxViewDepth`), then one mask view per masked view — or a number above `limit` as soon as it passes it.
    static func count(_ root: View, upTo limit: Int = .max) -> Int {
        var count = 0
        // Stops at once past the limit (not only its descent: a crowded list is not iterated to its end).
        func visit(_ view: View, depth: Int) -> Bool {
            count += view.mask == nil ? 1 : 2
            guard count <= limit else { return false }
            guard depth < Scene.maxViewDepth else { return true }
            for sub in view.subviews where !visit(sub, depth: depth + 1) { return false }
            return true
        }
        _ = visit(root, depth: 0)
        return count
    }

    /// What a sample of `root` reserves: its exact count for a subtree of up to `exactLimit` views, else the last
    /// sample's (the same shape, usually) and at least `exactLimit`.
    func expectedViews(_ root: View) -> Int {
        let counted = Timeline.count(root, upTo: Timeline.exactLimit)
        return counted <= Timeline.exactLimit ? counted : max(taken.last?.structure.views.count ?? 0, counted)
    }
}
