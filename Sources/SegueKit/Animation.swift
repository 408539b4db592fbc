/// How a block of property changes animates (UIView.animate's options).
public struct AnimationOptions: Sendable, Equatable {
    public var duration: Double
    public var delay: Double
    public var timing: Timing

    public init(duration: Double, delay: Double = 0, timing: Timing = .curve(.easeInOut)) {
        self.duration = duration
        self.delay = delay
        self.timing = timing
    }
}

/// One property of one view animating from a value to a value.
final class PropertyAnimation {
    let view: View
    let property: AnimatableProperty
    let from: [Double]
    let to: [Double]
    /// Scene time (ns) at which the animation starts moving (after its delay).
    let begin: Int64
    let durationNs: Int64
    let duration: Double
    let timing: Timing
    let group: AnimationGroup
    var removed = false

    init(view: View, property: AnimatableProperty, from: [Double], to: [Double], begin: Int64, options: AnimationOptions,
         group: AnimationGroup)
    {
        self.view = view
        self.property = property
        self.from = from
        self.to = to
        self.begin = begin
        self.duration = options.duration
        self.durationNs = Int64((options.duration * 1e9).rounded())
        self.timing = options.timing
        self.group = group
    }

    /// Writes the value at `now` into the view's presentation values; returns true when the animation is over.
    @inline(__always)
    func evaluate(at now: Int64) -> Bool {
        let elapsed = now - begin
        let offset = property.offset
        if elapsed >= durationNs {
            for i in 0..<to.count { view.presentation.channels[offset + i] = to[i] }
            view.dirty |= 1 << UInt8(property.rawValue)
            return true
        }
        if elapsed < 0 { return false }
        let p = timing.progress(at: Double(elapsed) / 1e9, duration: duration)
        for i in 0..<to.count {
            let a = from[i]
            view.presentation.channels[offset + i] = a + (to[i] - a) * p
        }
        view.dirty |= 1 << UInt8(property.rawValue)
        return false
    }
}

/// The animations one `animate` block created, and its completion.
final class AnimationGroup {
    let id: Int
    var remaining = 0
    var finished = true
    var completion: ((Bool) -> Void)?
    /// Set once the completion has been queued or dropped.
    var done = false
    /// The transition whose animator made the block, so the transition can be jumped to its end.
    weak var transition: Transition?

    init(id: Int, completion: ((Bool) -> Void)?) {
        self.id = id
        self.completion = completion
    }
}
