import Testing

@testable import SegueKit

/// The frame loop's flat keyframe layout (`KeyframeFrames`, track mode `keyframed`) against `KeyframePath.write`,
/// which the animation object used before: the same bits at every instant, or no flat layout at all.
@Suite("Keyframes: the frame loop's flat layout writes KeyframePath's numbers")
struct KeyframeFramesTests {
    /// Uneven key times, two equal ones (a zero-length segment) and a timing function per segment.
    static let values: [[Double]] = [[0, 10], [3.5, -2], [3.5, 7.25], [-1, 40], [12.125, 0.3]]
    static let keyTimes: [Double] = [0.1, 0.3, 0.3, 0.55, 0.9]
    static let timings = [CubicBezier(0.42, 0, 0.58, 1), CubicBezier(0.25, 0.1, 0.25, 1),
                          CubicBezier(0, 0, 1, 1), CubicBezier(0.3, 1.4, 0.6, -0.2)]

    static func bits(_ path: KeyframePath, _ u: Double, count: Int) -> [UInt64] {
        var out = [Double](repeating: -99, count: count)
        out.withUnsafeMutableBufferPointer { path.write(at: u, into: $0) }
        return out.map(\.bitPattern)
    }

    static func flatBits(_ frames: KeyframeFrames, _ u: Double, count: Int) -> [UInt64] {
        var out = [Double](repeating: -99, count: count)
        out.withUnsafeMutableBufferPointer { frames.write(at: u, into: $0.baseAddress!, count: count) }
        return out.map(\.bitPattern)
    }

    @Test("linear, discrete and cubic, with and without timing functions: the same bits at every instant",
          arguments: [CalculationMode.linear, .discrete, .cubic], [true, false])
    func sameBits(mode: CalculationMode, timed: Bool) throws {
        let path = KeyframePath(values: Self.values, keyTimes: Self.keyTimes, timings: timed ? Self.timings : [],
                                mode: mode)
        let frames = try #require(path.frames)
        var instants = (-20...1020).map { Double($0) / 1000 }
        instants += Self.keyTimes + Self.keyTimes.map { $0.nextDown } + Self.keyTimes.map { $0.nextUp }
        for u in instants {
            for count in [1, 2] {
                #expect(Self.flatBits(frames, u, count: count) == Self.bits(path, u, count: count), "u = \(u)")
            }
        }
    }

    @Test("no flat layout where it would not give the same numbers: paced modes, one value, lists of different lengths, a transform's decomposed segments")
    func noFlatLayout() {
        for mode in [CalculationMode.paced, .cubicPaced] {
            #expect(KeyframePath(values: Self.values, keyTimes: nil, timings: [], mode: mode).frames == nil)
        }
        #expect(KeyframePath(values: [[1, 2]], keyTimes: nil, timings: [], mode: .linear).frames == nil)
        #expect(KeyframePath(values: [[1, 2], [1, 2, 3]], keyTimes: nil, timings: [], mode: .cubic).frames == nil)
        let turn = Transform3D.identity.values, half = Transform3D.rotation(.pi / 2, 0, 0, 1).values
        let rotation = KeyframePath(values: [turn, half], keyTimes: nil, timings: [], mode: .linear,
                                    segment: LayerKeyPath.segmentInterpolation(for: .transform))
        #expect(rotation.frames == nil)
    }

    @Test("a keyframe block's center runs in the frame loop's keyframed mode and ends on its last value")
    func trackMode() throws {
        let (scene, view, _) = try makeViewScene()
        scene.beginKeyframes(AnimationOptions(duration: 1, timing: .curve(.easeInOut)), completion: nil)
        scene.addKeyframe(start: 0, duration: 0.5) { scene.set(view, center: Point(x: 10, y: 20)) }
        scene.addKeyframe(start: 0.5, duration: 0.5) { scene.set(view, center: Point(x: 30, y: -5)) }
        scene.commitAnimations()
        let tracks = scene.clock.running.tracks
        #expect(tracks.count == 1 && tracks.first?.mode == .keyframed)
        let animation = try #require(view.animations[ViewProperty.center.rawValue])
        let path = try #require(animation.keyframes)
        scene.advance(by: 300_000_000)
        let p = animation.progress(atElapsed: scene.clock.now - animation.begin)
        #expect(Self.bits(path, p, count: 2) == Array(view.presentation.get(.center)).map(\.bitPattern))
        scene.advance(by: 800_000_000)
        #expect(view.presentation.center.x == 30 && view.presentation.center.y == -5 && scene.runningAnimationCount == 0)
    }
}
