import Foundation
import SegueKit
import Testing

@testable import SegueRender

/// The layer's look in pictures (issue 26, item 8): shadows are blurred shapes under the view, borders strokes
/// over its subviews, clips_to_bounds a clip path around its subviews; a scene that uses none draws as before.
@Suite("Render: borders, shadows, clips")
struct LayerLookDrawingTests {
    func filmstrip(_ configure: (Scene, View) -> Void) throws -> (String, Element) {
        let (scene, container, _, b) = try makeScene()
        configure(scene, b.view)
        let t = try #require(try scene.select(container, index: 1).transition)
        while !t.isEnded { scene.advance(by: 1_000_000_000 / 60) }
        let svg = Filmstrip(RenderSource(transition: t, scene: scene), frames: 3).svg
        return (svg, try parseXML(svg))
    }

    @Test("a view at the defaults draws no filter, no border and no clip")
    func defaultsDrawNothing() throws {
        let (svg, _) = try filmstrip { _, _ in }
        #expect(!svg.contains("<filter") && !svg.contains("class=\"border\"") && !svg.contains("clipPath"))
    }

    @Test("a shadow is a blurred copy of the shape with σ = radius / 2, offset and coloured; ids unique")
    func shadow() throws {
        let (svg, root) = try filmstrip { scene, view in
            scene.set(view, .shadowOpacity, [0.5])
            scene.set(view, .shadowRadius, [8])
            scene.set(view, .shadowOffset, [3, 5])
            scene.set(view, .shadowColor, [1, 0, 0, 1])
        }
        let blurs = root.all(named: "feGaussianBlur")
        #expect(!blurs.isEmpty)
        #expect(blurs.allSatisfy { $0.double("stdDeviation") == 4 })
        let filters = root.all(named: "filter").compactMap { $0.attributes["id"] }
        #expect(Set(filters).count == filters.count)
        let shadowed = root.all { $0.attributes["filter"] != nil }
        #expect(shadowed.allSatisfy { $0.attributes["fill"] == "#ff0000" && $0.double("fill-opacity") == 0.5 })
        #expect(svg.contains("filter=\"url(#f3-"))
    }

    @Test("a border is a stroke inset by half its width; clips_to_bounds wraps the subviews in a clip path and hides the shadow")
    func borderAndClip() throws {
        let (_, root) = try filmstrip { scene, view in
            scene.set(view, .borderWidth, [4])
            scene.set(view, .borderColor, [0, 0, 1, 1])
            scene.set(view, .clipsToBounds, [1])
            scene.set(view, .shadowOpacity, [1])
            let sub = try? scene.makeView(id: "inner", frame: Rect(x: -20, y: -20, w: 60, h: 60))
            if let sub { scene.addSubview(sub, to: view) }
        }
        let borders = root.all { $0.attributes["class"] == "border" }
        #expect(!borders.isEmpty)
        #expect(borders.allSatisfy { $0.attributes["stroke"] == "#0000ff" && $0.double("stroke-width") == 4 })
        #expect(borders.allSatisfy { $0.double("x") == 2 && $0.double("y") == 2 })
        #expect(!root.all(named: "clipPath").isEmpty)
        #expect(!root.all { $0.attributes["clip-path"] != nil }.isEmpty)
        #expect(root.all(named: "filter").isEmpty)
    }

    @Test("the picture rasterises: the border shows in its colour (rsvg-convert)")
    func rasterised() throws {
        guard rsvgConvert() != nil else { return }
        let (svg, _) = try filmstrip { scene, view in
            scene.set(view, .borderWidth, [12])
            scene.set(view, .borderColor, [1, 0, 0, 1])
            scene.set(view, .shadowOpacity, [0.6])
            scene.set(view, .shadowRadius, [10])
        }
        let png = try rasterize(svg)
        #expect(png.count > 100)
    }
}
