import Foundation
import SegueKit
import Testing

@testable import SegueRender

@Suite("Render: filmstrips")
struct FilmstripTests {
    @Test("a filmstrip is XML that rsvg-convert draws, with the requested frames evenly spaced from start to end")
    func parsesAndDraws() throws {
        let (scene, container, _, _) = try makeScene()
        let t = try #require(try scene.select(container, index: 1).transition)
        scene.advance(by: 1_200_000_000)
        #expect(t.isEnded)
        let strip = Filmstrip(RenderSource(transition: t, scene: scene), frames: 5)
        let root = try parseXML(strip.svg)
        #expect(root.name == "svg")
        let frames = root.all(named: "g", class: "frame")
        #expect(frames.count == 5)
        let times = frames.compactMap { $0.double("data-time") }
        let span = Double(try #require(t.endedAt) - t.startedAt) / 1e9
        #expect(times.count == 5)
        for (i, time) in times.enumerated() { #expect(abs(time - span * Double(i) / 4) < 1e-3) }
        // The time is written under each frame.
        #expect(frames.first?.all(named: "text", class: "time").first?.text == "0 s")
        let png = try rasterize(strip.svg)
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))  // a PNG came out
    }

    @Test("the default slide's frames: the from-view leaves to the left as the to-view comes in from the right")
    func slideFrames() throws {
        let (scene, container, _, _) = try makeScene()
        let t = try #require(try scene.select(container, index: 1).transition)
        scene.advance(by: 1_200_000_000)
        let root = try parseXML(Filmstrip(RenderSource(transition: t, scene: scene), frames: 5).svg)
        let middle = try #require(root.all(named: "g", class: "frame").dropFirst().first)  // at a quarter
        let a = try #require(middle.all { $0.attributes["data-view"] == "a.view" }.first)
        let b = try #require(middle.all { $0.attributes["data-view"] == "b.view" }.first)
        let aRect = try #require(a.children.first { $0.name == "rect" })
        let bRect = try #require(b.children.first { $0.name == "rect" })
        #expect(aRect.attributes["fill"] == "#ff0000" && bRect.attributes["fill"] == "#0000ff")
        func tx(_ e: Element) -> Double {
            let text = e.attributes["transform"] ?? "translate(0 0)"
            return Double(text.dropFirst("translate(".count).split(separator: " ").first ?? "0") ?? 0
        }
        // A quarter into the 1 s spring: a has moved left, b is on its way in from the right.
        #expect(tx(aRect) < -50 && tx(bRect) > 10 && tx(bRect) < 326, "\(aRect.attributes) \(bRect.attributes)")
        // Both fade: strictly between 0 and 1.
        let aAlpha = try #require(a.double("opacity")), bAlpha = try #require(b.double("opacity"))
        #expect(aAlpha > 0 && aAlpha < 1 && bAlpha > 0 && bAlpha < 1)
    }

    @Test("a running transition is drawn to its declared end: frames up to now as recorded, later ones predicted")
    func runningTransition() throws {
        let (scene, container, _, b) = try makeScene()
        let t = try #require(try scene.select(container, index: 1).transition)
        scene.advance(by: 300_000_000)
        let presentAlpha = b.view.presentation.alpha
        #expect(!t.isEnded)
        let source = RenderSource(transition: t, scene: scene)
        #expect(source.end == t.startedAt + 1_000_000_000)
        // The timeline rebuilds the instant the scene is at from the running animations.
        let now = try #require(t.timeline.sample(at: scene.now)?.views.first { $0.id == "b.view" })
        #expect(abs(now.values.alpha - presentAlpha) < 1e-9)
        let root = try parseXML(Filmstrip(source, frames: 11).svg)
        let frames = root.all(named: "g", class: "frame")
        #expect(frames.map { $0.attributes["data-ahead"] == "true" } == [false, false, false, false] + Array(repeating: true, count: 7))
        // The fourth frame (0.3 s) is now: b's opacity there is what the scene shows.
        let fourth = try #require(frames[3].all { $0.attributes["data-view"] == "b.view" }.first?.double("opacity"))
        #expect(abs(fourth - presentAlpha) < 1e-3)
        #expect(root.all { $0.name == "text" && $0.text.contains("(ahead)") }.count == 7)
    }

    @Test("3-D: a view turned about the vertical axis with perspective is drawn as a projected quadrilateral")
    func flipProjection() throws {
        var values = ViewValues(frame: Rect(x: 0, y: 0, w: 320, h: 480), color: Color(r: 1, g: 0, b: 0))
        let turn = Transform3D.concat(Transform3D.rotation(Double.pi / 4, 0, 1, 0), .perspective(500))
        values.transform = turn
        let projection = Projection.view(values)
        #expect(projection.affine == nil)
        let shape = SceneDrawing.shape(values, projection)
        #expect(shape.hasPrefix("<path d=\"M"))
        let points = pathPoints(String(shape.split(separator: "\"")[1]))
        #expect(points.count == 4)
        // The left edge and the right edge have different heights (one is nearer the eye) and the width shrank.
        let left = abs(points[3].y - points[0].y), right = abs(points[2].y - points[1].y)
        #expect(abs(left - right) > 20, "\(points)")
        #expect(abs(points[1].x - points[0].x) < 300)
        // The same corners as the engine's own projection: about the centre (160, 240).
        let corner = turn.apply(Point(x: -160, y: -240))
        #expect(abs(points[0].x - (corner.x + 160)) < 0.01 && abs(points[0].y - (corner.y + 240)) < 0.01)
    }

    @Test("2-D transforms, corner radius and translucent colors become rect attributes")
    func affineShape() throws {
        var values = ViewValues(frame: Rect(x: 10, y: 20, w: 100, h: 50), color: Color(r: 0, g: 0.5, b: 1, a: 0.5))
        values.cornerRadius = 12
        values.transform = Transform3D(a: 0, b: 1, c: -1, d: 0, tx: 5, ty: 0)  // a quarter turn
        let shape = SceneDrawing.shape(values, Projection.view(values))
        let root = try parseXML(shape)
        #expect(root.name == "rect")
        #expect(root.attributes["rx"] == "12")
        #expect(root.attributes["fill"] == "#0080ff" && root.attributes["fill-opacity"] == "0.5")
        #expect(root.attributes["transform"]?.hasPrefix("matrix(0 1 -1 0 ") == true)
    }
}

@Suite("Render: SVG numbers and text")
struct RenderSVGTextTests {
    @Test("numbers are short, locale-free and always parse: no -0, carries rounded up, non-finite as 0")
    func numbers() {
        #expect(SVG.num(160) == "160")
        #expect(SVG.num(0.125, 2) == "0.13")
        #expect(SVG.num(-0.001) == "0")
        #expect(SVG.num(0.9999, 3) == "1")
        #expect(SVG.num(-12.5) == "-12.5")
        #expect(SVG.num(1.05, 4) == "1.05")
        #expect(SVG.num(.nan) == "0" && SVG.num(.infinity) == "0")
        #expect(SVG.num(1e20) == "1e15")
    }

    @Test("text and attribute values are escaped, control characters replaced")
    func escaping() {
        #expect(SVG.escape("a<b>&\"c'") == "a&lt;b&gt;&amp;&quot;c&apos;")
        #expect(SVG.escape("x\u{1}y") == "x?y")
        #expect(SVG.tag("text", ["x": "1"], text: "</svg>") == "<text x=\"1\">&lt;/svg&gt;</text>")
    }
}
