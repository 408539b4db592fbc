/// What a transition looked like over time, kept so `render.*` can replay a finished transition without running it
/// again. Recording costs nothing per tick: the timeline keeps full samples of the container view's subtree only
/// when its shape changes or a value is set outside an animation (at the start, at the end, and in between when that
/// happens), plus the animations the transition's animator started — which are pure functions of time. The start's
/// sample is deferred (`DeferredSample`: no walk while the transition starts) and made full when read and at the
/// end; while it is deferred, a later sample whose subtree kept its shape is a patch on it (the views changed since:
/// Timeline+Patch), not a walk.
/// `sample(at:)` rebuilds the subtree at any instant from the last full sample and those animations.
public struct Timeline {
    /// The subtree's shape: depth first, superviews before their subviews, subviews back to front.
    public final class Structure {
        let views: [View]
        /// A view's serial and id never change: read from `views` when first asked (`render.*`), not per sample.
        public private(set) lazy var serials: [Int] = views.map(\.serial)
        public private(set) lazy var ids: [String] = views.map(\.id)
        /// Index of each view's superview in the same arrays, -1 for the subtree's root, `maskParent` for a mask
        /// view (CALayer.mask: outside the tree, after the subtree; drawn only as the mask of its view).
        public let parents: [Int]
        public let hidden: [Bool]
        public let z: [Double]
        /// Index of each view's mask view in the same arrays, -1 for none (nil when no view has one).
        public let masks: [Int]?
        public static let maskParent = -2

        init(views: [View], parents: [Int], masks: [Int]? = nil) {
            self.views = views
            self.parents = parents
            self.masks = masks
            hidden = views.map(\.hidden)
            z = views.map(\.z)
        }

        /// A shape read from recorded states (a deferred sample): `hidden` and `z` as they were then.
        init(views: [View], parents: [Int], masks: [Int]?, hidden: [Bool], z: [Double]) {
            self.views = views
            self.parents = parents
            self.masks = masks
            self.hidden = hidden
            self.z = z
        }
    }

    /// One view at one instant.
    public struct ViewSample {
        public let id: String
        public let parent: Int
        public let values: ViewValues
        public let hidden: Bool
        public let z: Double
        /// Index of the view's mask view in the sample's views, -1 for none.
        public var mask: Int = -1

        /// A view drawn from values read elsewhere (SegueRender's `StateDrawing`: a recorded frame's views).
        public init(id: String, parent: Int, values: ViewValues, hidden: Bool, z: Double, mask: Int = -1) {
            self.id = id
            self.parent = parent
            self.values = values
            self.hidden = hidden
            self.z = z
            self.mask = mask
        }
    }

    public struct Sample {
        /// Scene time in nanoseconds.
        public let time: Int64
        public let structure: Structure
        /// `ViewProperty.channelCount` channels per view, in `structure` order.
        public var channels: [Double]
        /// The gradient views' gradients (`ViewValues.gradient`), by index in `structure`; empty when none is one.
        public var gradients: [Int: GradientValues] = [:]

        public var views: [ViewSample] {
            let n = ViewProperty.channelCount
            return structure.ids.indices.map { i in
                var values = ViewValues(channels: Array(channels[(i * n)..<((i + 1) * n)]))
                values.gradient = gradients[i]
                return ViewSample(id: structure.ids[i], parent: structure.parents[i], values: values,
                                  hidden: structure.hidden[i], z: structure.z[i], mask: structure.masks?[i] ?? -1)
            }
        }
    }

    /// Full samples, in time order (the first at the start, the last at the end): the deferred first one
    /// (`deferred`) made full when read, and the ones taken.
    public var samples: [Sample] {
        guard !patches.isEmpty else {
            guard let deferred else { return taken }
            return [deferred.sample()] + taken
        }
        // The patches come after the first sample and before every full one taken after it (Timeline+Patch).
        guard let first = deferred?.sample() ?? taken.first else { return taken }
        let index = Timeline.index(of: first)
        var samples = [first]
        samples.reserveCapacity(1 + patches.count + taken.count)
        for patch in patches { samples.append(Timeline.apply(patch, to: first, index: index)) }
        samples.append(contentsOf: deferred == nil ? taken.dropFirst() : taken[...])
        return samples
    }
    /// The samples taken with a walk of the subtree (the first one too once it is made full: `settle`).
    internal(set) var taken: [Sample] = []
    /// The first sample when it was taken without a walk (a transition's start: `DeferredSample`), until the
    /// timeline is finished (`settle`): the frames in between never make it full.
    private(set) var deferred: DeferredSample?
    /// The samples taken as patches on the first one while it was deferred, in time order: after the first sample
    /// and before any taken with a walk since (Timeline+Patch).
    internal(set) var patches: [Patch] = []
    /// The animations the transition's animator started, in start order, with when each stopped early (superseded
    /// or removed), if it did.
    var animations: [(animation: PropertyAnimation, stoppedAt: Int64?)] = []
    /// The scene's versions when the last full sample was taken.
    var structureVersion = -1
    var valueVersion = -1
    /// A transition whose shape keeps changing keeps its first samples and its last one.
    public static let maxSamples = 4096
    /// True once the transition's end has been recorded: after that the last sample is the final state. Before it,
    /// instants past the last sample are rebuilt from the animations still running (a running transition).
    public internal(set) var isFinished = false

    public init() {}

    /// A full sample, unless nothing changed since the last one (then only the end of the transition is taken).
    mutating func record(_ root: View, at time: Int64, structureVersion: Int, valueVersion: Int, final: Bool = false) {
        guard final || structureVersion != self.structureVersion || valueVersion != self.valueVersion else { return }
        if final { isFinished = true }
        self.structureVersion = structureVersion
        self.valueVersion = valueVersion
        if let last = taken.last, last.time == time {
            taken.removeLast()
        } else if taken.isEmpty, let last = patches.last, last.time == time {
            patches.removeLast()
        } else if taken.isEmpty, patches.isEmpty, let first = deferred, first.time == time {
            // The deferred first sample is replaced by this one, as a taken one at the same time is.
            deferred = nil
            first.close()
        }
        guard count < Timeline.maxSamples || final else { return }
        // While the first sample is deferred and nothing taken since, a tick whose subtree kept its shape is a
        // patch on it: the views changed since, not a walk (Timeline+Patch).
        if !final, taken.isEmpty, let first = deferred, let patch = first.patch(at: time) {
            patches.append(patch)
            return
        }
        if final {
            // The first sample (made full now) and this one, without regrowing the list.
            taken.reserveCapacity(taken.count + (deferred == nil ? 1 : 2))
            settle()
        }
        // Sized for exactly the views it takes when the subtree is small (Timeline+Exact): no regrowth while
        // walking, nothing to compact.
        let expected = expectedViews(root)
        taken.append(Timeline.walk(root, at: time, expected: expected) { _, _ in false })
    }

    /// The number of samples (the deferred one too).
    private var count: Int { taken.count + patches.count + (deferred == nil ? 0 : 1) }

    /// The first sample, taken without a walk (`DeferredSample`: the live tree with the views changed since kept
    /// as they were), unless nothing changed since the last one; false when it is not taken so (then `sample`
    /// records nothing: close it). Not the first: taken with a walk, as `record` does.
    mutating func recordDeferred(_ sample: DeferredSample, structureVersion: Int, valueVersion: Int) -> Bool {
        guard structureVersion != self.structureVersion || valueVersion != self.valueVersion else { return false }
        guard count == 0 else {
            record(sample.root, at: sample.time, structureVersion: structureVersion, valueVersion: valueVersion)
            return false
        }
        self.structureVersion = structureVersion
        self.valueVersion = valueVersion
        deferred = sample
        return true
    }

    /// The deferred first sample, if any, becomes a full one (one walk of the subtree as it was then) and stops
    /// recording: when the timeline is finished.
    mutating func settle() {
        guard let sample = deferred else { return }
        taken.insert(sample.sample(), at: 0)
        sample.close()
        deferred = nil
    }

    /// The subtree from `root` as a full sample: each view as `recorded` gives it (a deferred sample's state from
    /// before a later change, handed to the reader in place, its subviews from `lists`; false: as it is now).
    static func walk(_ root: View, at time: Int64, expected: Int, lists: JournalStack.ListsThen = .init(),
                     recorded: (View, (borrowing CallJournal.ViewState) -> Void) -> Bool) -> Sample
    {
        var views: [View] = [], parents: [Int] = []
        var hidden: [Bool] = [], z: [Double] = []
        var channels: [Double] = []
        views.reserveCapacity(expected)
        parents.reserveCapacity(expected)
        hidden.reserveCapacity(expected)
        z.reserveCapacity(expected)
        channels.reserveCapacity(expected * ViewProperty.channelCount)
        var masked: [(view: Int, mask: View)] = []
        var gradients: [Int: GradientValues] = [:]
        func walk(_ view: View, parent: Int, depth: Int) {
            let index = views.count
            views.append(view)
            parents.append(parent)
            let changed = recorded(view) { state in
                channels.append(contentsOf: state.presentation.channels)
                if let gradient = state.presentation.gradient { gradients[index] = gradient }
                if let mask = state.mask { masked.append((index, mask)) }
                hidden.append(state.hidden)
                z.append(state.z)
            }
            if !changed {
                channels.append(contentsOf: view.presentationBuffer)
                if let gradient = view.presentationGradient { gradients[index] = gradient }
                if let mask = view.mask { masked.append((index, mask)) }
                hidden.append(view.hidden)
                z.append(view.z)
            }
            guard depth < Scene.maxViewDepth else { return }
            for sub in changed ? lists.subviews(of: view) : view.subviews { walk(sub, parent: index, depth: depth + 1) }
        }
        walk(root, parent: -1, depth: 0)
        // Mask views (CALayer.mask) after the subtree: their presentation values sampled as any view's.
        var masks: [Int]?
        if !masked.isEmpty {
            var m = [Int](repeating: -1, count: views.count + masked.count)
            for (index, mask) in masked {
                m[index] = views.count
                views.append(mask)
                parents.append(Structure.maskParent)
                let at = views.count - 1
                let changed = recorded(mask) { state in
                    hidden.append(state.hidden)
                    z.append(state.z)
                    channels.append(contentsOf: state.presentation.channels)
                    if let gradient = state.presentation.gradient { gradients[at] = gradient }
                }
                if !changed {
                    hidden.append(mask.hidden)
                    z.append(mask.z)
                    channels.append(contentsOf: mask.presentationBuffer)
                    if let gradient = mask.presentationGradient { gradients[views.count - 1] = gradient }
                }
            }
            masks = m
        }
        let structure = Structure(views: views, parents: parents, masks: masks, hidden: hidden, z: z)
        return Sample(time: time, structure: structure, channels: channels, gradients: gradients)
    }

    mutating func started(_ animation: PropertyAnimation) {
        guard animations.count < 100_000 else { return }
        if animations.isEmpty { animations.reserveCapacity(8) }  // a transition starts a few: no regrowth from one
        animations.append((animation, nil))
    }

    mutating func stopped(_ animation: PropertyAnimation, at time: Int64) {
        if let i = animations.lastIndex(where: { $0.animation === animation }), animations[i].stoppedAt == nil {
            animations[i].stoppedAt = time
        }
    }

    /// The heap bytes the timeline holds, estimated from its counts: each sample's channels and structure (its
    /// object and four per-view arrays), each animation's entry and object, and malloc's 16 bytes per block. The
    /// views themselves are not counted: they are the scene's (a view destroyed since stays alive only through
    /// the timeline, and is then undercounted by its own few hundred bytes).
    public var estimatedBytes: Int {
        let block = 16, header = 32
        // The samples as held (the deferred first one is made full before the transition's bytes are counted), not
        // made full: a patch counts its own views.
        let samples = deferred.map { [$0.sample()] + taken } ?? taken
        var bytes = 2 * (block + header) + samples.count * 24 + animations.count * 24
        if !patches.isEmpty { bytes += block + header }
        for patch in patches { bytes += Timeline.estimatedBytes(patch) }
        for sample in samples {
            let n = sample.structure.views.count
            bytes += block + header + sample.channels.count * 8  // the channels
            for g in sample.gradients.values { bytes += 3 * (block + header) + 8 * (g.colors.count + g.locations.count) + 64 }
            bytes += block + 64 + 4 * (block + header) + n * (8 + 8 + 1 + 8)  // the structure
        }
        // A PropertyAnimation: the object (~160 bytes) and its from and to arrays.
        for entry in animations { bytes += block + 160 + 2 * (block + header + 8 * entry.animation.to.count) }
        return bytes
    }

    public var startTime: Int64? { deferred?.time ?? taken.first?.time }
    public var endTime: Int64? {
        // The full samples after the first one come after every patch.
        if taken.count > (deferred == nil ? 1 : 0) { return taken.last?.time }
        return patches.last?.time ?? deferred?.time ?? taken.first?.time
    }

    /// The subtree as it was on screen at `time`: the last full sample at or before it, with the animations running
    /// then applied on top (each at its own elapsed time; one stopped early holds the value it had then).
    public func sample(at time: Int64) -> Sample? {
        let samples = samples
        guard let base = samples.last(where: { $0.time <= time }) ?? samples.first else { return nil }
        if isFinished, let last = samples.last, time >= last.time { return last }
        var sample = base
        var index: [Int: Int] = [:]
        for (i, serial) in base.structure.serials.enumerated() { index[serial] = i }
        let n = ViewProperty.channelCount
        for (animation, stoppedAt) in animations {
            guard animation.createdAt <= time, let i = index[animation.view.serial] else { continue }
            // Already in the base sample: stopped, or over, by then.
            if let stoppedAt, stoppedAt <= base.time { continue }
            if animation.begin + animation.activeNs <= base.time { continue }
            let at = min(time, stoppedAt ?? .max)
            guard at >= animation.begin else { continue }
            let values = animation.values(atElapsed: at - animation.begin)
            if animation.property.isGradient {
                sample.gradients[i]?.set(animation.property, values)
                continue
            }
            let offset = i * n + animation.property.offset
            for k in 0..<min(values.count, animation.property.count) { sample.channels[offset + k] = values[k] }
        }
        return Sample(time: time, structure: sample.structure, channels: sample.channels, gradients: sample.gradients)
    }
}
