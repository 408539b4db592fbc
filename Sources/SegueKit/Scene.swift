/// An isolated screen: a size, a window view, view controllers, a clock, running animations and transitions.
///
/// A scene is driven from one thread. Time is integer nanoseconds; manual scenes move only when told to, in frame
/// steps of 1/fps plus a final partial step, so the same commands always give the same frames.
public final class Scene {
    public let id: String
    public internal(set) var size: Size
    /// The size classes (docs/PROTOCOL.md "Size classes"): from the size, unless a create or resize overrode them.
    public internal(set) var traits: Traits
    public let clockMode: ClockMode
    public let fps: Int
    public var speed: Double = 1
    public let config: EngineConfig
    /// Scene time in nanoseconds (the animation clock's).
    public internal(set) var now: Int64 {
        get { clock.now }
        set { clock.now = newValue }
    }
    /// The window: the root of the view tree.
    public var window: View { tree.window }
    public internal(set) var root: ViewController?
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

    var viewControllersByID: [String: ViewController] = [:]
    var nextVCNumber = 1

    /// The view tree: views by id and serial, the window, this tick's changed views.
    let tree: ViewTree
    /// The animation clock: scene time, running animations (the frame loop), blocks, completions, timers.
    let clock: AnimationClock
    /// The transition bookkeeping: transitions, driven ones, presentations, queues, the watchdog, journals.
    let ledger = TransitionLedger()

    /// Views whose presentation changed in this tick (the tree's; `emitFrame` reports them).
    var dirtyViews: [View] {
        get { tree.dirtyViews }
        _modify { yield &tree.dirtyViews }
    }
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
        tree = ViewTree(size: size)
        self.clock = AnimationClock()
        anchor.object = self
    }

    deinit { anchor.object = nil }

    public var time: Double { Double(now) / 1e9 }
    /// Property animations running now.
    public var runningAnimationCount: Int { clock.running.count { !$0.removed } }
    public var views: Int { tree.viewsByID.count }

    // MARK: Events

    /// Emits an event with this scene's next sequence number and the current time.
    public func emit(_ payload: EngineEvent.Payload) {
        eventSeq += 1
        sink?.emit(EngineEvent(scene: id, seq: eventSeq, time: time, payload: payload))
    }

    /// A plugin's warning (`plugin.warning`), with what kind of mistake it is and where; a raise in a callback
    /// is also kept on the transitions the plugin takes part in (`transition.get`'s `problems`).
    public func warn(_ plugin: String, _ message: String, code: PluginWarning.Code = .other, file: String? = nil,
                     line: Int? = nil)
    {
        warn(plugin, PluginWarning(code: code, message: message, file: file, line: line))
    }

    public func warn(_ plugin: String, _ warning: PluginWarning) {
        if warning.code == .raisedInCallback { noteRaise(of: plugin, warning.message) }
        emit(.pluginWarning(name: plugin, file: warning.file, message: warning.message, line: warning.line,
                            code: warning.code))
    }

    // MARK: Views

    /// Makes a new view (not yet in the tree).
    public func makeView(id: String? = nil, frame: Rect, color: Color = .white) throws(EngineError) -> View {
        guard tree.viewsByID.count < config.maxViewsPerScene else {
            throw EngineError(.limitExceeded, "scene '\(self.id)' has \(config.maxViewsPerScene) views (limits.max_views_per_scene)")
        }
        let serial = tree.nextViewSerial
        let viewID = id ?? "v-\(serial)"
        guard tree.viewsByID[viewID] == nil else {
            throw EngineError(.invalidParams, "a view with id '\(viewID)' already exists", param: "id")
        }
        let view = View(id: viewID, serial: serial, frame: frame, color: color)
        tree.insert(view)
        return view
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
        guard canAdd(view, to: superview) else { return false }
        touch(view)
        touch(view.superview)
        touch(superview)
        tree.place(view, in: superview)
        return true
    }

    public func insertSubview(_ view: View, into superview: View, at index: Int) {
        guard canAdd(view, to: superview) else { return }
        touch(view)
        touch(view.superview)
        touch(superview)
        tree.place(view, in: superview, at: index)
    }

    public func removeFromSuperview(_ view: View) {
        touch(view)
        touch(view.superview)
        tree.detach(view)
    }

    public func bringToFront(_ view: View) {
        tree.structureVersion &+= 1
        guard let superview = view.superview else { return }
        touch(superview)
        superview.subviews.removeAll { $0 === view }
        superview.subviews.append(view)
    }

    // MARK: Properties (animated inside `animate`)

    public func set(_ view: View, frame: Rect) {
        var center = (frame.x + frame.w / 2, frame.y + frame.h / 2)
        withUnsafeBytes(of: &center) { set(view, .center, $0.bindMemory(to: Double.self), array: nil) }
        let bounds = view.model.bounds
        var values = (bounds.x, bounds.y, frame.w, frame.h)
        withUnsafeBytes(of: &values) { set(view, .bounds, $0.bindMemory(to: Double.self), array: nil) }
    }

    public func set(_ view: View, bounds: Rect) {
        var values = (bounds.x, bounds.y, bounds.w, bounds.h)
        withUnsafeBytes(of: &values) { set(view, .bounds, $0.bindMemory(to: Double.self), array: nil) }
    }
    public func set(_ view: View, center: Point) {
        var values = (center.x, center.y)
        withUnsafeBytes(of: &values) { set(view, .center, $0.bindMemory(to: Double.self), array: nil) }
    }
    /// Sets the model alpha, clamped to 0…1 (UIKit's). What an animation toward it shows on the way (the
    /// presentation value) is the curve's or spring's own and may overshoot; drawing clamps it.
    public func set(_ view: View, alpha: Double) {
        let value = alpha.isNaN ? 1 : min(max(alpha, 0), 1)
        withUnsafePointer(to: value) { set(view, .alpha, UnsafeBufferPointer(start: $0, count: 1), array: nil) }
    }
    public func set(_ view: View, transform: Transform3D) {
        var m = transform.m
        withUnsafeBytes(of: &m) { set(view, .transform, $0.bindMemory(to: Double.self), array: nil) }
    }
    public func set(_ view: View, color: Color) {
        var values = (color.r, color.g, color.b, color.a)
        withUnsafeBytes(of: &values) { set(view, .color, $0.bindMemory(to: Double.self), array: nil) }
    }

    public func set(_ view: View, hidden: Bool) {
        guard view.hidden != hidden else { return }
        touch(view)
        view.hidden = hidden
        tree.structureVersion &+= 1
        markDirty(view, .hidden)
    }

    /// zPosition: not animated (set at once, also inside a block); reported in `frame` events when it changes.
    public func set(_ view: View, z: Double) {
        guard view.z != z, z.isFinite else { return }
        touch(view)
        view.z = z
        tree.structureVersion &+= 1
        markDirty(view, .z)
    }

    /// Sets a property's model value. Inside an animation block it animates from the presentation value
    /// (superseding a running animation of the property); outside, the presentation jumps with the model.
    public func set(_ view: View, _ property: ViewProperty, _ values: [Double]) {
        values.withUnsafeBufferPointer { set(view, property, $0, array: values) }
    }

    /// `set` from values in place (the typed setters pass their fields without building an array): an array is
    /// made only when the value is kept — an animation's target, a keyframe — unless the caller already has one.
    func set(_ view: View, _ property: ViewProperty, _ values: UnsafeBufferPointer<Double>, array: [Double]?) {
        // The table's fields through its flat layout: `property.info` would build the whole entry per read.
        let layout = ViewPropertyLayout.shared
        guard values.count == layout.kinds[property.rawValue].count, view.isAlive else { return }
        let offset = layout.storage[property.rawValue]
        if offset == ViewPropertyLayout.zPosition { return set(view, z: values[0]) }
        if offset == ViewPropertyLayout.hiddenFlag { return set(view, hidden: values[0] != 0) }
        touch(view)
        // Compared in place (no copy of the old values): only whether the model value changes matters below.
        let changed = view.model.channels.withUnsafeBufferPointer { old in
            for k in 0..<values.count where old[offset + k] != values[k] { return true }
            return false
        }
        view.model.channels.withUnsafeMutableBufferPointer { channels in
            for k in 0..<values.count { channels[offset + k] = values[k] }
        }
        // A property that does not animate is set at once, also inside a block.
        let block = layout.animates & property.changeBit != 0 ? clock.blockStack.last : nil
        if let block, let keyframes = block.keyframes {
            keyframes.record(view, property, array ?? Array(values))
            return
        }
        if let block, block.options.duration > 0 || block.options.delay > 0 {
            guard changed || view.animations[property.rawValue] != nil else { return }
            let from = Array(view.presentation.get(property))
            addAnimation(
                view, property, from: from, to: array ?? Array(values), options: block.options, group: block.group)
        } else {
            let wasAnimating = view.animations[property.rawValue] != nil
            removeAnimation(of: view, property, finished: false)
            guard changed || wasAnimating else { return }
            view.presentation.channels.withUnsafeMutableBufferPointer { channels in
                for k in 0..<values.count { channels[offset + k] = values[k] }
            }
            markDirty(view, property)
            tree.valueVersion &+= 1
        }
    }

    /// Starts an animation of `property` (superseding a running one: the old block's completion gets
    /// finished = false; a new spring carries the old animation's velocity over).
    func addAnimation(_ view: View, _ property: ViewProperty, from: [Double], to values: [Double],
                      options: AnimationOptions, group: AnimationGroup, path explicitPath: ((Double) -> [Double])? = nil)
    {
        var carried: [Double]?
        if let old = view.animations[property.rawValue], case .spring = options.timing, explicitPath == nil {
            let velocity = old.velocity(at: now)
            if velocity.contains(where: { $0 != 0 && $0.isFinite }) { carried = velocity.map { $0.isFinite ? $0 : 0 } }
        }
        removeAnimation(of: view, property, finished: false)
        // A driven transition's animations start at its own time and stay with it.
        let drive = group.transition?.drive
        let begin = (drive?.local ?? now) + Int64((options.delay * 1e9).rounded())
        let affinePath = explicitPath == nil && property == .transform ? AffinePath(from: from, to: values) : nil
        let path = explicitPath ?? affinePath?.closure
        let animation = PropertyAnimation(
            view: view, property: property, from: from, to: values, begin: begin, options: options, group: group,
            path: path, affinePath: affinePath, carried: carried)
        animation.createdAt = now
        noteStarted(animation)
        touch(group)
        group.remaining += 1
        view.animations[property.rawValue] = animation
        if let drive {
            animation.held = true
            drive.animations.append(animation)
            tree.valueVersion &+= 1
        } else {
            group.transition?.timeline.started(animation)
            clock.running.append(animation)
        }
    }

    func markDirty(_ view: View, _ property: ViewProperty) {
        tree.markChanged(view, property.changeBit)
    }

    func removeAnimation(of view: View, _ property: ViewProperty, finished: Bool) {
        guard let animation = view.animations[property.rawValue] else { return }
        view.animations[property.rawValue] = nil
        let group = animation.group
        touch(group)
        noteStopped(animation)
        clock.setRemoved(animation)
        if !finished { group.transition?.timeline.stopped(animation, at: now) }
        if !finished { group.finished = false }
        group.remaining -= 1
        if group.remaining == 0, !group.done {
            group.done = true
            clock.pendingCompletions.append((group, group.finished))
        }
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
        clock.nextGroupID += 1
        let group = AnimationGroup(id: clock.nextGroupID, completion: completion)
        group.transition = ledger.currentTransition
        clock.blockStack.append(AnimationBlock(options: options, group: group, keyframes: nil))
    }

    /// Closes the innermost block. A block that animated nothing completes (finished = true) at the next tick.
    public func commitAnimations() {
        guard let block = clock.blockStack.popLast() else { return }
        if let keyframes = block.keyframes { commitKeyframes(keyframes, block) }
        if block.group.remaining == 0, !block.group.done {
            block.group.done = true
            clock.pendingCompletions.append((block.group, true))
        }
    }

    // MARK: Keyframes (UIView.animateKeyframes)

    /// Opens a keyframe block: properties set inside `addKeyframe` windows become segments of one animation per
    /// property, run over `options.duration` with `options.timing` applied to the whole (default linear).
    public func beginKeyframes(_ options: AnimationOptions, completion: ((Bool) -> Void)?) {
        clock.nextGroupID += 1
        let group = AnimationGroup(id: clock.nextGroupID, completion: completion)
        group.transition = ledger.currentTransition
        clock.blockStack.append(AnimationBlock(options: options, group: group, keyframes: KeyframeRecorder()))
    }

    /// addKeyframe(withRelativeStartTime:relativeDuration:): `changes` run with their sets recorded as the
    /// segment [start, start + duration] (fractions of the block's duration).
    public func addKeyframe(start: Double, duration: Double, _ changes: () -> Void) {
        guard let keyframes = clock.blockStack.last?.keyframes else {
            changes()
            return
        }
        let u0 = min(max(start.isFinite ? start : 0, 0), 1)
        let u1 = min(max(u0 + (duration.isFinite ? max(0, duration) : 0), u0), 1)
        let saved = keyframes.window
        keyframes.window = (u0, u1)
        changes()
        keyframes.window = saved
    }

    func commitKeyframes(_ keyframes: KeyframeRecorder, _ block: AnimationBlock) {
        for track in keyframes.tracks {
            guard let view = tree.viewsBySerial[track.serial], view.isAlive,
                let property = ViewProperty(rawValue: track.property), let last = track.segments.last
            else { continue }
            let initial = track.initial
            var segments: [(u0: Double, u1: Double, path: (Double) -> [Double], to: [Double])] = []
            var previous = initial
            for segment in track.segments.sorted(by: { $0.u0 < $1.u0 }) {
                let a = previous, b = segment.to
                let straight: (Double) -> [Double] = { f in zip(a, b).map { $0 + ($1 - $0) * f } }
                let path = property == .transform ? (AffineDecomposition.path(from: a, to: b) ?? straight) : straight
                segments.append((segment.u0, segment.u1, path, b))
                previous = b
            }
            let keyframePath: (Double) -> [Double] = { u in
                var current = initial
                for segment in segments {
                    if u < segment.u0 { break }
                    if u >= segment.u1 {
                        current = segment.to
                        continue
                    }
                    return segment.path((u - segment.u0) / (segment.u1 - segment.u0))
                }
                return current
            }
            addAnimation(view, property, from: initial, to: last.to, options: block.options, group: block.group,
                         path: keyframePath)
        }
    }

    public var isInAnimationBlock: Bool { !clock.blockStack.isEmpty }

    // MARK: Timers

    /// Runs `action` after `seconds` of scene time (at the first tick at or after that time).
    public func after(_ seconds: Double, _ action: @escaping () -> Void) {
        clock.nextTimerID += 1
        let clamped = seconds.isFinite ? min(max(0, seconds), 1e6) : 0
        let at = now + Int64((clamped * 1e9).rounded())
        clock.timers.append(AnimationClock.ScheduledCall(id: clock.nextTimerID, at: at, action: action))
    }

    // MARK: Clock

    /// The time of frame `k` on this scene's frame grid.
    /// The time of frame `k` on the scene's grid (full-width arithmetic: `k` × 10⁹ passes Int64 long before the
    /// time does, e.g. after 26 hours at 1 000 fps and speed 100).
    public func frameTime(_ k: Int64) -> Int64 {
        let product = k.multipliedFullWidth(by: 1_000_000_000)
        let divisor = Int64(max(1, fps))
        // The quotient overflows only past 292 years of scene time: clamp rather than trap. It fits in Int64 when the
        // dividend is under divisor × 2⁶³, which `high < divisor / 2` guarantees.
        guard product.high >= 0, UInt64(product.high) < UInt64(divisor) / 2 else { return product.high < 0 ? .min : .max }
        return divisor.dividingFullWidth(product).quotient
    }

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
            tick(to: nextFrameTime())
            progress?()
        }
        return now
    }

    /// The first time on the frame grid strictly after `now`.
    func nextFrameTime() -> Int64 {
        var k = Int64((Double(now) * Double(fps) / 1e9).rounded(.down))
        while k > 0, frameTime(k) > now { k -= 1 }
        while frameTime(k) <= now { k += 1 }
        return frameTime(k)
    }

    /// Ticks on the frame grid up to `target`, then once at `target` when it falls between frames; `progress` is
    /// called after each tick.
    public func advance(to target: Int64, progress: (() -> Void)? = nil) {
        while now < target {
            tick(to: min(nextFrameTime(), target))
            progress?()
        }
    }

    /// One tick: animations are evaluated, then completions run (their lifecycle and transition events), timers
    /// fire, the watchdog looks at running transitions, and last the tick's `frame` event is emitted.
    public func tick(to time: Int64) {
        guard !clock.isTicking else { return }
        clock.isTicking = true
        defer { clock.isTicking = false }
        now = max(now, time)
        evaluateAnimations()
        advanceDrives()
        runPendingCompletions()
        fireTimers()
        checkWatchdogs()
        runPendingCompletions()
        recordTimelines()
        emitFrame()
    }

    /// One frame of the animations on the scene's clock (AnimationClock.evaluate).
    func evaluateAnimations() {
        clock.evaluate(dirtyViews: &tree.dirtyViews)
    }

    func runPendingCompletions() {
        var guardCount = 0
        while !clock.pendingCompletions.isEmpty, guardCount < 100_000 {
            let (group, finished) = clock.pendingCompletions.removeFirst()
            guardCount += 1
            let completion = group.completion
            group.completion = nil
            guard let completion else { continue }
            let saved = ledger.currentTransition
            ledger.currentTransition = group.transition
            completion(finished)
            ledger.currentTransition = saved
        }
    }

    func fireTimers() {
        guard !clock.timers.isEmpty else { return }
        let due = clock.timers.filter { $0.at <= now }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        guard !due.isEmpty else { return }
        let dueIDs = Set(due.map(\.id))
        clock.timers.removeAll { dueIDs.contains($0.id) }
        for call in due { call.action() }
    }

    /// Adds this tick to the timeline of every running transition.
    func recordTimelines() {
        guard ledger.activeTransitionCount > 0 else { return }
        // Nothing changed since the last pass: every running timeline already holds this state (a transition that
        // started since recorded it when it began).
        guard tree.structureVersion != ledger.timelinesRecorded.structure || tree.valueVersion != ledger.timelinesRecorded.value else { return }
        ledger.timelinesRecorded = (tree.structureVersion, tree.valueVersion)
        for transition in ledger.transitionOrder where !transition.isEnded {
            guard let container = transition.timelineRoot else { continue }
            transition.timeline.record(container, at: now, structureVersion: tree.structureVersion, valueVersion: tree.valueVersion)
        }
    }

    func emitFrame() {
        guard !dirtyViews.isEmpty else { return }
        guard sink?.isListening(to: .frame, in: id) ?? false else {
            // Nobody wants frames: skip building the event, but keep the sequence as if it had been sent.
            let anyAlive = dirtyViews.contains { $0.isAlive }
            for view in dirtyViews { view.dirty = 0 }
            dirtyViews.removeAll(keepingCapacity: true)
            if anyAlive {
                eventSeq += 1
                framesEvaluated += 1
            }
            return
        }
        // The views in creation order: sorted only when they are not in it already (the look is one walk).
        if !Scene.inSerialOrder(dirtyViews) { dirtyViews.sort { $0.serial < $1.serial } }
        // The views' storage is the scene's, lent to the event and taken back once it was handed on (a sink that
        // kept the event keeps its own copy).
        var views = frameViews
        frameViews = FrameViews()
        views.removeAll()
        views.reserve(views: dirtyViews.count, values: 7)
        let layout = ViewPropertyLayout.shared
        tree.dirtyViews.withUnsafeBufferPointer { dirty in
            for view in dirty {
                let changes = ViewChanges(rawValue: view.dirty)
                view.dirty = 0
                guard view.isAlive else { continue }
                views.append(view, changes: changes, layout: layout)
            }
        }
        dirtyViews.removeAll(keepingCapacity: true)
        guard !views.isEmpty else {
            frameViews = views
            return
        }
        framesEvaluated += 1
        emit(.frame(views))
        views.removeAll()
        frameViews = views
    }

    /// Whether `views` are in creation order.
    static func inSerialOrder(_ views: [View]) -> Bool {
        views.withUnsafeBufferPointer { all in
            var previous = Int.min
            for view in all {
                guard view.serial > previous else { return false }
                previous = view.serial
            }
            return true
        }
    }
}
