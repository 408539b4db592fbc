/// UIViewPropertyAnimator: animations that share one timing, run on their own fraction and can be paused,
/// scrubbed, reversed, continued with new timing, stopped and finished at a position (UIViewAnimating's state
/// machine: https://developer.apple.com/documentation/uikit/uiviewanimating and
/// https://developer.apple.com/documentation/uikit/uiviewanimatingstate).
///
/// Its animations are held off the scene's clock (as a driven transition's are) and written each tick from the
/// animator's progress. `fraction` is the time fraction (`fractionComplete`, measured forward); `progress` is
/// what the views show (the timing applied). Running, the two move from where they are to the end (or the start
/// when reversed); paused, writing the fraction moves the progress to it linearly (`scrubsLinearly`) or through
/// the animator's timing.
public final class PropertyAnimator {
    /// UIViewAnimatingState.
    public enum State: String, Sendable {
        case inactive, active, stopped
    }

    /// UIViewAnimatingPosition.
    public enum Position: String, Sendable, CaseIterable {
        case end, start, current
    }

    /// A misuse of the animator: the message names the call and the state (UIKit raises an exception).
    public struct Misuse: Error, Sendable, CustomStringConvertible {
        public let message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// One running stretch: from (fraction0, progress0) to `target` over `length` ns with `timing`.
    struct Segment {
        let start: Int64
        let fraction0: Double
        let progress0: Double
        let target: Double
        let length: Int64
        let timing: Timing
        /// A spring's own time runs `rate` times as fast as the scene's (1 / duration factor).
        let rate: Double
        /// A spring's course (its settling time, seconds), kept for a reversal.
        let course: Double
    }

    /// One animation the animator holds, and the stretch of its progress it covers (a delay factor's window).
    struct Held {
        let animation: PropertyAnimation
        let low: Double
    }

    public let id: Int
    /// The duration given to the constructor, in seconds.
    public let duration: Double
    /// The timing given to the constructor.
    public let timing: Timing
    public private(set) var state: State = .inactive
    public private(set) var fraction: Double = 0
    public private(set) var progress: Double = 0
    public var isRunning: Bool { segment != nil }
    public private(set) var isReversed = false
    public var scrubsLinearly = true
    public var pausesOnCompletion = false
    public private(set) var isInterruptible = true
    /// True while its completions run: UIKit forbids restarting an animator from its own completion.
    public private(set) var isCompleting = false
    /// The transition whose animator code made it: animations and completions belong to that transition.
    public var transition: Transition? {
        get { transitionAnchor?.object }
        set { transitionAnchor = newValue?.anchor }
    }
    private var transitionAnchor: Anchor<Transition>?
    weak var scene: Scene?
    var segment: Segment?
    var held: [Held] = []
    /// Animation blocks added before the start: run when it starts (UIKit runs them at startAnimation).
    var pendingBlocks: [(changes: () -> Void, delayFactor: Double)] = []
    var completions: [(Position) -> Void] = []
    /// The window (a delay factor's start) that animations set now are given.
    var openLow: Double?

    /// A new inactive animator on `scene` (UIViewPropertyAnimator(duration:timingParameters:)); `duration` is also
    /// a spring's course.
    public init(id: Int, duration: Double, timing: Timing, scene: Scene) {
        self.id = id
        self.duration = duration.isFinite ? min(max(duration, 0), 3600) : 0
        self.timing = timing
        self.scene = scene
        transition = scene.clock.currentTransition
    }

    /// The scene, or the error a call on an animator whose scene is gone gets.
    func liveScene(_ call: String) throws(Misuse) -> Scene {
        guard let scene else { throw Misuse("\(call): the property animator's scene is gone") }
        return scene
    }

    func checkNotCompleting(_ call: String) throws(Misuse) {
        if isCompleting {
            throw Misuse("\(call): not allowed inside the animator's own completion (its state is \(state.rawValue))")
        }
    }

    // MARK: UIViewPropertyAnimator

    /// addAnimations(_:delayFactor:). Inactive: the block runs at the start. Active: it runs now and its
    /// animations start after delayFactor × what is left (Apple: "the animations begin immediately using the
    /// remaining time"). Stopped: an error.
    public func addAnimations(delayFactor: Double, _ changes: @escaping () -> Void) throws(Misuse) {
        let scene = try liveScene("add_animations")
        guard delayFactor.isFinite, (0...1).contains(delayFactor) else {
            throw Misuse("add_animations: delay_factor must be a number in 0…1, got \(delayFactor)")
        }
        try checkNotCompleting("add_animations")
        switch state {
        case .stopped:
            throw Misuse("add_animations: the animator is stopped (call finish(at) first)")
        case .inactive:
            pendingBlocks.append((changes, delayFactor))
        case .active:
            let low = progress + delayFactor * (1 - progress)
            run(changes, low: low, in: scene)
        }
    }

    /// addCompletion(_:): handlers run in order with the position the animator ended at. Stopped: an error
    /// (Apple: completions added after stopAnimation(false) are still called by finishAnimation — allowed
    /// there; segued follows UIKit, which permits it, so only a gone scene is refused).
    public func addCompletion(_ completion: @escaping (Position) -> Void) throws(Misuse) {
        _ = try liveScene("add_completion")
        completions.append(completion)
    }

    /// startAnimation(afterDelay:): inactive or paused → running. Stopped: an error (Apple: "It is a programmer
    /// error to call this method while the state of the animator is set to UIViewAnimatingState.stopped").
    public func start(afterDelay delay: Double = 0) throws(Misuse) {
        let scene = try liveScene("start")
        guard delay.isFinite, delay >= 0 else { throw Misuse("start(after): after must be a number ≥ 0, got \(delay)") }
        try checkNotCompleting("start")
        switch state {
        case .stopped: throw Misuse("start: the animator is stopped (call finish(at) first)")
        case .active where isRunning: return
        case .inactive: activate(in: scene)
        case .active: break
        }
        beginSegment(timing: timing, course: duration, durationFactor: 1, delay: delay, in: scene)
    }

    /// pauseAnimation(): inactive → active and paused; running → paused. Stopped: an error. A non-interruptible
    /// animator cannot be paused (Apple: isInterruptible false "cannot be paused").
    public func pause() throws(Misuse) {
        let scene = try liveScene("pause")
        try checkNotCompleting("pause")
        switch state {
        case .stopped: throw Misuse("pause: the animator is stopped")
        case .inactive: activate(in: scene)
        case .active:
            guard isInterruptible else { throw Misuse("pause: the animator is not interruptible") }
            advance(in: scene)
            segment = nil
        }
    }

    /// continueAnimation(withTimingParameters:durationFactor:): a paused animator runs on to the end (or the start
    /// when reversed) over duration × what is left × durationFactor. Inactive: starts it; stopped: an error.
    public func continueAnimation(timing newTiming: Timing?, timingDuration: Double? = nil, durationFactor: Double)
        throws(Misuse)
    {
        let scene = try liveScene("continue")
        guard durationFactor.isFinite, durationFactor > 0 else {
            throw Misuse("continue: duration_factor must be a finite number > 0, got \(durationFactor)")
        }
        try checkNotCompleting("continue")
        switch state {
        case .stopped: throw Misuse("continue: the animator is stopped (call finish(at) first)")
        case .inactive: activate(in: scene)
        case .active:
            if isRunning { advance(in: scene) }
        }
        beginSegment(timing: newTiming ?? timing, course: newTiming == nil ? duration : (timingDuration ?? duration),
                     durationFactor: durationFactor, delay: 0, in: scene)
    }

    /// isReversed: running, the animator turns round where it is and runs to the other end over what it has
    /// done; paused or inactive, it only takes note. Stopped: an error.
    public func setReversed(_ reversed: Bool) throws(Misuse) {
        let scene = try liveScene("reversed")
        guard state != .stopped else { throw Misuse("reversed: the animator is stopped") }
        guard reversed != isReversed else { return }
        if state == .active, !isInterruptible { throw Misuse("reversed: the animator is not interruptible") }
        if let running = segment {
            advance(in: scene)
            isReversed = reversed
            guard state == .active, segment != nil else { return }
            beginSegment(timing: running.timing, course: running.course, durationFactor: 1, delay: 0, in: scene)
        } else {
            isReversed = reversed
        }
    }

    /// fractionComplete's setter: only while paused (Apple: "you can change the value of this property only
    /// while the animator is paused"); an inactive animator becomes active and paused first, as pauseAnimation
    /// makes it.
    public func setFraction(_ value: Double) throws(Misuse) {
        let scene = try liveScene("fraction_complete")
        guard value.isFinite, (0...1).contains(value) else {
            throw Misuse("fraction_complete must be a number in 0…1, got \(value)")
        }
        try checkNotCompleting("fraction_complete")
        switch state {
        case .stopped: throw Misuse("fraction_complete: the animator is stopped")
        case .active where isRunning:
            throw Misuse("fraction_complete: the animator is running (pause it first)")
        case .inactive: activate(in: scene)
        case .active: break
        }
        fraction = value
        progress = scrubsLinearly ? value : Self.shape(timing, value, duration: duration)
        write(in: scene)
    }

    /// isInterruptible: only while inactive (Apple: changing it while active raises).
    public func setInterruptible(_ value: Bool) throws(Misuse) {
        _ = try liveScene("interruptible")
        guard state == .inactive else { throw Misuse("interruptible: can be set only while inactive, the animator is \(state.rawValue)") }
        isInterruptible = value
    }

    /// stopAnimation(_:): active → stopped (withoutFinishing false; finish(at) must follow) or inactive (true:
    /// no completion runs). Either way the properties keep the values they show now (Apple: "the animator
    /// leaves the animatable properties at their current values"). Inactive: nothing to stop (segued's
    /// choice: a no-op, as UIKit does not raise there); stopped: an error.
    public func stop(withoutFinishing: Bool) throws(Misuse) {
        let scene = try liveScene("stop")
        try checkNotCompleting("stop")
        switch state {
        case .inactive: return
        case .stopped: throw Misuse("stop: the animator is already stopped")
        case .active: break
        }
        if isRunning { advance(in: scene) }
        segment = nil
        pendingBlocks.removeAll()
        if withoutFinishing {
            settle(at: .current, in: scene)
            state = .inactive
            completions.removeAll()
            detach(scene)
        } else {
            // The model takes the values shown now; the animations stay held for finish(at).
            for h in held where owns(h.animation) {
                scene.clock.setModel(h.animation.view, h.animation.property, h.animation.view.presentationValues(of: h.animation.property))
            }
            state = .stopped
        }
    }

    /// finishAnimation(at:): stopped → inactive; the properties take their end, start or current values and the
    /// completions run with the position. Any other state: an error (Apple: "calling this method on an animator
    /// that is not in the stopped state is a programmer error").
    public func finish(at position: Position) throws(Misuse) {
        let scene = try liveScene("finish")
        try checkNotCompleting("finish")
        guard state == .stopped else { throw Misuse("finish: the animator is \(state.rawValue), not stopped (call stop(false) first)") }
        complete(at: position, in: scene)
    }

    // MARK: The clock

    /// Moves a running animator to the scene's time; one that reaches its end completes (or pauses there, with
    /// `pausesOnCompletion`).
    func advance(in scene: Scene) {
        guard let s = segment else { return }
        let elapsed = scene.now - s.start
        if elapsed < 0 { return }
        if elapsed >= s.length {
            fraction = s.target
            progress = s.target
            segment = nil
            write(in: scene)
            if pausesOnCompletion { return }
            complete(at: s.target == 1 ? .end : .start, in: scene)
            return
        }
        let u = Double(elapsed) / Double(s.length)
        fraction = s.fraction0 + (s.target - s.fraction0) * u
        let shaped: Double
        switch s.timing {
        case .curve(let bezier): shaped = bezier.value(at: u)
        case .spring(let spring): shaped = spring.progress(at: Double(elapsed) / 1e9 * s.rate)
        }
        progress = s.progress0 + (s.target - s.progress0) * shaped
        write(in: scene)
    }

    func beginSegment(timing segmentTiming: Timing, course: Double, durationFactor: Double, delay: Double,
                      in scene: Scene)
    {
        let target: Double = isReversed ? 0 : 1
        let left = abs(target - fraction)
        let seconds: Double
        var rate = 1.0
        switch segmentTiming {
        case .curve: seconds = duration * left * durationFactor
        case .spring:
            // A spring runs its own course from where it is (its settling time), stretched by the factor.
            seconds = (left > 0 ? max(course, 1e-3) : 0) * durationFactor
            rate = 1 / durationFactor
        }
        let start = scene.now + Int64((min(delay, 3600) * 1e9).rounded())
        segment = Segment(
            start: start, fraction0: fraction, progress0: progress, target: target,
            length: Int64((min(seconds, 3600) * 1e9).rounded()), timing: segmentTiming, rate: rate, course: course)
        scene.clock.noteAnimatorRunning(self)
        scene.tree.valuesChanged()
        if delay == 0, segment?.length == 0, !scene.clock.isTicking { advance(in: scene) }
    }

    /// The animator's timing applied to a time fraction (a scrub that is not linear).
    static func shape(_ timing: Timing, _ u: Double, duration: Double) -> Double {
        switch timing {
        case .curve(let bezier): return bezier.value(at: min(max(u, 0), 1))
        case .spring(let spring):
            return u >= 1 ? 1 : spring.progress(at: u * max(duration, 1e-3))
        }
    }

    // MARK: Holding animations

    func activate(in scene: Scene) {
        state = .active
        scene.clock.noteAnimatorRunning(self)
        let blocks = pendingBlocks
        pendingBlocks.removeAll()
        for block in blocks { run(block.changes, low: block.delayFactor, in: scene) }
    }

    /// Runs an animation block whose animations this animator holds (window from `low` to the end).
    func run(_ changes: () -> Void, low: Double, in scene: Scene) {
        let saved = scene.clock.enter(transition)
        let savedLow = openLow
        openLow = min(max(low, 0), 1)
        scene.clock.beginAnimatorBlock(self)
        changes()
        scene.clock.commitBlock()
        openLow = savedLow
        scene.clock.leave(restoring: saved)
        write(in: scene)
    }

    /// `addAnimation` hands the animator an animation made in one of its blocks.
    func adopt(_ animation: PropertyAnimation) {
        held.append(Held(animation: animation, low: openLow ?? 0))
    }

    func owns(_ animation: PropertyAnimation) -> Bool {
        !animation.removed && animation.view.animations[animation.property.rawValue] === animation
    }

    /// Writes every held animation's value at the animator's progress.
    func write(in scene: Scene) {
        var anyGone = false
        for h in held {
            guard owns(h.animation) else {
                anyGone = true
                continue
            }
            let a = h.animation
            // A delayed block (low > 0) waits at its start; an undelayed one follows a reversed spring's overshoot
            // past the start as it follows its overshoot past the end.
            let q = h.low >= 1 ? (progress >= 1 ? 1 : 0) : h.low > 0 ? max(0, (progress - h.low) / (1 - h.low)) : progress
            scene.touch(a.view)
            scene.tree.markChanged(a.view, 0)
            a.write(Self.values(a, at: q))
        }
        if anyGone { held.removeAll { !owns($0.animation) } }
        scene.tree.valuesChanged()
    }

    /// An animation's value at progress `q` (a spring's overshoot goes past 1).
    static func values(_ a: PropertyAnimation, at q: Double) -> [Double] {
        if let path = a.path { return path(q) }
        var out = a.to
        for i in 0..<min(a.from.count, a.to.count) { out[i] = a.from[i] + (a.to[i] - a.from[i]) * q }
        return out
    }

    /// Sets a property's model and presentation value at once, outside any block.
    func put(_ a: PropertyAnimation, _ values: [Double], in scene: Scene) {
        scene.clock.removeAnimation(of: a.view, a.property, finished: true)
        scene.clock.setOutsideBlocks(a.view, a.property, values)
    }

    /// Gives the properties their values at `position` and lets the animations go.
    func settle(at position: Position, in scene: Scene) {
        for h in held where owns(h.animation) {
            let a = h.animation
            switch position {
            case .end: put(a, a.to, in: scene)
            case .start: put(a, a.from, in: scene)
            case .current: put(a, a.view.presentationValues(of: a.property), in: scene)
            }
        }
        held.removeAll()
    }

    /// The animator is done: values at `position`, state inactive, then its completions (once).
    func complete(at position: Position, in scene: Scene) {
        segment = nil
        settle(at: position, in: scene)
        state = .inactive
        fraction = position == .start ? 0 : (position == .end ? 1 : fraction)
        progress = fraction
        detach(scene)
        let handlers = completions
        completions.removeAll()
        guard !handlers.isEmpty else { return }
        isCompleting = true
        let saved = scene.clock.enter(transition)
        for handler in handlers { handler(position) }
        scene.clock.leave(restoring: saved)
        isCompleting = false
    }

    /// Ends the animator at once where it is heading (its transition is forced to its end): the end, or the
    /// start when reversed; its completions run.
    func finishAtOnce(in scene: Scene) {
        guard state != .inactive || !held.isEmpty else { return }
        complete(at: isReversed ? .start : .end, in: scene)
    }

    /// True while active and paused (the watchdog waits for it).
    var isPaused: Bool { state == .active && segment == nil }

    func detach(_ scene: Scene) {
        scene.clock.noteAnimatorInactive(self)
    }
}
