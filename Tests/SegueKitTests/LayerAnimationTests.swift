import Foundation
import Testing

@testable import SegueKit

/// The view's presentation center x (what frame events show).
private func x(_ view: View) -> Double { view.presentation.center.x }

@Suite("Keyframe timing and calculation modes (UIView.animateKeyframes, CAKeyframeAnimation)")
struct KeyframeTimingTests {
    /// A 1 s keyframe block on `view` with `curve` and `mode`, `changes` inside it.
    func keyframes(_ scene: Scene, curve: CubicBezier, mode: CalculationMode, _ changes: () -> Void) {
        scene.beginKeyframes(AnimationOptions(duration: 1, timing: .curve(curve)), calculationMode: mode, completion: nil)
        changes()
        scene.commitAnimations()
    }

    @Test("the block's curve warps the block's time, keyframe start times included (not each segment)")
    func curveWarpsStartTimes() throws {
        let (scene, view, _) = try makeViewScene()
        keyframes(scene, curve: .easeIn, mode: .linear) {
            scene.addKeyframe(start: 0.5, duration: 0.5) { scene.set(view, alpha: 0) }
        }
        // ease_in(0.5) = 0.31536: the block's time has not reached the keyframe's start, so nothing moved yet (a
        // per-segment curve would have started it at 0.5 s).
        scene.advance(by: 500_000_000)
        #expect(view.presentation.alpha == 1)
        // ease_in(0.75) = 0.62186: 24.37 % into the keyframe's window.
        scene.advance(by: 250_000_000)
        #expect(abs(view.presentation.alpha - (1 - (0.62186186917489 - 0.5) / 0.5)) < 1e-6)
        #expect(view.model.alpha == 0)
    }

    @Test("ease-in-ease-out over the whole block: the half-way values of two keyframes")
    func easeInOutHalfWay() throws {
        let (scene, view, _) = try makeViewScene()
        keyframes(scene, curve: .easeInOut, mode: .linear) {
            scene.addKeyframe(start: 0, duration: 0.5) { scene.set(view, center: Point(x: 150, y: 50)) }
            scene.addKeyframe(start: 0.5, duration: 0.5) { scene.set(view, center: Point(x: 250, y: 50)) }
        }
        scene.advance(by: 250_000_000)  // ease_in_out(0.25) = 0.12916 of the block: 25.8 % of the first window
        #expect(abs(x(view) - (50 + 100 * 0.1291619310473198 / 0.5)) < 1e-4)  // the curve is solved to 1e-7 in x
        scene.advance(by: 250_000_000)  // half-way: the block's curve is symmetric, so exactly the first value
        #expect(abs(x(view) - 150) < 1e-9)
    }

    @Test("discrete: each value shows from its keyframe's start, no interpolation")
    func discrete() throws {
        let (scene, view, _) = try makeViewScene()
        keyframes(scene, curve: .linear, mode: .discrete) {
            scene.addKeyframe(start: 0.2, duration: 0.3) { scene.set(view, center: Point(x: 150, y: 50)) }
            scene.addKeyframe(start: 0.6, duration: 0.4) { scene.set(view, center: Point(x: 250, y: 50)) }
        }
        scene.advance(by: 100_000_000)
        #expect(x(view) == 50)
        scene.advance(by: 200_000_000)  // 0.3
        #expect(x(view) == 150)
        scene.advance(by: 250_000_000)  // 0.55
        #expect(x(view) == 150)
        scene.advance(by: 100_000_000)  // 0.65
        #expect(x(view) == 250)
    }

    @Test("paced: key times ignored, constant velocity along the values")
    func paced() throws {
        let (scene, view, _) = try makeViewScene()
        keyframes(scene, curve: .linear, mode: .paced) {
            scene.addKeyframe(start: 0, duration: 0.1) { scene.set(view, center: Point(x: 150, y: 50)) }
            scene.addKeyframe(start: 0.1, duration: 0.9) { scene.set(view, center: Point(x: 150, y: 150)) }
        }
        // Length 200 (100 right, 100 down): at 0.25, 50 along the first leg; at 0.75, 50 down the second.
        scene.advance(by: 250_000_000)
        #expect(abs(x(view) - 100) < 1e-9 && abs(view.presentation.center.y - 50) < 1e-9)
        scene.advance(by: 500_000_000)
        #expect(abs(x(view) - 150) < 1e-9 && abs(view.presentation.center.y - 100) < 1e-9)
    }

    @Test("cubic: a Catmull-Rom spline through the values at the keyframes' ends (tension, continuity, bias 0)")
    func cubic() throws {
        let (scene, view, _) = try makeViewScene()
        keyframes(scene, curve: .linear, mode: .cubic) {
            scene.addKeyframe(start: 0, duration: 0.5) { scene.set(view, center: Point(x: 150, y: 50)) }
            scene.addKeyframe(start: 0.5, duration: 0.5) { scene.set(view, center: Point(x: 50, y: 50)) }
        }
        // Points 50, 150, 50 at 0, 0.5, 1; tangents 50 (the end point repeated) and 0. At 0.25 (f = 0.5):
        // h00·50 + h10·50 + h01·150 + h11·0 = 0.5·50 + 0.125·50 + 0.5·150 = 106.25.
        scene.advance(by: 250_000_000)
        #expect(abs(x(view) - 106.25) < 1e-9)
        scene.advance(by: 250_000_000)
        #expect(abs(x(view) - 150) < 1e-9)
        scene.advance(by: 250_000_000)
        #expect(abs(x(view) - 106.25) < 1e-9)
    }

    @Test("cubic paced: the spline at constant velocity")
    func cubicPaced() throws {
        let (scene, view, _) = try makeViewScene()
        keyframes(scene, curve: .linear, mode: .cubicPaced) {
            scene.addKeyframe(start: 0, duration: 0.1) { scene.set(view, center: Point(x: 150, y: 50)) }
            scene.addKeyframe(start: 0.1, duration: 0.9) { scene.set(view, center: Point(x: 50, y: 50)) }
        }
        // 50 → 150 → 50 along x only: length 200; a quarter of it is x = 100, half of it the turn at 150.
        scene.advance(by: 250_000_000)
        #expect(abs(x(view) - 100) < 0.05)
        scene.advance(by: 250_000_000)
        #expect(abs(x(view) - 150) < 1e-9)
    }
}

@Suite("Explicit layer animations (CALayer.add(_:forKey:))")
struct LayerAnimationTests {
    func spec(_ keyPath: String, duration: Double = 1, _ fill: (inout LayerAnimationSpec) -> Void) -> LayerAnimationSpec {
        var s = LayerAnimationSpec(keyPath: keyPath, duration: duration)
        fill(&s)
        return s
    }

    @Test("the model value is not changed; the presentation shows the animation, then the model again")
    func modelUnchanged() throws {
        let (scene, view, _) = try makeViewScene()
        var finished: Bool?
        try scene.addAnimation(spec("opacity") { $0.from = [1]; $0.to = [0] }, forKey: "fade", to: view) { finished = $0 }
        scene.advance(by: 500_000_000)
        #expect(abs(view.presentation.alpha - 0.5) < 1e-9 && view.model.alpha == 1)
        #expect(scene.animationKeys(of: view) == ["fade"])
        scene.advance(by: 600_000_000)
        #expect(view.presentation.alpha == 1 && view.model.alpha == 1 && finished == true)
        #expect(scene.animationKeys(of: view).isEmpty)
    }

    @Test("fill modes: backwards shows the first value before begin_time; forwards + not removed keeps the last")
    func fillModes() throws {
        let (scene, view, _) = try makeViewScene()
        try scene.addAnimation(spec("position.x") {
            $0.from = [0]; $0.to = [200]; $0.beginTime = 0.5; $0.fillMode = .removed
        }, forKey: "plain", to: view)
        scene.advance(by: 100_000_000)
        #expect(x(view) == 50)  // before begin_time, fill removed: the model
        scene.removeAnimation(forKey: "plain", from: view)
        try scene.addAnimation(spec("position.x") {
            $0.from = [0]; $0.to = [200]; $0.beginTime = 0.5; $0.fillMode = .both; $0.removedOnCompletion = false
        }, forKey: "both", to: view)
        scene.advance(by: 100_000_000)
        #expect(x(view) == 0)  // before begin_time, fill backwards: the first value
        scene.advance(by: 1_000_000_000)  // 1.1 s after adding: 0.6 s in
        #expect(abs(x(view) - 120) < 1e-9)
        scene.advance(by: 1_000_000_000)  // over: the final value stays, the model is untouched
        #expect(x(view) == 200 && view.model.center.x == 50)
        #expect(scene.animationKeys(of: view) == ["both"])
        scene.set(view, center: Point(x: 60, y: 70))  // a new model value: the filled x stays over it
        #expect(x(view) == 200 && view.presentation.center.y == 70)
        scene.removeAnimation(forKey: "both", from: view)
        #expect(x(view) == 60)
        // forwards but removed on completion (the default): the model shows at the end.
        try scene.addAnimation(spec("position.x") { $0.to = [0]; $0.fillMode = .forwards }, forKey: "f", to: view)
        scene.advance(by: 1_100_000_000)
        #expect(x(view) == 60 && scene.animationKeys(of: view).isEmpty)
    }

    @Test("a key already on the view is replaced: the old animation's completion gets false")
    func replaceByKey() throws {
        let (scene, view, _) = try makeViewScene()
        var results: [String] = []
        try scene.addAnimation(spec("opacity") { $0.to = [0] }, forKey: "k", to: view) { results.append("first \($0)") }
        scene.advance(by: 300_000_000)
        try scene.addAnimation(spec("cornerRadius") { $0.to = [20] }, forKey: "k", to: view) { results.append("second \($0)") }
        scene.advance(by: 10_000_000)
        #expect(results == ["first false"])
        #expect(view.presentation.alpha == 1)  // the opacity animation is gone
        #expect(scene.animationKeys(of: view) == ["k"])
        scene.advance(by: 500_000_000)
        #expect(abs(view.presentation.cornerRadius - 20 * 0.51) < 1e-9)  // 0.51 s into 1 s
        scene.advance(by: 500_000_000)
        #expect(results == ["first false", "second true"])
    }

    @Test("remove_animation stops it (completion false) and the view shows its model value")
    func remove() throws {
        let (scene, view, _) = try makeViewScene()
        var finished: Bool?
        try scene.addAnimation(spec("bounds.size.width") { $0.by = [100] }, forKey: "w", to: view) { finished = $0 }
        scene.advance(by: 500_000_000)
        #expect(abs(view.presentation.bounds.w - 150) < 1e-9 && view.model.bounds.w == 100)
        #expect(scene.removeAnimation(forKey: "w", from: view))
        #expect(!scene.removeAnimation(forKey: "w", from: view))
        #expect(view.presentation.bounds.w == 100)
        scene.advance(by: 10_000_000)
        #expect(finished == false)
    }

    @Test("repeat_count and autoreverses; an autoreversed animation ends at its start value")
    func repeatAutoreverse() throws {
        let (scene, view, _) = try makeViewScene()
        try scene.addAnimation(spec("position.y") {
            $0.from = [0]; $0.to = [100]; $0.repeatCount = 2; $0.autoreverses = true
            $0.fillMode = .forwards; $0.removedOnCompletion = false
        }, forKey: "bob", to: view)
        scene.advance(by: 250_000_000)
        #expect(abs(view.presentation.center.y - 25) < 1e-9)
        scene.advance(by: 1_000_000_000)  // 1.25: coming back
        #expect(abs(view.presentation.center.y - 75) < 1e-9)
        scene.advance(by: 1_000_000_000)  // 2.25: second cycle, going out
        #expect(abs(view.presentation.center.y - 25) < 1e-9)
        scene.advance(by: 2_000_000_000)
        #expect(view.presentation.center.y == 0)
    }

    @Test("values, key_times and a timing function per segment; the transform's rotation field over its scale")
    func keyframeAnimation() throws {
        let (scene, view, _) = try makeViewScene()
        try scene.addAnimation(spec("position.x") {
            $0.values = [[0], [100], [50]]; $0.keyTimes = [0, 0.25, 1]
            $0.timingFunctions = [.linear, .easeIn]
        }, forKey: "kf", to: view)
        scene.advance(by: 125_000_000)
        #expect(abs(x(view) - 50) < 1e-9)
        scene.advance(by: 500_000_000)  // 0.625: half of the second segment, ease_in(0.5) = 0.31536
        #expect(abs(x(view) - (100 - 50 * 0.31535681257253945)) < 1e-6)
        scene.removeAnimation(forKey: "kf", from: view)
        scene.set(view, transform: Transform3D(a: 2, b: 0, c: 0, d: 2, tx: 0, ty: 0))
        try scene.addAnimation(spec("transform.rotation.z") { $0.from = [0]; $0.to = [Double.pi] }, forKey: "r", to: view)
        scene.advance(by: 500_000_000)
        let t = view.presentation.transform.affine
        #expect(abs(t.a) < 1e-9 && abs(t.b - 2) < 1e-9 && abs(t.c + 2) < 1e-9 && abs(t.d) < 1e-9)
    }

    @Test("spring: runs for its duration (CASpringAnimation), the progress of the physical spring")
    func spring() throws {
        let (scene, view, _) = try makeViewScene()
        var finished: Bool?
        try scene.addAnimation(spec("position.x", duration: 0.5) {
            $0.from = [0]; $0.to = [100]; $0.spring = (mass: 1, stiffness: 100, damping: 5, velocity: 0)
        }, forKey: "s", to: view) { finished = $0 }
        let physical = try #require(Spring.physical(mass: 1, stiffness: 100, damping: 5, velocity: 0))
        #expect(physical.duration > 0.5)  // the spring has not settled when the animation ends
        scene.advance(by: 300_000_000)
        #expect(abs(x(view) - 100 * physical.spring.progress(at: 0.3)) < 1e-9)
        #expect(x(view) > 100)  // overshooting, raw in the presentation
        scene.advance(by: 250_000_000)
        #expect(finished == true && x(view) == 50)
    }

    @Test("explicit animations of an interactive transition are scrubbed, finished and cancelled with it")
    func interactive() throws {
        for cancel in [false, true] {
            let recorder = EventRecorder()
            let (scene, vc) = try makeVCs(["a", "b"], recorder: recorder)
            let a = try #require(vc["a"]), b = try #require(vc["b"])
            let provider = scene.use(["explicit": { ExplicitAnimator() }])
            _ = provider
            let c = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
            try scene.setRoot(c)
            let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "explicit").transition)
            try scene.updateTransition(t, percent: 0.25)
            #expect(abs(b.view.presentation.alpha - 0.25) < 1e-9 && b.view.model.alpha == 1)
            try scene.updateTransition(t, percent: 0.6)
            #expect(abs(b.view.presentation.alpha - 0.6) < 1e-9)
            try scene.endInteraction(t, cancel: cancel, speed: 1, curve: .linear)
            scene.advance(by: 200_000_000)
            #expect(abs(b.view.presentation.alpha - (cancel ? 0.4 : 0.8)) < 1e-6)
            scene.advance(by: 1_000_000_000)
            #expect(t.state == (cancel ? .cancelled : .completed))
            #expect(scene.animationKeys(of: b.view).isEmpty && b.view.presentation.alpha == 1)
        }
    }

    @Test("bad input: each refused with the field and value named, nothing added")
    func badInput() throws {
        let (scene, view, _) = try makeViewScene()
        let cases: [(LayerAnimationSpec, String)] = [
            (spec("opacty") { $0.to = [0] }, "key_path 'opacty' is no animatable key path (did you mean 'opacity'?)"),
            (spec("opacity", duration: -1) { $0.to = [0] }, "duration must be a number ≥ 0, got -1"),
            (spec("opacity", duration: .nan) { $0.to = [0] }, "duration must be a number ≥ 0, got nan"),
            (spec("opacity") { $0.to = [.infinity] }, "to must be finite, got inf"),
            (spec("opacity") { $0.values = [[0], [.nan]] }, "values[2] must be finite, got nan"),
            (spec("opacity") { $0.values = Array(repeating: [0], count: 1001) }, "values has 1001 entries, more than 1000"),
            (spec("opacity") { $0.values = [[0], [1]]; $0.keyTimes = Array(repeating: 0, count: 1001) },
             "key_times has 1001 entries, more than 1000"),
            (spec("opacity") { $0.values = [[0], [1]]; $0.keyTimes = [0] }, "key_times has 1 entries but values has 2"),
            (spec("opacity") { $0.values = [[0], [1], [0]]; $0.keyTimes = [0, 0.6, 0.5] },
             "key_times must not decrease: key_times[3] = 0.5 after 0.6"),
            (spec("opacity") { $0.values = [[0], [1]]; $0.keyTimes = [0, .nan] }, "key_times[2] must be in 0…1, got nan"),
            (spec("opacity") { $0.beginTime = -1; $0.to = [0] }, "begin_time must be a number ≥ 0, got -1"),
            (spec("opacity") { $0.repeatCount = .infinity; $0.to = [0] }, "repeat_count must be a number in 0…1e6, got inf"),
            (spec("opacity") { _ in }, "give from, to, by or values"),
            (spec("position") { $0.to = [1] }, "to must have 2 numbers for 'position', got 1"),
            (spec("opacity") { $0.to = [0]; $0.spring = (mass: 0, stiffness: 1, damping: 1, velocity: 0) },
             "spring: mass, stiffness and damping must be positive finite numbers"),
        ]
        for (bad, message) in cases {
            #expect(throws: LayerAnimationError.self) { try scene.addAnimation(bad, forKey: "bad", to: view) }
            do {
                try scene.addAnimation(bad, forKey: "bad", to: view)
            } catch {
                #expect(error.message.hasPrefix(message), "\(error.message)")
            }
            #expect(scene.animationKeys(of: view).isEmpty)
        }
        scene.advance(by: 100_000_000)
        #expect(view.presentation.alpha == 1)
    }
}

/// An animator whose to-view fades in by an explicit animation (the model alpha stays 1), over the transition's
/// 1 s, linear; completes with `!transitionWasCancelled`.
final class ExplicitAnimator: Animator {
    let name = "explicit"
    func transitionDuration(using context: TransitionContext) -> Double { 1 }
    func animateTransition(using context: TransitionContext) {
        let scene = context.scene
        let to = context.toViewController.view
        scene.addSubview(to, to: context.containerView)
        scene.set(to, frame: context.containerView.model.bounds)
        var spec = LayerAnimationSpec(keyPath: "opacity", duration: 1)
        spec.from = [0]
        spec.to = [1]
        try? scene.addAnimation(spec, forKey: "fade-in", to: to) { _ in
            context.completeTransition(!context.transitionWasCancelled)
        }
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}
