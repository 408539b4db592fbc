/// Samples taken without a walk while the first one is deferred (issue 24: a frame after a write in a crowded
/// container). A tick in which a value was set outside an animation anywhere in the scene samples every running
/// transition's container again; that was a walk of the whole subtree (61 channels per view), so a frame after a
/// write in a container of 10 000 views cost ~900× the same frame in a 10-view scene. While the first sample is
/// still deferred (`DeferredSample`, a recorder of the scene's `JournalStack`), every view that changed since it is
/// one the stack kept since its epoch: the subtree at a later tick is the first sample with those views' values of
/// that tick, as long as no subview list of the subtree (and no mask of a changed view) changed since. Such a
/// sample is a `Patch`: the changed views of the subtree and their values now — O(views changed since the start),
/// whatever the container holds (a subtree no larger than the views kept for the open recorders is walked instead). It is made full (`apply`) only when read (`Timeline.samples`, `render.*`), from the
/// first sample made full: the walk the tick would have taken, value for value. A change of shape in the subtree
/// (or a first sample not deferred) takes a full sample as before, and every later one is full too.
extension Timeline {
    /// The values at `time` of the views of the subtree that changed since the first sample.
    struct Patch {
        let time: Int64
        let views: [PatchedView]
    }

    /// One changed view's sampled values: what `walk` reads from a live view.
    struct PatchedView {
        let view: View
        let channels: [Double]
        let gradient: GradientValues?
        let hidden: Bool
        let z: Double
    }

    /// `patch` made full: `first` (the first sample, made full) with each patched view's values in its place.
    static func apply(_ patch: Patch, to first: Sample, index: [ObjectIdentifier: Int]) -> Sample {
        let n = ViewProperty.channelCount
        var channels = first.channels
        var gradients = first.gradients
        var hidden = first.structure.hidden
        var z = first.structure.z
        for patched in patch.views {
            guard let i = index[ObjectIdentifier(patched.view)] else { continue }
            channels.withUnsafeMutableBufferPointer { target in
                for k in 0..<min(n, patched.channels.count) { target[i * n + k] = patched.channels[k] }
            }
            gradients[i] = patched.gradient
            hidden[i] = patched.hidden
            z[i] = patched.z
        }
        let s = first.structure
        let structure = Structure(views: s.views, parents: s.parents, masks: s.masks, hidden: hidden, z: z)
        return Sample(time: patch.time, structure: structure, channels: channels, gradients: gradients)
    }

    /// The position of each view in `sample` (a mask view is sampled once, after the subtree).
    static func index(of sample: Sample) -> [ObjectIdentifier: Int] {
        var index: [ObjectIdentifier: Int] = [:]
        index.reserveCapacity(sample.structure.views.count)
        for (i, view) in sample.structure.views.enumerated() { index[ObjectIdentifier(view)] = i }
        return index
    }

    /// How many levels below `root` `view` is, if `walk` from `root` reaches it (at most `Scene.maxViewDepth`).
    static func depth(of view: View, below root: View) -> Int? {
        var current = view, depth = 0
        while current !== root {
            guard depth < Scene.maxViewDepth, let up = current.superview else { return nil }
            current = up
            depth += 1
        }
        return depth
    }

    /// The heap bytes a patch holds, estimated as `estimatedBytes` counts a sample: its entry, its view list, and
    /// per view its channels (a gradient's as a sample's).
    static func estimatedBytes(_ patch: Patch) -> Int {
        let block = 16, header = 32
        var bytes = 24 + block + header + patch.views.count * 48
        for patched in patch.views {
            bytes += block + header + patched.channels.count * 8
            if let g = patched.gradient { bytes += 3 * (block + header) + 8 * (g.colors.count + g.locations.count) + 64 }
        }
        return bytes
    }
}

extension DeferredSample {
    /// The subtree at `time` as a `Timeline.Patch` on this (first) sample, or nil when its shape changed since (a
    /// subview list of the subtree, or a changed view's mask): then only a walk gives it.
    func patch(at time: Int64) -> Timeline.Patch? {
        guard let journals else { return nil }
        let root = root
        // A patch looks at every view kept for the open recorders (other transitions' too): a subtree no larger than
        // that is walked, as cheaply, so many small running transitions never scan each other's views per sample.
        let kept = journals.keptViews
        guard Timeline.count(root, upTo: kept) > kept else { return nil }
        for edit in journals.edits(since: editMark) where Timeline.depth(of: edit.superview, below: root) != nil {
            return nil
        }
        var views: [Timeline.PatchedView] = []
        var shapeChanged = false
        journals.forEachKept(since: epoch) { view, then in
            guard !shapeChanged else { return }
            // A mask view is sampled after the subtree when the view it masks is in it (it has no superview).
            let sampled: View = if let masked = view.maskedView, masked.mask === view { masked } else { view }
            guard Timeline.depth(of: sampled, below: root) != nil else { return }
            guard view.mask === then.mask else {
                shapeChanged = true
                return
            }
            views.append(Timeline.PatchedView(
                view: view, channels: Array(view.presentationBuffer), gradient: view.presentationGradient,
                hidden: view.hidden, z: view.z))
        }
        return shapeChanged ? nil : Timeline.Patch(time: time, views: views)
    }
}
