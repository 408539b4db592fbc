import SegueKit
import Testing

@testable import SegueRender

/// Alpha under a spring: the model value stays in 0…1, the presentation value is what the spring computes (it may
/// overshoot), and drawing clamps it.
@Suite("Render: alpha under a spring")
struct AlphaClampTests {
    @Test("the model alpha is clamped to 0…1 when set")
    func modelClamped() throws {
        let (scene, _, a, _) = try makeScene()
        scene.set(a.view, alpha: 1.5)
        #expect(a.view.model.alpha == 1)
        scene.set(a.view, alpha: -0.25)
        #expect(a.view.model.alpha == 0)
        scene.set(a.view, alpha: .nan)
        #expect(a.view.model.alpha == 1)
    }

    @Test("default-slide's spring (damping 0.75) takes presentation alpha past 1 and below 0; the drawing clamps it")
    func overshootDrawnClamped() throws {
        let (scene, container, a, b) = try makeScene()
        let t = try #require(try scene.select(container, index: 1).transition)
        var highest = 0.0, lowest = 1.0
        while !t.isEnded {
            scene.advance(by: 1_000_000_000 / 60)
            highest = max(highest, b.view.presentation.alpha)
            lowest = min(lowest, a.view.presentation.alpha)
            #expect((0...1).contains(a.view.model.alpha) && (0...1).contains(b.view.model.alpha))
        }
        #expect(highest > 1.01 && lowest < -0.01, "highest \(highest), lowest \(lowest)")
        let root = try parseXML(Filmstrip(RenderSource(transition: t, scene: scene), frames: 61).svg)
        let opacities = root.all { $0.attributes["class"] == "view" }.compactMap { $0.double("opacity") }
        #expect(!opacities.isEmpty)
        #expect(opacities.allSatisfy { (0...1).contains($0) })
    }
}
