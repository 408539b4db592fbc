/// A scene's animation clock: the scene time on its frame grid, the animations running on it (contiguous tracks,
/// see RunningAnimations), the open animation blocks, the completions waiting to run, the timers and the
/// transition whose animator code runs now. It begins animations (`set` inside a block, `addAnimation`), retires
/// them (`removeAnimation`, `setRemoved`), evaluates them each frame (`evaluate`), runs their completions and the
/// timers; `Scene.tick` drives it. Nothing else writes its state.
final class AnimationClock {
    /// A call scheduled with `Scene.after`.
    struct ScheduledCall {
        let id: Int
        let at: Int64
        let action: () -> Void
    }

    /// Scene time in nanoseconds.
    private(set) var now: Int64 = 0
    /// Frames per second of the scene's frame grid.
    let fps: Int
    private(set) var running = RunningAnimations()
    /// Indexes in `running` of the animations that ended in this tick (kept to reuse its storage).
    private var endedScratch: [Int] = []
    private(set) var blockStack: [AnimationBlock] = []
    private(set) var nextGroupID = 0
    private(set) var pendingCompletions: [(group: AnimationGroup, finished: Bool)] = []
    private(set) var timers: [ScheduledCall] = []
    private(set) var nextTimerID = 0
    /// The number the next animation gets: `running` is in this order.
    private(set) var nextAnimationSerial = 0
    private(set) var isTicking = false
    /// The transition whose animator code is running now: animation blocks opened meanwhile belong to it.
    private(set) var currentTransition: Transition?
    /// The property animators that are active or stopped (PropertyAnimator): the clock moves the running ones.
    private(set) var propertyAnimators: [PropertyAnimator] = []
    /// The tree whose views the animations write.
    let tree: ViewTree
    /// Where each change is recorded before it is made.
    let journals: JournalStack

    init(fps: Int, tree: ViewTree, journals: JournalStack) {
        self.fps = fps
        self.tree = tree
        self.journals = journals
    }

    // MARK: Time

    /// Moves the clock to `time` (never back).
    func move(to time: Int64) { now = max(now, time) }

    /// Opens a tick; false when one is already running (a tick never nests).
    func beginTick() -> Bool {
        guard !isTicking else { return false }
        isTicking = true
        return true
    }

    func endTick() { isTicking = false }

    /// The time of frame `k` on the scene's grid (full-width arithmetic: `k` × 10⁹ passes Int64 long before the
    /// time does, e.g. after 26 hours at 1 000 fps and speed 100).
    func frameTime(_ k: Int64) -> Int64 {
        let product = k.multipliedFullWidth(by: 1_000_000_000)
        let divisor = Int64(max(1, fps))
        // The quotient overflows only past 292 years of scene time: clamp rather than trap. It fits in Int64 when the
        // dividend is under divisor × 2⁶³, which `high < divisor / 2` guarantees.
        guard product.high >= 0, UInt64(product.high) < UInt64(divisor) / 2 else { return product.high < 0 ? .min : .max }
        return divisor.dividingFullWidth(product).quotient
    }

    /// The first time on the frame grid strictly after `now`.
    func nextFrameTime() -> Int64 {
        var k = Int64((Double(now) * Double(fps) / 1e9).rounded(.down))
        while k > 0, frameTime(k) > now { k -= 1 }
        while frameTime(k) <= now { k += 1 }
        return frameTime(k)
    }

    // MARK: The transition running animator code

    /// `transition`'s animator code runs from here until `leave`: blocks opened meanwhile belong to it. Returns
    /// the one that ran before, for `leave`.
    @inline(__always)
    func enter(_ transition: Transition?) -> Transition? {
        let saved = currentTransition
        currentTransition = transition
        return saved
    }

    @inline(__always)
    func leave(restoring saved: Transition?) { currentTransition = saved }

    // MARK: Properties and animations

    /// Sets a property's model value. Inside an animation block it animates from the presentation value
    /// (superseding a running animation of the property); outside, the presentation jumps with the model. An
    /// array is made only when the value is kept — an animation's target, a keyframe — unless the caller already
    /// has one.
    func set(_ view: View, _ property: ViewProperty, _ values: UnsafeBufferPointer<Double>, array: [Double]?) {
        // `position` is `center` under its CALayer name: one value, one animation.
        let property = property.stored
        // The table's fields through its flat layout: `property.info` would build the whole entry per read.
        let layout = ViewPropertyLayout.shared
        let offset = layout.storage[property.rawValue]
        if offset < 0 {
            // Kept on the view (z, hidden), or a gradient view's part (a list of the view's own length).
            if offset == ViewPropertyLayout.gradient { return setGradientPart(view, property, array ?? Array(values)) }
            guard values.count == 1, view.isAlive else { return }
            if offset == ViewPropertyLayout.zPosition { return tree.setZ(view, values[0]) }
            return tree.setHidden(view, values[0] != 0)
        }
        guard values.count == layout.kinds[property.rawValue].count, view.isAlive else { return }
        journals.touch(view)
        // Compared in place (no copy of the old values): only whether the model value changes matters below.
        let changed = view.model.channels.withUnsafeBufferPointer { old in
            for k in 0..<values.count where old[offset + k] != values[k] { return true }
            return false
        }
        view.model.channels.withUnsafeMutableBufferPointer { channels in
            for k in 0..<values.count { channels[offset + k] = values[k] }
        }
        // A property that does not animate is set at once, also inside a block. The innermost block is read in
        // place, field by field (a copy of the whole block retained and released its group and recorder).
        let top = layout.animates & property.changeBit != 0 ? blockStack.count - 1 : -1
        if top >= 0, let keyframes = blockStack[top].keyframes {
            keyframes.record(view, property, array ?? Array(values))
            return
        }
        if top >= 0, blockStack[top].options.duration > 0 || blockStack[top].options.delay > 0 {
            guard changed || view.animations[property.rawValue] != nil else { return }
            let from = view.presentationValues(of: property)
            addAnimation(view, property, from: from, to: array ?? Array(values), options: blockStack[top].options,
                         group: blockStack[top].group)
        } else {
            let wasAnimating = view.animations[property.rawValue] != nil
            removeAnimation(of: view, property, finished: false)
            guard changed || wasAnimating else { return }
            let channels = view.presentationChannels + offset
            for k in 0..<values.count { channels[k] = values[k] }
            tree.markChanged(view, property.changeBit)
            tree.valuesChanged()
            // An explicit animation shows over the new model value (a filled one at once, a running one next frame).
            if !view.layerAnimations.isEmpty { showFilled(view, property) }
        }
    }

    /// The typed setters: each passes its fields to `set` in place, without building an array.
    func set(_ view: View, frame: Rect) {
        // UIView.frame's setter places the anchor point (0.5, 0.5 unless set) at the new position.
        let anchor = view.model.anchorPoint
        var center = (frame.x + frame.w * anchor.x, frame.y + frame.h * anchor.y)
        withUnsafeBytes(of: &center) { set(view, .center, $0.bindMemory(to: Double.self), array: nil) }
        let bounds = view.model.bounds
        var values = (bounds.x, bounds.y, frame.w, frame.h)
        withUnsafeBytes(of: &values) { set(view, .bounds, $0.bindMemory(to: Double.self), array: nil) }
    }

    func set(_ view: View, bounds: Rect) {
        var values = (bounds.x, bounds.y, bounds.w, bounds.h)
        withUnsafeBytes(of: &values) { set(view, .bounds, $0.bindMemory(to: Double.self), array: nil) }
    }
    func set(_ view: View, center: Point) {
        var values = (center.x, center.y)
        withUnsafeBytes(of: &values) { set(view, .center, $0.bindMemory(to: Double.self), array: nil) }
    }
    /// Sets the model alpha, clamped to 0…1 (UIKit's). What an animation toward it shows on the way (the
    /// presentation value) is the curve's or spring's own and may overshoot; drawing clamps it.
    func set(_ view: View, alpha: Double) {
        let value = alpha.isNaN ? 1 : min(max(alpha, 0), 1)
        withUnsafePointer(to: value) { set(view, .alpha, UnsafeBufferPointer(start: $0, count: 1), array: nil) }
    }
    func set(_ view: View, transform: Transform3D) {
        var m = transform.m
        withUnsafeBytes(of: &m) { set(view, .transform, $0.bindMemory(to: Double.self), array: nil) }
    }
    func set(_ view: View, color: Color) {
        var values = (color.r, color.g, color.b, color.a)
        withUnsafeBytes(of: &values) { set(view, .color, $0.bindMemory(to: Double.self), array: nil) }
    }

    /// Starts an animation of `property` (superseding a running one: the old block's completion gets
    /// finished = false; a new spring carries the old animation's velocity over).
    func addAnimation(_ view: View, _ property: ViewProperty, from: [Double], to values: [Double],
                      options: AnimationOptions, group: AnimationGroup, path explicitPath: ((Double) -> [Double])? = nil,
                      keyframes: KeyframePath? = nil)
    {
        var carried: [Double]?
        if let old = view.animations[property.rawValue], case .spring = options.timing, explicitPath == nil {
            let velocity = old.velocity(at: now)
            if velocity.contains(where: { $0 != 0 && $0.isFinite }) { carried = velocity.map { $0.isFinite ? $0 : 0 } }
        }
        removeAnimation(of: view, property, finished: false)
        // A driven transition's animations start at its own time and stay with it (a property animator's are its
        // own, whatever transition made them).
        let drive = group.propertyAnimator == nil ? group.transition?.drive : nil
        let begin = (drive?.local ?? now) + Int64((options.delay * 1e9).rounded())
        // Transforms (the view's and the sublayer transform) interpolate by decomposition: 2-D ends as 2-D
        // (`AffinePath`, which the frame loop runs itself), 3-D or mixed ends as 3-D, decomposed here once.
        // Both ends are made into matrices and tested 2-D once here, for the path and for the frame loop's track
        // (`PropertyAnimation.straightAffine`), not once by each.
        var path = explicitPath
        var affinePath: AffinePath?
        var affineEnds = false
        if explicitPath == nil, ViewPropertyLayout.shared.kinds[property.rawValue] == .transform {
            let f = Transform3D(values: from), t = Transform3D(values: values)
            if f.isAffine, t.isAffine {
                affineEnds = from.count == 16 && values.count == 16
                affinePath = AffinePath(affine: f, t)
                path = affinePath?.closure
            } else {
                path = TransformPath3D(f, t)?.closure
            }
        }
        if path == nil, from.count != values.count { path = GradientValues.discretePath(from: from, to: values) }
        let animation = PropertyAnimation(
            view: view, property: property, from: from, to: values, begin: begin, options: options, group: group,
            path: path, affinePath: affinePath, carried: carried, keyframes: keyframes, affineEnds: affineEnds)
        animation.createdAt = now
        noteStarted(animation)
        journals.touch(group)
        group.remaining += 1
        view.animations[property.rawValue] = animation
        if let animator = group.propertyAnimator {
            animation.held = true
            animator.adopt(animation)
            tree.valuesChanged()
        } else if let drive {
            animation.held = true
            drive.animations.append(animation)
            tree.valuesChanged()
        } else {
            group.transition?.timeline.started(animation)
            running.append(animation)
        }
    }

    /// Numbers a new animation (`running` stays in this order) and records it in the open journals.
    func noteStarted(_ animation: PropertyAnimation) {
        animation.serial = nextAnimationSerial
        nextAnimationSerial += 1
        journals.noteStarted(animation)
    }

    /// Ends the animation of `property` on `view`, if one runs (`finished` false: it was superseded or removed).
    func removeAnimation(of view: View, _ property: ViewProperty, finished: Bool) {
        guard let animation = view.animations[property.rawValue] else { return }
        view.animations[property.rawValue] = nil
        let group = animation.group
        journals.touch(group)
        journals.noteStopped(animation)
        setRemoved(animation)
        if !finished { group.transition?.timeline.stopped(animation, at: now) }
        if !finished { group.finished = false }
        group.remaining -= 1
        if group.remaining == 0, !group.done {
            group.done = true
            pendingCompletions.append((group, group.finished))
        }
    }

    /// Runs an animation to its end at once (its group's completion becomes pending).
    func finishAtOnce(_ animation: PropertyAnimation) {
        let view = animation.view
        journals.touch(view)
        tree.markChanged(view, 0)
        _ = animation.evaluate(at: .max / 2)
        if let layer = animation.layer { return retireLayerAnimation(animation, layer, cancelled: false) }
        removeAnimation(of: view, animation.property, finished: true)
    }

    /// One animation of `group` is over: once none is left, its completion becomes pending.
    func oneEnded(in group: AnimationGroup) {
        group.remaining -= 1
        if group.remaining == 0, !group.done {
            group.done = true
            pendingCompletions.append((group, group.finished))
        }
    }

    /// A running animation handed to the clock again (a driven transition's, shifted to go on from where it is).
    func resume(_ animation: PropertyAnimation) { running.append(animation) }

    /// Takes `transition`'s running animations off the clock (a driven transition holds them on its own time).
    func hold(_ transition: Transition) -> [PropertyAnimation] {
        var held: [PropertyAnimation] = []
        for animation in running where !animation.removed && animation.group.transition === transition {
            animation.held = true
            held.append(animation)
        }
        let ids = Set(held.map { ObjectIdentifier($0) })
        running.removeAll { ids.contains(ObjectIdentifier($0)) }
        return held
    }

    /// The animations of `transition` still running.
    func animations(of transition: Transition) -> [PropertyAnimation] {
        running.filter { !$0.removed && $0.group.transition === transition }
    }

    /// Drops the animations marked removed from the list.
    func dropRemoved() { running.removeAll { $0.removed } }

    // MARK: Animation blocks

    /// Opens an animation block (UIView.animate's, or a keyframe block with a recorder).
    func beginBlock(_ options: AnimationOptions, completion: ((Bool) -> Void)?, keyframes: KeyframeRecorder?) {
        let group = newGroup(completion: completion)
        blockStack.append(AnimationBlock(options: options, group: group, keyframes: keyframes))
    }

    /// A new animation group, belonging to the transition whose code runs now.
    func newGroup(completion: ((Bool) -> Void)?) -> AnimationGroup {
        nextGroupID += 1
        let group = AnimationGroup(id: nextGroupID, completion: completion)
        group.transition = currentTransition
        return group
    }

    /// Closes the innermost block. A block that animated nothing completes (finished = true) at the next tick.
    func commitBlock() {
        guard let block = blockStack.popLast() else { return }
        if let keyframes = block.keyframes { commitKeyframes(keyframes, block) }
        completeIfEmpty(block.group)
    }

    /// A group that animates nothing completes (finished = true) at the next tick.
    func completeIfEmpty(_ group: AnimationGroup) {
        if group.remaining == 0, !group.done {
            group.done = true
            pendingCompletions.append((group, true))
        }
    }

    /// addKeyframe(withRelativeStartTime:relativeDuration:): `changes` run with their sets recorded as the
    /// segment [start, start + duration] (fractions of the block's duration).
    func addKeyframe(start: Double, duration: Double, _ changes: () -> Void) {
        guard let keyframes = blockStack.last?.keyframes else {
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

    /// Each (view, property) of a keyframe block becomes one animation over the whole block, its value a
    /// `KeyframePath` of the block's progress: the block's curve warps the block's time, keyframe start times
    /// included (UIKit's animateKeyframes). Which points the path goes through depends on the calculation mode:
    /// linear — each keyframe moves from the value before it to its own over its window, holding between windows;
    /// discrete — each value shows from its keyframe's start; cubic — the spline passes through each value at its
    /// keyframe's end; paced and cubic paced — the values in order, at constant velocity over the whole block.
    func commitKeyframes(_ keyframes: KeyframeRecorder, _ block: AnimationBlock) {
        for track in keyframes.tracks {
            guard let view = tree.viewsBySerial[track.serial], view.isAlive,
                let property = ViewProperty(rawValue: track.property), let last = track.segments.last
            else { continue }
            let path = KeyframeRecorder.path(track, property: property, mode: keyframes.mode)
            addAnimation(view, property, from: track.initial, to: last.to, options: block.options, group: block.group,
                         path: { path.value(at: $0) }, keyframes: path)
        }
    }

    // MARK: Property animators

    func noteAnimatorRunning(_ animator: PropertyAnimator) {
        if !propertyAnimators.contains(where: { $0 === animator }) { propertyAnimators.append(animator) }
    }

    func noteAnimatorInactive(_ animator: PropertyAnimator) { propertyAnimators.removeAll { $0 === animator } }

    /// True when some property animator runs (the scene is not idle).
    var animatorRunning: Bool { propertyAnimators.contains { $0.isRunning } }

    /// Opens a block whose animations `animator` holds (linear over its duration: the animator applies its
    /// timing).
    func beginAnimatorBlock(_ animator: PropertyAnimator) {
        let group = newGroup(completion: nil)
        group.propertyAnimator = animator
        let options = AnimationOptions(duration: max(animator.duration, 1e-3), timing: .curve(.linear))
        blockStack.append(AnimationBlock(options: options, group: group, keyframes: nil))
    }

    /// Sets a property's model and presentation values at once, whatever block is open.
    func setOutsideBlocks(_ view: View, _ property: ViewProperty, _ values: [Double]) {
        if property.isGradient {
            guard view.isAlive, view.model.gradient != nil else { return }
            removeAnimation(of: view, property, finished: false)
            journals.touch(view)
            view.model.set(property, values)
            view.setPresentation(property, values)
            tree.markChanged(view, property.changeBit)
            tree.valuesChanged()
            return
        }
        guard view.isAlive, values.count == property.count else { return }
        removeAnimation(of: view, property, finished: false)
        journals.touch(view)
        let offset = property.offset
        view.model.channels.withUnsafeMutableBufferPointer { c in for k in 0..<values.count { c[offset + k] = values[k] } }
        let channels = view.presentationChannels + offset
        for k in 0..<values.count { channels[k] = values[k] }
        tree.markChanged(view, property.changeBit)
        tree.valuesChanged()
    }

    /// Sets a property's model value only (a stopped property animator's: the view keeps what it shows).
    func setModel(_ view: View, _ property: ViewProperty, _ values: [Double]) {
        if property.isGradient {
            guard view.isAlive else { return }
            journals.touch(view)
            return view.model.set(property, values)
        }
        guard view.isAlive, values.count == property.count else { return }
        journals.touch(view)
        let offset = property.offset
        view.model.channels.withUnsafeMutableBufferPointer { c in for k in 0..<values.count { c[offset + k] = values[k] } }
    }

    /// Moves the running property animators to `now` (their completions run here).
    func advanceAnimators(in scene: Scene) {
        guard !propertyAnimators.isEmpty else { return }
        for animator in propertyAnimators where animator.isRunning { animator.advance(in: scene) }
    }

    // MARK: Completions and timers

    /// Runs the completions waiting (each as part of its group's transition), including those they cause.
    func runPendingCompletions() {
        var guardCount = 0
        while !pendingCompletions.isEmpty, guardCount < 100_000 {
            let (group, finished) = pendingCompletions.removeFirst()
            guardCount += 1
            let completion = group.completion
            group.completion = nil
            guard let completion else { continue }
            let saved = enter(group.transition)
            completion(finished)
            leave(restoring: saved)
        }
    }

    /// Runs `action` after `seconds` of scene time (at the first tick at or after that time).
    func after(_ seconds: Double, _ action: @escaping () -> Void) {
        nextTimerID += 1
        let clamped = seconds.isFinite ? min(max(0, seconds), 1e6) : 0
        let at = now + Int64((clamped * 1e9).rounded())
        timers.append(ScheduledCall(id: nextTimerID, at: at, action: action))
    }

    func fireTimers() {
        guard !timers.isEmpty else { return }
        let due = timers.filter { $0.at <= now }.sorted { ($0.at, $0.id) < ($1.at, $1.id) }
        guard !due.isEmpty else { return }
        let dueIDs = Set(due.map(\.id))
        timers.removeAll { dueIDs.contains($0.id) }
        for call in due { call.action() }
    }

    // MARK: Undo

    /// Undoes what a failed call did to the clock: exactly the animations that ran before run again, in their
    /// order, with their groups' counts; the animations, completions, blocks and timers the call added are dropped.
    func restore(_ journal: CallJournal) {
        // A property animator's animations are held too, but go with the failed call like the clock's.
        for animation in journal.started
        where !animation.removed && (!animation.held || animation.group.propertyAnimator != nil) {
            setRemoved(animation)
            animation.group.done = true
            animation.group.completion = nil
            if animation.layer == nil, animation.view.animations[animation.property.rawValue] === animation {
                animation.view.animations[animation.property.rawValue] = nil
            }
        }
        for animation in journal.stopped {
            setRemoved(animation, false)
            if animation.layer == nil { animation.view.animations[animation.property.rawValue] = animation }
        }
        running.removeAll { $0.removed }
        if !journal.stopped.isEmpty {
            let present = Set(running.map { ObjectIdentifier($0) })
            let missing = journal.stopped.filter { !present.contains(ObjectIdentifier($0)) }
            if !missing.isEmpty {
                running.append(contentsOf: missing)
                running.sortByStart()
            }
        }
        if !journal.groups.isEmpty {
            let live = Set(running.map { ObjectIdentifier($0.group) })
            for (group, remaining, finished, done) in journal.groups.reversed() where live.contains(ObjectIdentifier(group)) {
                group.remaining = remaining
                group.finished = finished
                group.done = done
            }
        }
        if pendingCompletions.count > journal.pendingCount {
            pendingCompletions.removeLast(pendingCompletions.count - journal.pendingCount)
        }
        // Blocks opened by the failed call and never committed.
        blockStack.removeAll()
        timers.removeAll { $0.id > journal.nextTimerID }
    }

    /// One frame of the animations on the clock: a walk over their contiguous tracks that writes each animation's
    /// value into its view (appending views that change to `dirtyViews`), then the bookkeeping of the ones that
    /// ended, in start order (their groups' completions become pending).
    func evaluate() {
        tree.withChangedViews { evaluate(dirtyViews: $0) }
    }

    private func evaluate(dirtyViews: ChangedViews) {
        let count = running.count
        guard count > 0 else { return }
        // Room for one changed view per track: the loop appends without a capacity check.
        dirtyViews.reserve(extra: count)
        let now = self.now
        var anyRemoved = false
        if !endedScratch.isEmpty { endedScratch.removeAll(keepingCapacity: true) }
        running.tracks.withUnsafeBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            // The progress last computed, and its track's `progressKey`: the next track of the same block reuses it
            // (the same function of the same inputs, so the same bits).
            var sharedKey = -1
            var sharedProgress = 0.0
            // The run of tracks of one view the loop is in (`runOpaque`, its view's address, 0 when none is open;
            // `runView`, the view its bits go to), and the dirty bits its tracks wrote, set on the view once when the
            // run ends: a run is listed in `dirtyViews` (when the view was clean) once at its start, where the list was
            // asked per track. The same views in the same order with the same bits: a track after the first of its
            // run found its view dirty (the first one wrote), and every track the fast path does not take closes the
            // run first, then does what the loop did per track.
            var runView = base.pointee.view
            var runOpaque: UInt = 0
            var runBits: UInt64 = 0
            var track = base
            let end = base + count
            while track != end {
                let elapsed = now &- track.pointee.begin
                // One compare: begun, not ended, not removed and of a mode the loop writes itself (`window`).
                if _fastPath(UInt64(bitPattern: elapsed) < track.pointee.window) {
                    let view = track.pointee.view
                    if UInt(bitPattern: view.toOpaque()) != runOpaque {
                        runView._withUnsafeGuaranteedRef { $0.dirty |= runBits }
                        runView = view
                        runOpaque = UInt(bitPattern: view.toOpaque())
                        runBits = 0
                        // The view borrowed at +0: no retain and release (the track's animation keeps it alive).
                        view._withUnsafeGuaranteedRef { if $0.dirty == 0 { dirtyViews.appendReserved($0) } }
                    }
                    if track.pointee.progressKey != sharedKey {
                        sharedKey = track.pointee.progressKey
                        sharedProgress = track.pointee.progress(elapsed)
                    }
                    // Straight into the view's own channels: the address was taken when the animation started and
                    // stays valid to its end (the view owns the storage; nothing copies it over).
                    AnimationTrack.write(track, progress: sharedProgress, into: track.pointee.channels)
                    runBits |= track.pointee.dirtyBit
                    track += 1
                    continue
                }
                // Removed, not begun, ended or evaluated by the animation object: the run ends here, and the track
                // gets what the loop did for every track.
                runView._withUnsafeGuaranteedRef { $0.dirty |= runBits }
                runBits = 0
                runOpaque = 0
                if track.pointee.removed {
                    anyRemoved = true
                    track += 1
                    continue
                }
                track.pointee.view._withUnsafeGuaranteedRef { if $0.dirty == 0 { dirtyViews.appendReserved($0) } }
                // In flight here means not begun (a track in flight between its begin and end took the fast path):
                // listed, nothing written. Ended, or evaluated by the animation object (which writes its end value
                // when it ends).
                let animation = track.pointee.animation
                if !track.pointee.isInFlight(elapsed, activeNs: animation.activeNs), animation.evaluate(at: now) {
                    endedScratch.append(track - base)
                }
                track += 1
            }
            runView._withUnsafeGuaranteedRef { $0.dirty |= runBits }
        }
        guard anyRemoved || !endedScratch.isEmpty else { return }
        for i in endedScratch {
            let animation = running[i]
            setRemoved(animation)
            if let layer = animation.layer {
                endLayerAnimation(animation, layer)
            } else {
                animation.view.animations[animation.property.rawValue] = nil
            }
            let group = animation.group
            group.remaining -= 1
            if group.remaining == 0, !group.done {
                group.done = true
                pendingCompletions.append((group, group.finished))
            }
        }
        running.removeAll { $0.removed }
    }

    /// Marks an animation removed (or, undoing a failed call, running again) in the object and in its track.
    func setRemoved(_ animation: PropertyAnimation, _ removed: Bool = true) {
        animation.removed = removed
        if animation.trackIndex >= 0 {
            running.tracks[animation.trackIndex].setRemoved(removed, activeNs: animation.activeNs)
        }
    }
}
