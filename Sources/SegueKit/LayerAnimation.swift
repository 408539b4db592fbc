/// CAMediaTiming's `fillMode`: what the animation shows outside its active time.
public enum FillMode: String, Sendable, CaseIterable {
    /// kCAFillModeRemoved: nothing (the model value) before the begin time and after the end.
    case removed
    /// kCAFillModeForwards: the final value stays after the end (while the animation stays on the layer).
    case forwards
    /// kCAFillModeBackwards: the first value shows before the begin time.
    case backwards
    /// kCAFillModeBoth: both.
    case both

    var backwards: Bool { self == .backwards || self == .both }
    var forwards: Bool { self == .forwards || self == .both }
}

/// An explicit layer animation as a plugin describes it (`view:add_animation(key, spec)`): CABasicAnimation
/// (`from`/`to`/`by`), CAKeyframeAnimation (`values`, `keyTimes`, `timingFunctions`, `calculationMode`) or
/// CASpringAnimation (`spring`). Values are flat: `valueCount` numbers each (`LayerKeyPath.valueCount`).
public struct LayerAnimationSpec: Sendable {
    public var keyPath: String
    public var from: [Double]?
    public var to: [Double]?
    public var by: [Double]?
    public var values: [[Double]]?
    public var keyTimes: [Double]?
    /// One curve (a basic animation's) or one per segment (a keyframe animation's).
    public var timingFunctions: [CubicBezier]?
    public var calculationMode: CalculationMode = .linear
    public var duration: Double
    /// Seconds from now (CACurrentMediaTime() + begin_time).
    public var beginTime: Double = 0
    public var repeatCount: Double = 0
    public var autoreverses = false
    public var fillMode: FillMode = .removed
    public var removedOnCompletion = true
    public var additive = false
    /// CASpringAnimation's mass, stiffness, damping and initial velocity.
    public var spring: (mass: Double, stiffness: Double, damping: Double, velocity: Double)?

    public init(keyPath: String, duration: Double) {
        self.keyPath = keyPath
        self.duration = duration
    }

    /// The most key times (and values) a keyframe animation may have.
    public static let maxKeyTimes = 1000
}

/// What makes a `PropertyAnimation` an explicit layer animation: its key, its field of the property, its fill and
/// removal rules, and the values it shows as a function of its progress. The model value is never written: the
/// presentation is `keyPath.compose(value, over: model)` each frame.
final class LayerAnimation {
    let key: String
    let keyPath: LayerKeyPath
    let fillMode: FillMode
    let removedOnCompletion: Bool
    let additive: Bool
    /// The field's value at a progress (the timing applied): a keyframe path, or a straight line for a spring.
    let value: (Double) -> [Double]
    /// The field's value at the end of the active time (an autoreversed animation ends where it began).
    let finalValue: [Double]
    let startValue: [Double]
    /// Set when the active time is over and the final value stays (fill forwards, not removed on completion).
    var filled = false

    init(key: String, keyPath: LayerKeyPath, fillMode: FillMode, removedOnCompletion: Bool, additive: Bool,
         value: @escaping (Double) -> [Double], startValue: [Double], finalValue: [Double])
    {
        self.key = key
        self.keyPath = keyPath
        self.fillMode = fillMode
        self.removedOnCompletion = removedOnCompletion
        self.additive = additive
        self.value = value
        self.startValue = startValue
        self.finalValue = finalValue
    }

    /// Whether the final value stays once the active time is over.
    var keepsFinalValue: Bool { fillMode.forwards && !removedOnCompletion }
}

/// A refused `add_animation`: the field and what was wrong with it.
public struct LayerAnimationError: Error, Sendable {
    public let message: String
    init(_ message: String) { self.message = message }
}

extension LayerAnimationSpec {
    static func text(_ v: Double) -> String { ModelRange.text(v) }

    /// Checks the spec against its key path and builds what the animation shows; throws naming the field.
    /// `current` is the property's presentation value now (CABasicAnimation's "current presentation value" for a
    /// missing `from` or `to`).
    func resolve(current: [Double]) throws(LayerAnimationError) -> (LayerKeyPath, Timing, (Double) -> [Double], [Double], [Double]) {
        guard let keyPath = LayerKeyPath.named(self.keyPath) else {
            let hint = NearestName.nearest(to: self.keyPath, in: LayerKeyPath.table.keys.sorted())
                .map { " (did you mean '\($0)'?)" } ?? ""
            throw LayerAnimationError("key_path '\(self.keyPath)' is no animatable key path\(hint)")
        }
        guard duration.isFinite, duration >= 0 else { throw LayerAnimationError("duration must be a number ≥ 0, got \(Self.text(duration))") }
        guard beginTime.isFinite, beginTime >= 0 else { throw LayerAnimationError("begin_time must be a number ≥ 0, got \(Self.text(beginTime))") }
        guard repeatCount.isFinite, repeatCount >= 0, repeatCount <= 1e6 else {
            throw LayerAnimationError("repeat_count must be a number in 0…1e6, got \(Self.text(repeatCount))")
        }
        let n = keyPath.valueCount
        let list = keyPath.field == .whole ? FrameViews.listStride(keyPath.property) : nil
        func check(_ v: [Double]?, _ field: String) throws(LayerAnimationError) {
            guard let v else { return }
            if let list {
                // A gradient's list: colours (4 numbers each, at least one) or locations (ascending in 0…1).
                if list == 4, v.isEmpty || v.count % 4 != 0 {
                    throw LayerAnimationError("\(field) must be a list of at least one colour for '\(self.keyPath)'")
                }
                if list == 1, let refusal = GradientCheck.locationsRefusal(v, colorCount: .max) {
                    throw LayerAnimationError("\(field): " + GradientCheck.bare(refusal))
                }
                if let bad = v.first(where: { !$0.isFinite }) { throw LayerAnimationError("\(field) must be finite, got \(Self.text(bad))") }
                return
            }
            guard v.count == n else { throw LayerAnimationError("\(field) must have \(n) number\(n == 1 ? "" : "s") for '\(self.keyPath)', got \(v.count)") }
            if let bad = v.first(where: { !$0.isFinite }) { throw LayerAnimationError("\(field) must be finite, got \(Self.text(bad))") }
        }
        try check(from, "from")
        try check(to, "to")
        try check(by, "by")
        let base = keyPath.read(current)
        let segment = LayerKeyPath.segmentInterpolation(for: keyPath.property).flatMap { s -> (([Double], [Double]) -> ((Double) -> [Double])?)? in
            keyPath.field == .whole ? s : nil
        }
        if let values {
            guard spring == nil else { throw LayerAnimationError("spring animates from/to/by, not values") }
            guard !values.isEmpty else { throw LayerAnimationError("values must not be empty") }
            guard values.count <= LayerAnimationSpec.maxKeyTimes else {
                throw LayerAnimationError("values has \(values.count) entries, more than \(LayerAnimationSpec.maxKeyTimes)")
            }
            for (i, v) in values.enumerated() { try check(v, "values[\(i + 1)]") }
            if let keyTimes {
                guard keyTimes.count <= LayerAnimationSpec.maxKeyTimes else {
                    throw LayerAnimationError("key_times has \(keyTimes.count) entries, more than \(LayerAnimationSpec.maxKeyTimes)")
                }
                guard keyTimes.count == values.count else {
                    throw LayerAnimationError("key_times has \(keyTimes.count) entries but values has \(values.count)")
                }
                for (i, t) in keyTimes.enumerated() {
                    guard t.isFinite, (0...1).contains(t) else { throw LayerAnimationError("key_times[\(i + 1)] must be in 0…1, got \(Self.text(t))") }
                    if i > 0, t < keyTimes[i - 1] {
                        throw LayerAnimationError("key_times must not decrease: key_times[\(i + 1)] = \(Self.text(t)) after \(Self.text(keyTimes[i - 1]))")
                    }
                }
            }
            if let timingFunctions, timingFunctions.count != 1, timingFunctions.count != values.count - 1 {
                throw LayerAnimationError("timing_functions has \(timingFunctions.count) entries; values has \(values.count - 1) segments")
            }
            let timings = timingFunctions.map { $0.count == 1 ? Array(repeating: $0[0], count: max(0, values.count - 1)) : $0 } ?? []
            let path = KeyframePath(values: values, keyTimes: keyTimes, timings: timings, mode: calculationMode, segment: segment)
            let first = values[0], last = values[values.count - 1]
            return (keyPath, .curve(.linear), { path.value(at: $0) }, first, last)
        }
        if keyTimes != nil { throw LayerAnimationError("key_times needs values") }
        // CABasicAnimation's interpolation values (Apple: "CABasicAnimation", Setting Interpolation Values).
        func add(_ a: [Double], _ b: [Double]) -> [Double] { zip(a, b).map { $0 + $1 } }
        func sub(_ a: [Double], _ b: [Double]) -> [Double] { zip(a, b).map { $0 - $1 } }
        let start: [Double], end: [Double]
        switch (from, to, by) {
        case (let f?, let t?, _): (start, end) = (f, t)
        case (let f?, nil, let b?): (start, end) = (f, add(f, b))
        case (nil, let t?, let b?): (start, end) = (sub(t, b), t)
        case (let f?, nil, nil): (start, end) = (f, base)
        case (nil, let t?, nil): (start, end) = (base, t)
        case (nil, nil, let b?): (start, end) = (base, add(base, b))
        case (nil, nil, nil): throw LayerAnimationError("give from, to, by or values")
        }
        if let timingFunctions, timingFunctions.count > 1 {
            throw LayerAnimationError("timing_functions has \(timingFunctions.count) entries; a from/to animation has 1 segment")
        }
        if let spring {
            guard let physical = Spring.physical(mass: spring.mass, stiffness: spring.stiffness, damping: spring.damping,
                                                 velocity: spring.velocity)
            else {
                throw LayerAnimationError("spring: mass, stiffness and damping must be positive finite numbers, velocity finite (got mass \(Self.text(spring.mass)), stiffness \(Self.text(spring.stiffness)), damping \(Self.text(spring.damping)), velocity \(Self.text(spring.velocity)))")
            }
            // The line from start to end at the spring's progress (which overshoots): no clamping.
            let line: (Double) -> [Double] = { p in zip(start, end).map { $0 + ($1 - $0) * p } }
            let value: (Double) -> [Double] = segment.flatMap { $0(start, end) } ?? line
            return (keyPath, .spring(physical.spring), value, start, end)
        }
        let path = KeyframePath(values: [start, end], keyTimes: [0, 1], timings: timingFunctions ?? [], mode: .linear,
                                segment: segment)
        return (keyPath, .curve(.linear), { path.value(at: $0) }, start, end)
    }
}

extension LayerAnimationSpec {
    /// Checks the spec without a view (what `add_animation` would refuse); throws naming the field.
    public static func check(_ spec: LayerAnimationSpec) throws(LayerAnimationError) {
        let count = LayerKeyPath.named(spec.keyPath)?.property.count ?? 0
        _ = try spec.resolve(current: count == 16 ? Transform3D.identity.values : Array(repeating: 0, count: count))
    }
}
