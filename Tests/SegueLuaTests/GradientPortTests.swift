import Foundation
import SegueKit
import Testing

@testable import SegueLua

/// CEFold's `addShadowToView:reverse:` ported (Tests/Fixtures/ports/ce-fold.lua, VCTransitionsLibrary's
/// CEFoldAnimationController): every fold strip carries a gradient view with CEFold's colours and points, its alpha
/// animated with the fold, and the shadow's colour at a point is what CA's axial gradient gives there.
@Suite("Ports: CEFold's gradient shadow")
struct GradientPortTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures/ports/ce-fold.lua")

    @Test("each fold strip has CEFold's gradient: clear → black, left (0, 0.2) → (1, 0), right (1, 0) → (0, 1)")
    func foldShadows() throws {
        let source = try String(contentsOf: GradientPortTests.fixture, encoding: .utf8)
        let (scene, container, _, _, _) = try sceneWithPlugins(["ce-fold.lua": source])
        let t = try #require(try scene.select(container, index: 1, animator: "ce-fold").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        scene.advance(by: 500_000_000)
        let nodes = scene.tree(presentation: true).views.flatten().filter { $0.model.gradient != nil }
        // 2 folds × (left + right) × (from + to).
        #expect(nodes.count == 8)
        for node in nodes {
            let g = try #require(node.model.gradient)
            #expect(g.colors == [0, 0, 0, 0, 0, 0, 0, 1])
            let left = g.startPoint == Point(x: 0, y: 0.2) && g.endPoint == Point(x: 1, y: 0)
            let right = g.startPoint == Point(x: 1, y: 0) && g.endPoint == Point(x: 0, y: 1)
            #expect(left || right, "\(g.startPoint) \(g.endPoint)")
            // UIView.animate's ease-in-out is at 0.5 half-way: the shadows are half in (from) or half out (to).
            #expect(abs((node.presentation?.alpha ?? 0) - 0.5) < 1e-9)
        }
        #expect(nodes.filter { $0.model.gradient?.startPoint.y == 0.2 }.count == 4)

        // The math of a left strip (320 × 480 view, 2 folds: 80 × 480): the axis runs from (0, 96) to (80, 0) in
        // points, so the top right corner is opaque black, the strip's bottom left clear, and (40, 48) half way.
        let strip = Rect(x: 0, y: 0, w: 80, h: 480)
        let g = GradientValues(colors: [Color(r: 0, g: 0, b: 0, a: 0), Color(r: 0, g: 0, b: 0, a: 1)],
                               startPoint: Point(x: 0, y: 0.2), endPoint: Point(x: 1, y: 0))
        #expect(g.axialPosition(of: Point(x: 80, y: 0), in: strip) == 1)
        #expect(g.color(at: g.axialPosition(of: Point(x: 0, y: 480), in: strip)).a == 0)
        #expect(abs(g.axialPosition(of: Point(x: 40, y: 48), in: strip) - 0.5) < 1e-12)
        #expect(abs(g.color(at: g.axialPosition(of: Point(x: 40, y: 48), in: strip)).a - 0.5) < 1e-12)
        // The perpendicular through (40, 48) is one colour: (40 + 96k, 48 + 80k).
        #expect(abs(g.axialPosition(of: Point(x: 40 + 96 * 0.3, y: 48 + 80 * 0.3), in: strip) - 0.5) < 1e-12)

        scene.advance(by: 600_000_000)
        #expect(t.isEnded)
        #expect(scene.tree(presentation: false).views.flatten().allSatisfy { $0.model.gradient == nil })
    }
}
