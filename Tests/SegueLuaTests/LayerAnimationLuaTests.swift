import Foundation
import SegueKit
import Testing

@testable import SegueLua

@Suite("view:add_animation, remove_animation, animation_keys; segue.keyframes' calculation_mode (Lua)")
struct LayerAnimationLuaTests {
    /// A plugin whose animator runs `body` (with `to`, the to-view, on screen) and completes at once.
    func run(_ body: String) throws -> (Scene, ViewController, Recorder) {
        let (scene, container, _, b, recorder) = try sceneWithPlugins(["p.lua": """
            return segue.animator {
              duration = function(ctx) return 1 end,
              animate = function(ctx)
                local to = ctx:view("to")
                ctx.container:add(to)
                to.frame = ctx:final_frame("to")
                \(body)
                ctx:complete(true)
              end,
            }
            """])
        _ = try scene.select(container, index: 1, animator: "p")
        return (scene, b, recorder)
    }

    @Test("an explicit animation shows over the model value, listed by key, removable")
    func addListRemove() throws {
        let (scene, b, recorder) = try run("""
            to:add_animation("fade", { key_path = "opacity", from = 1, to = 0, duration = 1 })
            to:add_animation("move", { key_path = "position", values = { {x = 0, y = 0}, {x = 100, y = 100} },
              key_times = {0, 1}, timing_functions = "linear", calculation_mode = "linear", duration = 2,
              fill_mode = "forwards", removed_on_completion = false })
            segue.log(table.concat(to:animation_keys(), ","))
            segue.log(to.alpha)
            segue.log(string.format("%.4f", segue.settling_duration({ mass = 1, stiffness = 100, damping = 10 })))
            """)
        #expect(recorder.messages("log") == ["fade,move", "1.0", "1.3816"])
        scene.advance(by: 500_000_000)
        #expect(abs(b.view.presentation.alpha - 0.5) < 1e-9 && b.view.model.alpha == 1)
        #expect(abs(b.view.presentation.center.x - 25) < 1e-9)
        scene.advance(by: 2_000_000_000)
        #expect(b.view.presentation.alpha == 1 && b.view.presentation.center.x == 100)
        #expect(scene.animationKeys(of: b.view) == ["move"])
        #expect(scene.removeAnimation(forKey: "move", from: b.view))
        #expect(b.view.presentation.center.x == b.view.model.center.x)
    }

    @Test("bad specs raise naming the field and value; nothing is added")
    func badSpecs() throws {
        let bad = [
            "{ key_path = 'opacty', to = 0, duration = 1 }",
            "{ key_path = 'opacity', to = 0, duration = -1 }",
            "{ key_path = 'opacity', to = 0/0, duration = 1 }",
            "{ key_path = 'opacity', values = {0, 1}, key_times = {0}, duration = 1 }",
            "{ key_path = 'opacity', values = {0, 1, 0}, key_times = {0, 0.7, 0.5}, duration = 1 }",
            "{ key_path = 'opacity', values = big, duration = 1 }",
            "{ key_path = 'opacity', to = 0, duraton = 1 }",
            "{ key_path = 'opacity', to = 0, duration = 1, fill_mode = 'forward' }",
            "{ key_path = 'opacity', to = 0, duration = 1, timing_functions = 'eas_in' }",
            "{ key_path = 'position', to = 3, duration = 1 }",
            "{ key_path = 'opacity', values = {0, 1}, calculation_mode = 'spline', duration = 1 }",
        ]
        let body = "local big = {} for i = 1, 1001 do big[i] = 0 end\n" + bad.map {
            "do local ok, e = pcall(to.add_animation, to, 'k', \($0)) segue.log(e) end"
        }.joined(separator: "\n") + "\nsegue.log(#to:animation_keys())"
        let (_, _, recorder) = try run(body)
        let logs = recorder.messages("log")
        let expected = [
            "key_path 'opacty' is no animatable key path (did you mean 'opacity'?)",
            "duration must be a number ≥ 0, got -1",
            "to must be finite, got nan",
            "key_times has 1 entries but values has 2",
            "key_times must not decrease: key_times[3] = 0.5 after 0.7",
            "values has 1001 entries, more than 1000",
            "spec has no field 'duraton' (did you mean 'duration'?)",
            "fill_mode must be one of removed, forwards, backwards, both, got 'forward'",
            "timing_functions: unknown curve 'eas_in' (did you mean 'ease_in'?)",
            "to must be a pair {x, y} or {w, h}, got 3",
            "calculation_mode must be one of linear, discrete, paced, cubic, cubic_paced, got 'spline'",
        ]
        #expect(logs.count == expected.count + 1)
        for (log, message) in zip(logs, expected) {
            #expect(log.contains("view:add_animation('k'): " + message), "\(log)")
        }
        #expect(logs.last == "0")
    }

    @Test("segue.keyframes: calculation_mode is read; an unknown one raises")
    func calculationMode() throws {
        let (scene, b, recorder) = try run("""
            to.alpha = 1
            segue.keyframes({ duration = 1, curve = "linear", calculation_mode = "discrete" }, function(add)
              add(0.5, 0.5, function() to.alpha = 0 end)
            end)
            segue.log(select(2, pcall(segue.keyframes, { duration = 1, calculation_mode = "cubicpaced" }, function() end)))
            """)
        #expect(recorder.messages("log").first?.contains("calculation_mode must be one of linear, discrete, paced, cubic, cubic_paced, got 'cubicpaced'") == true)
        scene.advance(by: 400_000_000)
        #expect(b.view.presentation.alpha == 1)
        scene.advance(by: 200_000_000)
        #expect(b.view.presentation.alpha == 0)
    }
}
