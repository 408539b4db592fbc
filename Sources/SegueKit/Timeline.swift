/// What a transition looked like over time: the container view's subtree at the transition's start, at every tick
/// while it ran, and at its end. `render.*` replays finished transitions from it, so nothing has to be re-run.
public struct Timeline: Sendable {
    /// One view at one instant.
    public struct ViewSample: Sendable {
        public let id: String
        /// Index of the superview's sample in the same `Sample.views`, or -1 for the subtree's root.
        public let parent: Int
        public let values: ViewValues
        public let hidden: Bool
        public let z: Double
    }

    public struct Sample: Sendable {
        /// Scene time in nanoseconds.
        public let time: Int64
        /// Depth first, superviews before their subviews, subviews back to front.
        public let views: [ViewSample]
    }

    public internal(set) var samples: [Sample] = []
    /// A transition longer than this many ticks keeps its first samples and its last one.
    public static let maxSamples = 3600

    public init() {}

    mutating func record(_ root: View, at time: Int64, final: Bool = false) {
        if let last = samples.last, last.time == time { samples.removeLast() }
        guard samples.count < Timeline.maxSamples || final else { return }
        var views: [ViewSample] = []
        func walk(_ view: View, parent: Int, depth: Int) {
            let index = views.count
            views.append(ViewSample(id: view.id, parent: parent, values: view.presentation, hidden: view.hidden, z: view.z))
            guard depth < Scene.maxViewDepth else { return }
            for sub in view.subviews { walk(sub, parent: index, depth: depth + 1) }
        }
        walk(root, parent: -1, depth: 0)
        samples.append(Sample(time: time, views: views))
    }
}
