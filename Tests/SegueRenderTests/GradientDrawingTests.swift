import Foundation
import SegueKit
import Testing

@testable import SegueRender

/// Gradient views in pictures (issue 26 items 4 and 8): an axial gradient is a `linearGradient` between CA's points
/// in bounds coordinates, a radial one a `radialGradient` stretched into CA's ellipse, a conic one slices whose
/// colour error is bounded; an animated gradient is drawn at each frame's values; a plain view draws no paint.
@Suite("Render: gradient views")
struct GradientDrawingTests {
    func filmstrip(_ gradient: GradientValues, animate: ((Scene, View, Double) -> Void)? = nil) throws -> (String, Element) {
        let (scene, container, _, b) = try makeScene()
        let view = try scene.makeGradientView(id: "grad", frame: Rect(x: 10, y: 20, w: 100, h: 200), gradient: gradient)
        scene.addSubview(view, to: b.view)
        let t = try #require(try scene.select(container, index: 1).transition)
        var step = 0
        while !t.isEnded {
            scene.advance(by: 1_000_000_000 / 60)
            step += 1
            // A write outside a block is a new full sample of the transition's timeline.
            if let animate, step % 4 == 0 { animate(scene, view, Double(min(step, 40)) / 40) }
        }
        let svg = Filmstrip(RenderSource(transition: t, scene: scene), frames: 3).svg
        return (svg, try parseXML(svg))
    }

    @Test("a scene without gradient views draws no gradient paint")
    func plainDrawsNone() throws {
        let (scene, container, _, _) = try makeScene()
        let t = try #require(try scene.select(container, index: 1).transition)
        while !t.isEnded { scene.advance(by: 1_000_000_000 / 60) }
        let svg = Filmstrip(RenderSource(transition: t, scene: scene), frames: 3).svg
        #expect(!svg.contains("Gradient"))
    }

    @Test("axial: a linearGradient from start to end point in bounds coordinates, stops at the locations")
    func axial() throws {
        let g = GradientValues(colors: [Color(r: 1, g: 0, b: 0), Color(r: 0, g: 0, b: 1)], locations: [0.25, 0.75],
                               startPoint: Point(x: 0, y: 0.5), endPoint: Point(x: 1, y: 0.5))
        let (_, root) = try filmstrip(g)
        let paints = root.all(named: "linearGradient")
        #expect(!paints.isEmpty)
        for paint in paints {
            #expect(paint.attributes["gradientUnits"] == "userSpaceOnUse")
            #expect(paint.double("x1") == 0 && paint.double("y1") == 100 && paint.double("x2") == 100 && paint.double("y2") == 100)
            let stops = paint.all(named: "stop")
            #expect(stops.map { $0.double("offset") } == [0.25, 0.75])
            #expect(stops.map { $0.attributes["stop-color"] } == ["#ff0000", "#0000ff"])
        }
        let ids = paints.compactMap { $0.attributes["id"] }
        #expect(Set(ids).count == ids.count)
        #expect(!root.all { ($0.attributes["fill"] ?? "").hasPrefix("url(#") }.isEmpty)
    }

    @Test("radial: CA's ellipse centred at the start point with semi-axes |end − start| × bounds")
    func radial() throws {
        let g = GradientValues(type: .radial, colors: [Color(r: 1, g: 1, b: 1), Color(r: 0, g: 0, b: 0)],
                               startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 1))
        let (_, root) = try filmstrip(g)
        let paint = try #require(root.all(named: "radialGradient").first)
        #expect(paint.attributes["gradientTransform"] == "matrix(50 0 0 100 50 100)")
        #expect(paint.double("r") == 1)
    }

    @Test("conic: 256 slices from the start point's angle towards the end point, each within half a slice's colour")
    func conic() throws {
        let g = GradientValues(type: .conic, colors: [Color(r: 0, g: 0, b: 0), Color(r: 1, g: 1, b: 1)],
                               startPoint: Point(x: 0.5, y: 0.5), endPoint: Point(x: 1, y: 0.5))
        let drawn = GradientDrawing.conic(g, Rect(x: 0, y: 0, w: 100, h: 200), 0, .translation(0, 0), id: "c")
        let root = try parseXML("<svg xmlns=\"http://www.w3.org/2000/svg\">" + drawn + "</svg>")
        let slices = root.all(named: "path")
        #expect(slices.count == GradientDrawing.conicWedges)
        // The first slice starts at angle 0 (towards +x from the centre at (50, 100)) and is nearly black; grey
        // levels rise clockwise; every slice is the gradient at its middle angle, off by at most 1 / (2 · 256).
        #expect(slices.first?.attributes["d"]?.hasPrefix("M50 100L") == true)
        for (k, slice) in slices.enumerated() {
            let hex = try #require(slice.attributes["fill"])
            let level = Double(Int(hex.dropFirst().prefix(2), radix: 16) ?? -1) / 255
            let exact = (Double(k) + 0.5) / Double(GradientDrawing.conicWedges)
            #expect(abs(level - exact) <= 0.5 / 255 + 1.0 / 512, "slice \(k): \(level) vs \(exact)")
        }
        #expect(!root.all(named: "clipPath").isEmpty)
    }

    @Test("a gradient that changes is drawn at each frame's values (the timeline samples the gradient)")
    func animated() throws {
        let g = GradientValues(colors: [Color(r: 0, g: 0, b: 0), Color(r: 0, g: 0, b: 0)])
        let (_, root) = try filmstrip(g) { scene, view, level in
            scene.set(view, .colors, [level, level, level, 1, level, level, level, 1])
        }
        let colours = Set(root.all(named: "stop").compactMap { $0.attributes["stop-color"] })
        #expect(colours.contains("#000000"))
        #expect(colours.count >= 3, "\(colours)")
    }

    @Test("stops whose alphas differ get intermediate stops computed per component (unpremultiplied)")
    func alphaSteps() {
        let g = GradientValues(colors: [Color(r: 1, g: 0, b: 0, a: 1), Color(r: 0, g: 0, b: 1, a: 0)])
        let stops = GradientDrawing.drawnStops(g)
        #expect(stops.count == GradientDrawing.alphaSteps + 1)
        #expect(abs(stops[4].color.r - 0.5) < 1e-12 && abs(stops[4].color.a - 0.5) < 1e-12)
    }
}
