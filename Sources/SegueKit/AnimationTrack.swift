#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What the per-frame loop reads of one running animation: a value record in the scene's contiguous array
/// (`RunningAnimations.tracks`), so a frame walks memory in order and never chases the animation object. The
/// `PropertyAnimation` object stays the animation's identity (timelines, groups, supersession, fail-over); its
/// fields are immutable, so the record is an exact copy of what the loop needs.
struct AnimationTrack {
    /// How the loop writes the animation's values.
    enum Mode: UInt8 {
        /// A straight line over at most 6 channels from `offset` (center, bounds, alpha, color, corner radius).
        case line
        /// A transform between two 2-D affine transforms along a straight line: only the 6 affine channels
        /// (a, b, c, d, tx, ty) move, the other 10 are the same constants at both ends.
        case affine
        /// A transform between two 2-D affine transforms interpolated by decomposition (`AffinePath`): the 6
        /// affine channels move. `from` holds the start's decomposition (tx, ty, sx, sy, angle, shear), `to` the
        /// end's with the angle to turn in `to[6]`.
        case decomposed
        /// A keyframe block's path laid out flat (`KeyframeFrames`, one pass, nothing carried): `count` channels
        /// from `offset`, through `keyframes`.
        case keyframed
        /// Anything else (a decomposed path, a keyframed one the flat layout does not take, repeats, reversals,
        /// carried velocity, a 3-D transform): the animation object evaluates itself.
        case general
    }

    /// Kept alive by `RunningAnimations.animations` (same index) and by the animation it belongs to. Unmanaged, read
    /// at +0 (`_withUnsafeGuaranteedRef`) by the frame loop: an `unowned(unsafe)` field loaded into a local was
    /// retained and released around each use, three pairs per track per frame (a third of a frame's instructions).
    let view: Unmanaged<View>
    unowned(unsafe) let animation: PropertyAnimation
    /// The animation's group: animations of one group that begin together share their progress.
    let group: ObjectIdentifier
    let begin: Int64
    /// The loop's one test of whether it writes the track itself: `UInt64(bitPattern: now − begin) < window` holds
    /// exactly when the animation has begun, has not ended and the loop handles it — `window` is the animation's
    /// `activeNs` for a track of modes `line`, `affine`, `decomposed` and `keyframed` that is not removed, and 0
    /// (never in) for a removed track or one of mode `general`. A time before the begin wraps to a number past any
    /// window, so one unsigned compare stands for `removed`, `elapsed < 0`, `elapsed < activeNs` and the mode's.
    private(set) var window: UInt64
    let duration: Double
    let timing: Timing
    let mode: Mode
    /// The property's first channel in `ViewValues.channels`, and how many a `line` moves.
    let offset: Int
    let count: Int
    /// The property's bit in `View.dirty`.
    let dirtyBit: UInt64
    /// The property's first presentation channel in the view's own storage (`View.presentationChannels` +
    /// `offset`): valid while the view lives, which the animation ensures (the view owns its channels, so no copy
    /// ever takes them over). Modes `line`, `affine`, `decomposed` and `keyframed` write through it; `general`
    /// does not use it.
    let channels: UnsafeMutablePointer<Double>
    /// Mirrors `PropertyAnimation.removed` (set with `setRemoved`, which keeps `window` in step).
    private(set) var removed: Bool
    let from: SIMD8<Double>
    let to: SIMD8<Double>
    /// Mode `keyframed`: the path's flat layout, kept alive by the animation's `KeyframePath` (read at +0).
    let keyframes: Unmanaged<KeyframeFrames>?
    /// Equal for two tracks only when they have the same progress at every instant (`sharesProgress`): set by
    /// `RunningAnimations.append`, so the frame loop tells whether it may reuse the progress it computed last with
    /// one integer compare instead of comparing group, begin, duration and timing (a spring's nine fields).
    var progressKey = 0

    /// The channels of a 2-D affine transform in a 16-value transform: m11, m12, m21, m22, m41, m42.
    static let affineChannels = (0, 1, 4, 5, 12, 13)

    init(_ animation: PropertyAnimation) {
        view = Unmanaged.passUnretained(animation.view)
        self.animation = animation
        group = ObjectIdentifier(animation.group)
        begin = animation.begin
        window = 0
        duration = animation.duration
        timing = animation.timing
        offset = animation.property.offset
        dirtyBit = animation.property.changeBit
        removed = animation.removed
        let storage = animation.view.presentationChannels
        var from = SIMD8<Double>(repeating: 0), to = SIMD8<Double>(repeating: 0)
        var keyframes: Unmanaged<KeyframeFrames>?
        let property = animation.property
        if animation.plain, property != .transform, animation.to.count <= 6, animation.from.count == animation.to.count {
            mode = .line
            count = animation.to.count
            for i in 0..<count {
                from[i] = animation.from[i]
                to[i] = animation.to[i]
            }
        } else if animation.straightAffine {
            mode = .affine
            count = 6
            let c = AnimationTrack.affineChannels
            for (i, channel) in [c.0, c.1, c.2, c.3, c.4, c.5].enumerated() {
                from[i] = animation.from[channel]
                to[i] = animation.to[channel]
            }
        } else if let path = animation.affinePath, animation.carried == nil, animation.activeNs == animation.durationNs {
            mode = .decomposed
            count = 6
            let a = path.start, b = path.end
            from = SIMD8(a.tx, a.ty, a.sx, a.sy, a.angle, a.shear, 0, 0)
            to = SIMD8(b.tx, b.ty, b.sx, b.sy, b.angle, b.shear, path.delta, 0)
        } else if let frames = animation.keyframes?.frames, animation.carried == nil, animation.layer == nil,
                  !property.isGradient, animation.activeNs == animation.durationNs
        {
            mode = .keyframed
            count = min(frames.k, property.count)
            keyframes = Unmanaged.passUnretained(frames)
        } else {
            mode = .general
            count = 0
        }
        self.keyframes = keyframes
        self.from = from
        self.to = to
        channels = mode == .general ? storage : storage + animation.property.offset
        window = AnimationTrack.window(mode: mode, removed: removed, activeNs: animation.activeNs)
    }

    /// `window` for a track of `mode` whose animation lasts `activeNs` (0: the loop never writes it itself).
    static func window(mode: Mode, removed: Bool, activeNs: Int64) -> UInt64 {
        removed || mode == .general || activeNs <= 0 ? 0 : UInt64(activeNs)
    }

    /// Marks the track removed (or, undoing a failed call, running again), its `window` with it.
    mutating func setRemoved(_ removed: Bool, activeNs: Int64) {
        self.removed = removed
        window = AnimationTrack.window(mode: mode, removed: removed, activeNs: activeNs)
    }

    /// Both ends are 16-value 2-D affine transforms with the same constants: a straight line between them moves
    /// only the 6 affine channels.
    static func isAffinePair(_ a: [Double], _ b: [Double]) -> Bool {
        guard a.count == 16, b.count == 16 else { return false }
        let f = Transform3D(values: a), t = Transform3D(values: b)
        return f.isAffine && t.isAffine
    }
}

extension AnimationTrack {
    /// True when the loop handles the animation `elapsed` ns after its begin itself (`write(progress:into:)`); false
    /// when it has ended or the animation object evaluates itself. `activeNs` is the animation's (the loop's fast
    /// path tests `window` instead).
    @inline(__always)
    func isInFlight(_ elapsed: Int64, activeNs: Int64) -> Bool { elapsed < activeNs && mode != .general }

    /// The progress `elapsed` ns after the begin, as `PropertyAnimation.evaluate` computes it.
    @inline(__always)
    func progress(_ elapsed: Int64) -> Double { timing.progress(at: Double(elapsed) / 1e9, duration: duration) }

    /// True when `other` has the same progress at every instant: same group, begin, duration and timing (the
    /// animations one block made together, e.g. both views' transform and alpha of the default animator).
    @inline(__always)
    func sharesProgress(with other: AnimationTrack) -> Bool {
        group == other.group && begin == other.begin && duration == other.duration && timing == other.timing
    }

    /// Writes the value at progress `p` (modes `line`, `affine`, `decomposed`, `keyframed`) from `c`, the property's first
    /// channel in the view's presentation values (index arithmetic unchecked: the offsets are the table's, inside the
    /// channels). The same floating-point operations in the same order as `PropertyAnimation`, so the values are the
    /// same to the bit; the caller sets the view's dirty bit. `from` and `to` are read in place, only the lanes the
    /// mode uses (a copy of both up front loaded all sixteen for an alpha's one).
    @inline(__always)
    static func write(_ t: UnsafePointer<AnimationTrack>, progress p: Double, into c: UnsafeMutablePointer<Double>) {
        // The two modes of nearly every track tested first, without the switch's jump.
        let mode = t.pointee.mode
        if mode == .affine {
            // Both ends read whole here only (the compiler pairs the lanes: m11 m12, m21 m22, m41 m42).
            let from = t.pointee.from, to = t.pointee.to
            c[0] = from[0] + (to[0] - from[0]) * p
            c[1] = from[1] + (to[1] - from[1]) * p
            c[4] = from[2] + (to[2] - from[2]) * p
            c[5] = from[3] + (to[3] - from[3]) * p
            c[12] = from[4] + (to[4] - from[4]) * p
            c[13] = from[5] + (to[5] - from[5]) * p
            return
        }
        if mode == .line {
            let n = t.pointee.count
            var k = 0
            while k < n {
                let a = t.pointee.from[k]
                c[k] = a + (t.pointee.to[k] - a) * p
                k &+= 1
            }
            return
        }
        switch mode {
        case .line, .affine:
            break
        case .decomposed:
            let from = t.pointee.from, to = t.pointee.to
            // AffinePath.at(p), then AffineDecomposition.affine.
            let tx = from[0] + (to[0] - from[0]) * p
            let ty = from[1] + (to[1] - from[1]) * p
            let sx = from[2] + (to[2] - from[2]) * p
            let sy = from[3] + (to[3] - from[3]) * p
            let angle = from[4] + to[6] * p
            let shear = from[5] + (to[5] - from[5]) * p
            let cosA = cos(angle), sinA = sin(angle)
            c[0] = sx * cosA
            c[1] = sx * sinA
            c[4] = shear * sx * cosA - sy * sinA
            c[5] = shear * sx * sinA + sy * cosA
            c[12] = tx
            c[13] = ty
        case .keyframed:
            // The animation's progress is the block's (one pass: `passTime` is elapsed / 1e9, as `progress`).
            let count = t.pointee.count
            t.pointee.keyframes?._withUnsafeGuaranteedRef { $0.write(at: p, into: c, count: count) }
        case .general:
            break
        }
    }
}
