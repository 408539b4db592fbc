/// An isolated screen: a size, a window view, view controllers, a clock, running animations and transitions.
///
/// A scene is driven from one thread. Time is integer nanoseconds; manual scenes move only when told to, in frame
/// steps of 1/fps plus a final partial step, so the same commands always give the same frames.
public final class Scene {
    public let id: String
    public internal(set) var size: Size
    /// The size classes (docs/PROTOCOL.md "Size classes"): from the size, unless a create or resize overrode them.
    public internal(set) var traits: Traits
    /// When the running size transition (scene.resize with a duration) ends; another resize waits for it.
    var sizeTransitionEnd: Int64?
    public let clockMode: ClockMode
    public let fps: Int
    public var speed: Double = 1
    public let config: EngineConfig
    /// Scene time in nanoseconds (the animation clock's).
    public var now: Int64 { clock.now }
    /// The window: the root of the view tree.
    public var window: View { tree.window }
    /// The view controller whose view fills the window (ControllerTree).
    public var root: ViewController? { controllers.root }
    /// Where events go. Strong: a sink must not hold the scene strongly (the daemon registers a relay that holds
    /// it by an unowned reference it clears in its deinit, `SceneEventRelay`). Not weak, which would give the sink a
    /// side table and cost a runtime weak load per event.
    public var sink: (any EventSink)?
    public weak var animatorProvider: (any AnimatorProvider)?
    /// What holds this scene without owning it (see `Anchor`): set in init, cleared in deinit.
    public let anchor = Anchor<Scene>(nil)
    /// The last event sequence number of this scene.
    public internal(set) var eventSeq = 0
    /// Ticks in which some presentation value changed (one `frame` event each, whether or not anyone listened).
    public internal(set) var framesEvaluated = 0

    /// The view controllers: by id, their containment and appearance calls.
    let controllers = ControllerTree()

    /// The open journals of animator calls: every owner records a change there before making it.
    let journals = JournalStack()
    /// The view tree: views by id and serial, the window, this tick's changed views.
    let tree: ViewTree
    /// The animation clock: scene time, running animations (the frame loop), blocks, completions, timers.
    let clock: AnimationClock
    /// The transition bookkeeping: transitions, driven ones, presentations, queues, the watchdog, journals.
    let ledger = TransitionLedger()

    /// The storage of the frame events' views, reused from tick to tick.
    var frameViews = FrameViews()

    public init(id: String, size: Size, clock: ClockMode, fps: Int? = nil, config: EngineConfig = EngineConfig(),
                traits override: TraitOverride = TraitOverride())
    {
        self.id = id
        self.size = size
        self.traits = Traits.of(size, override: override)
        self.clockMode = clock
        self.fps = max(1, min(fps ?? config.fps, 1000))
        self.config = config
        tree = ViewTree(size: size, journals: journals)
        self.clock = AnimationClock(fps: self.fps, tree: tree, journals: journals)
        anchor.object = self
    }

    deinit { anchor.object = nil }

    public var time: Double { Double(now) / 1e9 }
    /// Property animations running now.
    public var runningAnimationCount: Int { clock.running.count { !$0.removed } }
    public var views: Int { tree.viewsByID.count }

    // MARK: Events

    /// Emits an event with this scene's next sequence number and the current time.
    /// An event its sink does not want (`EventSink.wants`: the daemon with no subscriber and nothing of its own to
    /// do with the kind) is not built: its sequence number is taken all the same.
    public func emit(_ payload: EngineEvent.Payload) {
        eventSeq += 1
        guard let sink else { return }
        guard sink.wants(payload.kind) else { return sink.skipped(payload.kind) }
        sink.emit(EngineEvent(scene: id, seq: eventSeq, time: time, payload: payload))
    }

    /// The same, with the payload made only when the sink wants `kind` (its payload's kind): the lifecycle calls
    /// of every transition, whose events a daemon with no subscriber drops, and its `transition.began`, which such
    /// a daemon only counts (`EventSink.skipped`), then build nothing.
    @inline(__always)
    func emit(_ kind: EngineEvent.Kind, _ payload: @autoclosure () -> EngineEvent.Payload) {
        eventSeq += 1
        guard let sink else { return }
        guard sink.wants(kind) else { return sink.skipped(kind) }
        let made = payload()
        assert(made.kind == kind, "emit(\(kind)) made a \(made.kind) event")
        sink.emit(EngineEvent(scene: id, seq: eventSeq, time: time, payload: made))
    }

    /// A plugin's warning (`plugin.warning`), with what kind of mistake it is and where; a raise in a callback
    /// is also kept on the transitions the plugin takes part in (`transition.get`'s `problems`).
    public func warn(_ plugin: String, _ message: String, code: PluginWarning.Code = .other, file: String? = nil,
                     line: Int? = nil)
    {
        warn(plugin, PluginWarning(code: code, message: message, file: file, line: line))
    }

    public func warn(_ plugin: String, _ warning: PluginWarning) {
        if warning.code == .raisedInCallback { ledger.noteRaise(of: plugin, warning.message, in: self) }
        emit(.pluginWarning(name: plugin, file: warning.file, message: warning.message, line: warning.line,
                            code: warning.code))
    }

    // MARK: Views

    /// Makes a new view (not yet in the tree).
    public func makeView(id: String? = nil, frame: Rect, color: Color = .white) throws(EngineError) -> View {
        try tree.makeView(id: id, frame: frame, color: color, limit: config.maxViewsPerScene, scene: self.id)
    }

    public func view(_ id: String) -> View? { tree.viewsByID[id] }
    public func view(serial: Int) -> View? { tree.viewsBySerial[serial] }

    /// How deep the view tree may go (the window is depth 0): deeper trees are refused, so nothing that walks the
    /// tree recursively (scene.tree, serialization) can run out of stack.
    public static let maxViewDepth = 128

    /// Whether `view` (with its own subtree) can go into `superview`: not into itself, not too deep.
    public func canAdd(_ view: View, to superview: View) -> Bool {
        tree.canAdd(view, to: superview, maxDepth: Scene.maxViewDepth)
    }

    /// addSubview: moves `view` to the top of `superview`'s subviews.
    public func addSubview(_ view: View, to superview: View) { _ = addSubviewIfAllowed(view, to: superview) }

    /// addSubview, answering whether the view could go there (`canAdd`, checked once): nothing changes when not.
    public func addSubviewIfAllowed(_ view: View, to superview: View) -> Bool {
        tree.add(view, to: superview, maxDepth: Scene.maxViewDepth)
    }

    public func insertSubview(_ view: View, into superview: View, at index: Int) {
        tree.insert(view, into: superview, at: index, maxDepth: Scene.maxViewDepth)
    }

    public func removeFromSuperview(_ view: View) { tree.removeFromSuperview(view) }

    /// CALayer.mask: sets (or with nil removes) the view whose shape and alpha mask `view`. Returns why a mask is
    /// refused — one with a superview, the view itself, or a view `view` is inside (CA's mask layer "must not have
    /// a superlayer") — and then nothing changes.
    @discardableResult
    public func setMask(_ view: View, _ mask: View?) -> String? {
        if let mask {
            if !mask.isAlive { return "view.mask expects a live view, got view \(mask.id) (destroyed; the write did not happen)" }
            if mask === view { return "view.mask cannot be the view itself, got view \(mask.id) (the write did not happen)" }
            if let superview = mask.superview {
                return "view.mask expects a view with no superview, got view \(mask.id) (a subview of \(superview.id); the write did not happen)"
            }
            if view.isDescendant(of: mask) {
                return "view.mask cannot be an ancestor of the view, got view \(mask.id) (view \(view.id) is inside it; the write did not happen)"
            }
        }
        tree.setMask(view, mask)
        return nil
    }

    public func bringToFront(_ view: View) { tree.bringToFront(view) }

    // MARK: Properties (animated inside `animate`)

    public func set(_ view: View, frame: Rect) { clock.set(view, frame: frame) }
    public func set(_ view: View, bounds: Rect) { clock.set(view, bounds: bounds) }
    public func set(_ view: View, center: Point) { clock.set(view, center: center) }
    /// Sets the model alpha, clamped to 0…1 (UIKit's); an animation toward it may overshoot on the way.
    public func set(_ view: View, alpha: Double) { clock.set(view, alpha: alpha) }
    public func set(_ view: View, transform: Transform3D) { clock.set(view, transform: transform) }
    public func set(_ view: View, color: Color) { clock.set(view, color: color) }

    public func set(_ view: View, hidden: Bool) { tree.setHidden(view, hidden) }

    /// zPosition: not animated (set at once, also inside a block); reported in `frame` events when it changes.
    public func set(_ view: View, z: Double) { tree.setZ(view, z) }

    /// Sets a property's model value. Inside an animation block it animates from the presentation value
    /// (superseding a running animation of the property); outside, the presentation jumps with the model.
    public func set(_ view: View, _ property: ViewProperty, _ values: [Double]) {
        values.withUnsafeBufferPointer { clock.set(view, property, $0, array: values) }
    }

    /// `set` from values in place (AnimationClock.set).
    @inline(__always)
    func set(_ view: View, _ property: ViewProperty, _ values: UnsafeBufferPointer<Double>, array: [Double]?) {
        clock.set(view, property, values, array: array)
    }

    // MARK: Animation blocks

    /// UIView.animate: every property set in `changes` animates with `options`; `completion` runs once all the
    /// block's animations have ended (finished = false when any was superseded or removed).
    public func animate(_ options: AnimationOptions, _ changes: () -> Void, completion: ((Bool) -> Void)? = nil) {
        beginAnimations(options, completion: completion)
        changes()
        commitAnimations()
    }

    /// Opens an animation block (for callers that cannot pass a closure, like the Lua bridge).
    public func beginAnimations(_ options: AnimationOptions, completion: ((Bool) -> Void)?) {
        clock.beginBlock(options, completion: completion, keyframes: nil)
    }

    /// Closes the innermost block. A block that animated nothing completes (finished = true) at the next tick.
    public func commitAnimations() { clock.commitBlock() }

    // MARK: Keyframes (UIView.animateKeyframes)

    /// Opens a keyframe block: properties set inside `addKeyframe` windows become segments of one animation per
    /// property, run over `options.duration` with `options.timing` applied to the whole (default linear).
    public func beginKeyframes(_ options: AnimationOptions, calculationMode: CalculationMode = .linear,
                               completion: ((Bool) -> Void)?)
    {
        clock.beginBlock(options, completion: completion, keyframes: KeyframeRecorder(mode: calculationMode))
    }

    /// addKeyframe(withRelativeStartTime:relativeDuration:): `changes` run with their sets recorded as the
    /// segment [start, start + duration] (fractions of the block's duration).
    public func addKeyframe(start: Double, duration: Double, _ changes: () -> Void) {
        clock.addKeyframe(start: start, duration: duration, changes)
    }

    public var isInAnimationBlock: Bool { !clock.blockStack.isEmpty }

    // MARK: Timers

    /// Runs `action` after `seconds` of scene time (at the first tick at or after that time).
    public func after(_ seconds: Double, _ action: @escaping () -> Void) { clock.after(seconds, action) }

    // MARK: Clock

    /// The time of frame `k` on the scene's grid (AnimationClock.frameTime).
    public func frameTime(_ k: Int64) -> Int64 { clock.frameTime(k) }

    /// Advances a manual clock by `ns`: whole frame steps, then a final partial step. Returns the new time.
    /// `progress` is called after each tick (the daemon tells its stall detector that a long advance still moves).
    @discardableResult
    public func advance(by ns: Int64, progress: (() -> Void)? = nil) -> Int64 {
        let target = now + max(0, ns)
        advance(to: target, progress: progress)
        return now
    }

    /// Advances by `frames` whole frame steps; `progress` is called after each.
    @discardableResult
    public func step(frames: Int, progress: (() -> Void)? = nil) -> Int64 {
        for _ in 0..<max(0, frames) {
            tick(to: clock.nextFrameTime())
            progress?()
        }
        return now
    }

    /// Ticks on the frame grid up to `target`, then once at `target` when it falls between frames; `progress` is
    /// called after each tick.
    public func advance(to target: Int64, progress: (() -> Void)? = nil) {
        while now < target {
            tick(to: min(clock.nextFrameTime(), target))
            progress?()
        }
    }

    /// One tick: animations are evaluated, then completions run (their lifecycle and transition events), timers
    /// fire, the watchdog looks at running transitions, and last the tick's `frame` event is emitted.
    public func tick(to time: Int64) {
        guard clock.beginTick() else { return }
        defer { clock.endTick() }
        clock.move(to: time)
        keepAnimatingViews()
        clock.evaluate()
        ledger.advanceDrives(in: self)
        clock.advanceAnimators(in: self)
        clock.runPendingCompletions()
        clock.fireTimers()
        checkWatchdogs()
        clock.runPendingCompletions()
        recordTimelines()
        emitFrame()
    }

    /// Adds this tick to the timeline of every running transition.
    func recordTimelines() { ledger.recordTimelines(tree, at: now) }

    func emitFrame() {
        guard !tree.dirtyViews.isEmpty else { return }
        guard sink?.isListening(to: .frame, in: id) ?? false else {
            // Nobody wants frames: skip building the event, but keep the sequence as if it had been sent.
            if tree.dropChanges() {
                eventSeq += 1
                framesEvaluated += 1
            }
            return
        }
        // The views' storage is the scene's, lent to the event and taken back once it was handed on (a sink that
        // kept the event keeps its own copy).
        var views = frameViews
        frameViews = FrameViews()
        views.removeAll()
        tree.takeChanges(into: &views)
        guard !views.isEmpty else {
            frameViews = views
            return
        }
        framesEvaluated += 1
        emit(.frame(views))
        views.removeAll()
        frameViews = views
    }
}

// MARK: Explicit layer animations (CALayer.add(_:forKey:))

extension Scene {
    /// CALayer.add(_:forKey:): adds an explicit animation to `view` (replacing one with the same key). The model
    /// value is not changed; the presentation shows the animation. Throws naming the field when refused.
    public func addAnimation(_ spec: LayerAnimationSpec, forKey key: String, to view: View,
                             completion: ((Bool) -> Void)? = nil) throws(LayerAnimationError)
    {
        try clock.addLayerAnimation(view, key: key, spec, completion: completion)
    }

    /// CALayer.removeAnimation(forKey:); false when the view has no animation with that key.
    @discardableResult
    public func removeAnimation(forKey key: String, from view: View) -> Bool { clock.removeLayerAnimation(view, key: key) }

    /// CALayer.animationKeys(): the keys of the view's explicit animations, in the order they were added.
    public func animationKeys(of view: View) -> [String] { clock.layerAnimationKeys(view) }
}
