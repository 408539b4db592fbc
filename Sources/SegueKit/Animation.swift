#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// How a block of property changes animates (UIView.animate's options).
public struct AnimationOptions: Sendable, Equatable {
    public var duration: Double
    public var delay: Double
    public var timing: Timing
    /// How many times the animation runs (fractions allowed); 0 and 1 both mean once.
    public var repeatCount: Double = 0
    /// Run forward then backward each time (UIViewAnimationOptionAutoreverse). As in UIKit, when the animation
    /// ends the view shows its model value, the one set in the block.
    public var autoreverses = false

    public init(duration: Double, delay: Double = 0, timing: Timing = .curve(.easeInOut), repeatCount: Double = 0,
                autoreverses: Bool = false)
    {
        self.duration = duration
        self.delay = delay
        self.timing = timing
        self.repeatCount = repeatCount
        self.autoreverses = autoreverses
    }

    /// The whole time the animation runs, repeats and reversals included.
    var activeDuration: Double {
        duration * (autoreverses ? 2 : 1) * max(1, repeatCount.isFinite ? repeatCount : 1)
    }
}

/// One property of one view animating from a value to a value.
final class PropertyAnimation {
    let view: View
    let property: ViewProperty
    let from: [Double]
    let to: [Double]
    /// Scene time (ns) at which the animation starts moving (after its delay).
    let begin: Int64
    /// One pass, and everything (repeats and reversals).
    let durationNs: Int64
    let activeNs: Int64
    let duration: Double
    let timing: Timing
    let group: AnimationGroup
    let autoreverses: Bool
    /// The values along the way for a given progress, when they are not a straight line: transforms
    /// interpolated by decomposition, flips, keyframes.
    let path: ((Double) -> [Double])?
    /// The path when it is a keyframe block's (`KeyframePath`): a frame writes its value in place through it
    /// (`KeyframePath.write`), without the array `path` returns.
    let keyframes: KeyframePath?
    /// The path when it is a 2-D transform's decomposition (so the per-frame loop interpolates 6 values itself).
    let affinePath: AffinePath?
    /// Absolute velocity per channel carried over from a superseded animation (springs only), per second.
    let carried: [Double]?
    /// Plain: one pass, straight line, nothing carried — the fast path.
    let plain: Bool
    /// Plain, and both ends are 16-value 2-D affine transforms (`AnimationTrack.isAffinePair`): the frame loop moves
    /// only the 6 affine channels (`AnimationTrack.Mode.affine`).
    let straightAffine: Bool
    /// Set for an explicit layer animation (`view:add_animation`): it shows its values over the model value and
    /// never writes the model.
    let layer: LayerAnimation?
    /// Scene time (ns) at which the animation was made.
    var createdAt: Int64 = 0
    var removed = false
    /// Scene-wide start order (`Scene.running` is sorted by it).
    var serial = 0
    /// Taken off the scene's clock by a driven transition (it never goes back: a copy does).
    var held = false
    /// Index in `Scene.running` (its track), −1 when not there.
    var trackIndex = -1

    init(view: View, property: ViewProperty, from: [Double], to: [Double], begin: Int64, options: AnimationOptions,
         group: AnimationGroup, path: ((Double) -> [Double])? = nil, affinePath: AffinePath? = nil,
         carried: [Double]? = nil, layer: LayerAnimation? = nil, keyframes: KeyframePath? = nil,
         affineEnds: Bool? = nil)
    {
        self.keyframes = keyframes
        self.layer = layer
        self.view = view
        self.property = property
        self.from = from
        self.to = to
        self.begin = begin
        self.duration = options.duration
        self.durationNs = Int64((options.duration * 1e9).rounded())
        self.activeNs = Int64((min(options.activeDuration, 1e7) * 1e9).rounded())
        self.timing = options.timing
        self.group = group
        self.autoreverses = options.autoreverses
        self.path = path
        self.affinePath = affinePath
        self.carried = carried
        // A gradient view's part lives outside the channels the frame loop writes: the object writes it (`write`).
        plain = path == nil && carried == nil && activeNs == durationNs && layer == nil && !property.isGradient
        // `affineEnds`: what `AnimationClock.addAnimation` found when it tested both ends (the same test).
        straightAffine = plain && (affineEnds ?? AnimationTrack.isAffinePair(from, to))
    }

    /// The same animation on a shifted clock: it begins at `begin` (scene ns). A transition that was driven
    /// (scrubbed, then finished) hands its unfinished animations back to the scene this way.
    init(copying other: PropertyAnimation, begin: Int64) {
        view = other.view
        property = other.property
        from = other.from
        to = other.to
        self.begin = begin
        durationNs = other.durationNs
        activeNs = other.activeNs
        duration = other.duration
        timing = other.timing
        group = other.group
        autoreverses = other.autoreverses
        path = other.path
        keyframes = other.keyframes
        affinePath = other.affinePath
        carried = other.carried
        plain = other.plain
        straightAffine = other.straightAffine
        layer = other.layer
    }

    /// Writes the value `elapsed` ns after the start (clamped to the animation's span) without ending it: a
    /// scrubbed transition's animations show any instant and stay alive.
    func scrub(toElapsed elapsed: Int64) {
        if let layer {
            // Before its begin time an explicit animation shows the model unless it fills backwards.
            if elapsed < 0, !layer.fillMode.backwards { return write(Array(view.model.get(property))) }
            return write(layerValue(layer, atElapsed: min(max(0, elapsed), activeNs)))
        }
        write(values(atElapsed: min(max(0, elapsed), activeNs)))
    }

    /// An explicit animation's presentation value `elapsed` ns after its begin (0…activeNs): its field's value
    /// over the model value as it is now.
    func layerValue(_ layer: LayerAnimation, atElapsed elapsed: Int64) -> [Double] {
        let field: [Double]
        if elapsed >= activeNs {
            field = layer.finalValue
        } else {
            field = layer.value(progress(atElapsed: elapsed))
        }
        return layer.keyPath.compose(field, over: Array(view.model.get(property)), additive: layer.additive)
    }

    /// One frame of an explicit animation: before its begin time it shows its first value if it fills backwards;
    /// in its active time its value; at the end true (the clock then removes it, or keeps its final value when it
    /// fills forwards and is not removed on completion).
    func evaluateLayer(_ layer: LayerAnimation, at now: Int64) -> Bool {
        let elapsed = now - begin
        if elapsed < 0 {
            if layer.fillMode.backwards { write(layerValue(layer, atElapsed: 0)) }
            return false
        }
        if elapsed >= activeNs {
            if layer.keepsFinalValue { write(layerValue(layer, atElapsed: activeNs)) }
            return true
        }
        write(layerValue(layer, atElapsed: elapsed))
        return false
    }

    /// Writes the value at `now` into the view's presentation values; returns true when the animation is over.
    @inline(__always)
    func evaluate(at now: Int64) -> Bool {
        if let layer { return evaluateLayer(layer, at: now) }
        let elapsed = now - begin
        let offset = property.offset
        if elapsed >= activeNs {
            if !plain, property.isGradient {
                write(to)
                return true
            }
            let channels = view.presentationChannels + offset
            for i in 0..<min(to.count, property.count) { channels[i] = to[i] }
            view.dirty |= property.changeBit
            return true
        }
        if elapsed < 0 { return false }
        if !plain {
            if let keyframes, carried == nil, !property.isGradient {
                let p = progress(atElapsed: elapsed)
                let count = property.count
                keyframes.write(at: p, into: UnsafeMutableBufferPointer(start: view.presentationChannels + offset, count: count))
                view.dirty |= property.changeBit
                return false
            }
            write(values(atElapsed: elapsed))
            return false
        }
        let p = timing.progress(at: Double(elapsed) / 1e9, duration: duration)
        let channels = view.presentationChannels + offset
        for i in 0..<min(to.count, property.count) {
            let a = from[i]
            channels[i] = a + (to[i] - a) * p
        }
        view.dirty |= property.changeBit
        return false
    }

    func write(_ values: [Double]) {
        if property.isGradient {
            // A list's length is the value's own (an animation between lists of different lengths jumps).
            view.setPresentation(property, values)
            view.dirty |= property.changeBit
            return
        }
        let offset = property.offset
        let channels = view.presentationChannels + offset
        for i in 0..<min(values.count, property.count) { channels[i] = values[i] }
        view.dirty |= property.changeBit
    }

    /// The progress `elapsed` ns (before the end) after the start: repeats and reversals applied, then the timing.
    @inline(__always)
    func progress(atElapsed elapsed: Int64) -> Double {
        timing.progress(at: passTime(atElapsed: elapsed), duration: duration)
    }

    /// The time into the current pass, in seconds, `elapsed` ns after the start: repeats taken off, an
    /// autoreversing animation's odd passes run backwards.
    @inline(__always)
    func passTime(atElapsed elapsed: Int64) -> Double {
        var local = max(0, elapsed)
        var reversed = false
        if durationNs > 0 {
            let pass = local / durationNs
            local -= pass * durationNs
            if autoreverses, pass % 2 == 1 { reversed = true }
        }
        let t = Double(local) / 1e9
        return reversed ? duration - t : t
    }

    /// The value `elapsed` ns after the start (repeats and reversals applied), without writing it.
    func values(atElapsed elapsed: Int64) -> [Double] {
        if elapsed >= activeNs { return to }
        let t = passTime(atElapsed: elapsed)
        let p = timing.progress(at: t, duration: duration)
        if let path { return path(p) }
        var out = [Double](repeating: 0, count: to.count)
        for i in 0..<to.count { out[i] = from[i] + (to[i] - from[i]) * p }
        if let carried, case .spring(let spring) = timing {
            let s = spring.velocityResponse(at: t)
            for i in 0..<min(carried.count, out.count) { out[i] += carried[i] * s }
        }
        return out
    }

    /// The velocity (units per second, per channel) at scene time `now`, by a central difference.
    func velocity(at now: Int64) -> [Double] {
        let h: Int64 = 500_000  // 0.5 ms
        let elapsed = now - begin
        guard elapsed > 0, elapsed < activeNs else { return [Double](repeating: 0, count: to.count) }
        let a = values(atElapsed: max(0, elapsed - h)), b = values(atElapsed: min(activeNs - 1, elapsed + h))
        let dt = Double(min(activeNs - 1, elapsed + h) - max(0, elapsed - h)) / 1e9
        guard dt > 0 else { return [Double](repeating: 0, count: to.count) }
        return zip(a, b).map { ($1 - $0) / dt }
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
    /// The transition whose animator made the block, so the transition can be jumped to its end; nil once that
    /// transition is gone. Held through the transition's `anchor` (not `weak`, which would give every transition a
    /// side table: see `Anchor`); the transition's deinit clears it.
    var transition: Transition? {
        get { transitionAnchor?.object }
        set { transitionAnchor = newValue?.anchor }
    }
    private var transitionAnchor: Anchor<Transition>?
    /// The last journal that recorded the group's counts.
    var journalEpoch = 0
    /// The property animator whose block made the group: its animations are held by it, off the clock.
    weak var propertyAnimator: PropertyAnimator?

    init(id: Int, completion: ((Bool) -> Void)?) {
        self.id = id
        self.completion = completion
    }
}

/// Core Animation interpolates a 2-D transform by decomposing it, not component by component: a rotation stays
/// a rotation all the way (a matrix lerp from identity to a half turn would shrink through zero).
///
/// With row vectors (p' = p·M, as CGAffineTransform), the 2×2 part is M = K·S·R: a shear K = [[1, 0], [k, 1]],
/// a scale S = diag(sx, sy) and a rotation R(θ) = [[cos θ, sin θ], [−sin θ, cos θ]]; the translation is apart.
struct AffineDecomposition: Equatable {
    var tx: Double, ty: Double, sx: Double, sy: Double, angle: Double, shear: Double

    init(_ t: Transform3D) {
        let (a, b, c, d, tx, ty) = t.affine
        self.tx = tx
        self.ty = ty
        sx = (a * a + b * b).squareRoot()
        if sx > 0 {
            angle = atan2(b, a)
            let ux = a / sx, uy = b / sx
            shear = (c * ux + d * uy) / sx
            sy = -c * uy + d * ux
        } else {
            angle = 0
            shear = 0
            sy = (c * c + d * d).squareRoot()
        }
    }

    var transform: Transform3D {
        let (a, b, c, d, tx, ty) = affine
        return Transform3D(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
    }

    /// The recomposed 2-D affine transform (a, b, c, d, tx, ty).
    @inline(__always)
    var affine: (Double, Double, Double, Double, Double, Double) {
        let cosA = cos(angle), sinA = sin(angle)
        let a = sx * cosA, b = sx * sinA
        let c = shear * sx * cosA - sy * sinA
        let d = shear * sx * sinA + sy * cosA
        return (a, b, c, d, tx, ty)
    }

    /// A path from `from` to `to` for animations of a transform: 2-D ends by this decomposition, 3-D (or mixed)
    /// ends by `TransformPath3D`; nil when a straight line is exact (only a 2-D translation changes) or an end has
    /// no decomposition.
    static func path(from: [Double], to: [Double]) -> ((Double) -> [Double])? {
        AffinePath(from: from, to: to)?.closure ?? TransformPath3D(from: from, to: to)?.closure
    }
}

/// A 2-D transform interpolated by decomposition: the start, the end, and the angle to turn (the short way).
struct AffinePath {
    let start: AffineDecomposition
    let end: AffineDecomposition
    let delta: Double

    /// Nil when a straight line is exact (only the translation changes) or the transforms are not 2-D affine.
    init?(from: [Double], to: [Double]) {
        let f = Transform3D(values: from), t = Transform3D(values: to)
        guard f.isAffine, t.isAffine else { return nil }
        self.init(affine: f, t)
    }

    /// Between two transforms the caller found 2-D affine (`isAffine`); nil when a straight line is exact (only the
    /// translation changes).
    init?(affine f: Transform3D, _ t: Transform3D) {
        let fa = f.affine, ta = t.affine
        guard fa.a != ta.a || fa.b != ta.b || fa.c != ta.c || fa.d != ta.d else { return nil }
        var a = AffineDecomposition(f), b = AffineDecomposition(t)
        // A degenerate end (scale 0) has no angle of its own: take the other's, so nothing spins.
        if a.sx == 0 { a.angle = b.angle }
        if b.sx == 0 { b.angle = a.angle }
        // The short way round.
        var delta = b.angle - a.angle
        while delta > .pi { delta -= 2 * .pi }
        while delta <= -.pi { delta += 2 * .pi }
        start = a
        end = b
        self.delta = delta
    }

    /// The decomposition at progress `p`.
    @inline(__always)
    func at(_ p: Double) -> AffineDecomposition {
        var m = start
        m.tx += (end.tx - start.tx) * p
        m.ty += (end.ty - start.ty) * p
        m.sx += (end.sx - start.sx) * p
        m.sy += (end.sy - start.sy) * p
        m.shear += (end.shear - start.shear) * p
        m.angle += delta * p
        return m
    }

    var closure: (Double) -> [Double] { { p in at(p).transform.values } }
}
