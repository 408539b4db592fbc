import SegueKit
import Testing

@testable import SegueLua

@Suite("segue.animate with both spring and curve")
struct SpringCurveTests {
    @Test("the spring wins and a plugin.warning names the ignored curve", arguments: [
        ("'ease_in'", "curve 'ease_in' is ignored"),
        ("{ 0.2, 0, 0.5, 1 }", "curve {0.2, 0, 0.5, 1} is ignored"),
    ])
    func springWins(curve: String, expected: String) throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "both.lua": animatorSource(duration: "0.5", animate: """
                ctx.container:add(to)
                to.alpha = 0
                segue.animate({ duration = 0.5, curve = \(curve), spring = { damping = 0.3, velocity = 0 } },
                  function() to.alpha = 1 end, function() ctx:complete(not ctx.cancelled) end)
                """),
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "both").transition)
        let warnings = recorder.messages("plugin.warning")
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("the spring wins and \(expected)") == true, "\(warnings)")
        // An underdamped spring overshoots; no curve would.
        var highest = 0.0
        while !t.isEnded {
            scene.advance(by: 1_000_000_000 / 60)
            highest = max(highest, b.view.presentation.alpha)
        }
        #expect(highest > 1.1)
    }

    @Test("a spring alone, or a curve alone, warns of nothing")
    func noWarningAlone() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "alone.lua": animatorSource(duration: "0.2", animate: """
                ctx.container:add(to)
                segue.animate({ duration = 0.2, spring = { damping = 1 } }, function() to.alpha = 1 end)
                segue.animate({ duration = 0.2, curve = 'linear' }, function() to.center = to.center end,
                  function() ctx:complete(true) end)
                """),
        ])
        _ = try scene.select(container, index: 1, animator: "alone")
        scene.advance(by: 500_000_000)
        #expect(recorder.types("plugin.warning").isEmpty)
    }

    @Test("a damping ratio over 1 is clamped to 1 with a plugin.warning, as UIKit's ratio form (Framer's converter)")
    func overdampedRatioClamped() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "over.lua": animatorSource(duration: "0.5", animate: """
                ctx.container:add(to)
                to.alpha = 0
                segue.animate({ duration = 0.5, spring = { damping = 4, velocity = 0 } },
                  function() to.alpha = 1 end, function() ctx:complete(not ctx.cancelled) end)
                """),
        ])
        _ = try scene.select(container, index: 1, animator: "over")
        let warnings = recorder.messages("plugin.warning")
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("spring.damping 4.0 is over 1") == true, "\(warnings)")
        #expect(warnings.first?.contains("clamped to 1") == true)
        scene.advance(by: 100_000_000)
        let critical = try #require(Spring(dampingRatio: 1, initialVelocity: 0, duration: 0.5))
        #expect(abs(b.view.presentation.alpha - critical.progress(at: 0.1)) < 1e-9)
    }

    @Test("spring = \"system\" runs UIKit's system curve for 0.5 s; another duration or name is a plugin.warning")
    func systemSpring() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "system.lua": animatorSource(duration: "0.5", animate: """
                ctx.container:add(to)
                to.alpha = 0
                segue.animate({ duration = 0.5, spring = "system" }, function() to.alpha = 1 end,
                  function() ctx:complete(not ctx.cancelled) end)
                """),
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "system").transition)
        #expect(recorder.types("plugin.warning").isEmpty)
        scene.advance(by: 100_000_000)
        #expect(abs(b.view.presentation.alpha - Spring.system.progress(at: 0.1)) < 1e-9)
        scene.advance(by: 400_000_000)
        #expect(b.view.presentation.alpha == 1)
        #expect(t.isEnded)
    }

    @Test("spring = \"system\" ignores a duration other than 0.5 s, and an unknown spring name, each with a warning",
          arguments: [
            ("duration = 2, spring = \"system\"", "duration 2.0 is ignored"),
            ("duration = 0.5, spring = \"sytem\"", "unknown spring 'sytem' — did you mean 'system'?"),
          ])
    func systemSpringWarnings(options: String, expected: String) throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "warned.lua": animatorSource(duration: "0.5", animate: """
                ctx.container:add(to)
                segue.animate({ \(options) }, function() to.alpha = 1 end,
                  function() ctx:complete(not ctx.cancelled) end)
                """),
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "warned").transition)
        let warnings = recorder.messages("plugin.warning")
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains(expected) == true, "\(warnings)")
        scene.advance(by: 500_000_000)
        #expect(t.isEnded)
    }
}
