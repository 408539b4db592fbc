/// A view: model values (what was last set) and presentation values (what is on screen now), a place in the view
/// tree, and the animations running on it. Views belong to one scene and are touched only on its thread.
public final class View {
    public let id: String
    /// Scene-unique, increasing with creation: the order used wherever the engine must be deterministic.
    public let serial: Int
    public internal(set) var model: ViewValues
    /// The presentation values' channels (`ViewProperty.channelCount` of them, at the table's offsets), owned by the
    /// view: allocated with it, freed in its deinit, never shared. The frame loop's records (`AnimationTrack.channels`)
    /// keep addresses into it from an animation's start to its end, so no copy of these values may share the storage
    /// (as a copy-on-write array would): every reader that keeps them — journals, baselines, timeline samples,
    /// snapshots — copies them when it records (`presentation`'s getter makes a fresh `ViewValues`), and a later write
    /// through the loop's address is seen by nobody but the view. Written only on the scene's thread.
    let presentationChannels: UnsafeMutablePointer<Double>
    /// A gradient view's presentation gradient (`ViewValues.gradient`); nil for every other view.
    public internal(set) var presentationGradient: GradientValues?
    /// The presentation values (what is on screen now): a copy of the view's own storage, taken when read; setting
    /// it copies the values in.
    public internal(set) var presentation: ViewValues {
        get {
            ViewValues(copying: UnsafeBufferPointer(start: presentationChannels, count: ViewProperty.channelCount),
                       gradient: presentationGradient)
        }
        set {
            newValue.channels.withUnsafeBufferPointer { source in
                guard let base = source.baseAddress else { return }
                presentationChannels.update(from: base, count: min(source.count, ViewProperty.channelCount))
            }
            presentationGradient = newValue.gradient
        }
    }
    /// The view this one is a subview of, nil once that view is gone. Held through the superview's `anchor`
    /// (not `weak`, which would give every superview a side table: see `Anchor`): the superview's deinit clears
    /// its anchor, so this reads nil after it, as a weak reference would.
    public internal(set) var superview: View? {
        get { superviewAnchor?.object }
        set { superviewAnchor = newValue?.anchor }
    }
    private var superviewAnchor: Anchor<View>?
    /// This view's anchor, made the first time it becomes a superview; cleared in deinit.
    private var ownAnchor: Anchor<View>?
    public internal(set) var subviews: [View] = []
    public internal(set) var hidden = false
    /// CALayer.mask: a view with no superview whose shape and alpha mask this one (issue 26); nil when unset. Set
    /// through `Scene.setMask`, which refuses a view in a tree or one this view is inside; cleared when it is
    /// destroyed. Not animated (the mask view's own properties animate as any view's).
    public internal(set) var mask: View?
    /// The view this one is the mask of, if any (CA: a layer is the mask of at most one layer). Not retained: it
    /// holds this view through `mask`, and both links are cleared together.
    internal(set) unowned(unsafe) var maskedView: View?
    public internal(set) var z: Double = 0
    /// The view controller whose view this is, if any.
    ///
    /// Invariant: written only by `ViewController.init` (the one place a view gets its owner) and cleared by that
    /// view controller's deinit when it is still the owner, so it is never left pointing at a freed controller. Not
    /// `weak`: that would give every view controller a side table (see `Anchor`).
    public internal(set) unowned(unsafe) var owner: ViewController?
    /// The running animation of each property, by `ViewProperty.rawValue`.
    var animations = [PropertyAnimation?](repeating: nil, count: ViewProperty.allCases.count)
    /// The explicit layer animations on the view (`view:add_animation`), in the order they were added (a later
    /// one is drawn over an earlier one of the same property, as CA composites them); their keys are unique.
    var layerAnimations: [PropertyAnimation] = []
    /// Properties whose presentation value changed in the current tick (`ViewChanges`: a bit per property).
    @exclusivity(unchecked) var dirty: UInt64 = 0
    /// The last journal that recorded this view (Scene.touch).
    var journalEpoch = 0
    /// The mark of the last baseline restore's walk that reached this view (ViewTree.restore).
    var baselineMark = 0
    /// The scene's newest recorder (cancel baseline, deferred first sample) when this view was last kept for the
    /// recorders (JournalStack.keep).
    var touchedEpoch = 0
    /// False once the view has been destroyed (a Lua proxy may still name it).
    public internal(set) var isAlive = true

    init(id: String, serial: Int, frame: Rect, color: Color) {
        self.id = id
        self.serial = serial
        model = ViewValues(frame: frame, color: color)
        presentationChannels = .allocate(capacity: ViewProperty.channelCount)
        model.channels.withUnsafeBufferPointer { source in
            for k in 0..<ViewProperty.channelCount { (presentationChannels + k).initialize(to: source[k]) }
        }
        presentationGradient = model.gradient
    }

    deinit {
        ownAnchor?.object = nil
        presentationChannels.deallocate()
    }

    /// The presentation values of `property`: its channels, or a gradient view's part (none when the view has no
    /// gradient), as `presentation.get(property)` without copying the other channels.
    public func presentationValues(of property: ViewProperty) -> [Double] {
        if property.isGradient { return presentationGradient?.values(of: property) ?? [] }
        return Array(UnsafeBufferPointer(start: presentationChannels + property.offset, count: property.count))
    }

    /// Sets the presentation values of `property` in place (`presentation.set(property, values)` without a copy of
    /// the whole values).
    func setPresentation(_ property: ViewProperty, _ values: some Collection<Double>) {
        if property.isGradient {
            presentationGradient?.set(property, values)
            return
        }
        var i = property.offset
        for v in values {
            presentationChannels[i] = v
            i += 1
        }
    }

    /// The presentation channels, read in place.
    @inline(__always)
    var presentationBuffer: UnsafeBufferPointer<Double> {
        UnsafeBufferPointer(start: presentationChannels, count: ViewProperty.channelCount)
    }

    /// The anchor subviews hold (see `superview`).
    var anchor: Anchor<View> { Anchor.kept(in: &ownAnchor, for: self) }

    public var isAnimating: Bool { animations.contains { $0 != nil } }

    /// True when `self` is `view` or one of its descendants.
    public func isDescendant(of view: View) -> Bool {
        var current: View? = self
        while let v = current {
            if v === view { return true }
            current = v.superview
        }
        return false
    }
}
