import Foundation
import Testing

@testable import SegueKit
@testable import SegueRender

/// Pictures of Core Animation's layer geometry: anchor points, the superview's sublayer perspective, z order,
/// double-sidedness and clipping at the eye plane.
@Suite("Render: layer geometry (perspective, anchor point, z, double-sided, eye plane)")
struct LayerDrawingTests {
    /// A scene with a 200×200 container at (0, 0) holding `children` (each 100×100 at (50, 50) unless moved).
    static func scene(_ ids: [String]) throws -> (Scene, View, [View]) {
        let scene = Scene(id: "layers", size: Size(w: 400, h: 400), clock: .manual)
        let box = try scene.makeView(id: "box", frame: Rect(x: 0, y: 0, w: 200, h: 200), color: .clear)
        scene.addSubview(box, to: scene.window)
        var children: [View] = []
        for (k, id) in ids.enumerated() {
            let shade = Double(k + 1) / Double(ids.count + 1)
            let child = try scene.makeView(id: id, frame: Rect(x: 50, y: 50, w: 100, h: 100),
                                           color: Color(r: shade, g: 0.2, b: 1 - shade))
            scene.addSubview(child, to: box)
            children.append(child)
        }
        return (scene, box, children)
    }

    /// The SVG of `root`'s subtree now.
    static func draw(_ root: View) -> String {
        var timeline = Timeline()
        timeline.record(root, at: 0, structureVersion: 1, valueVersion: 1, final: true)
        guard let sample = timeline.samples.last else { return "" }
        return SceneDrawing.draw(sample, origin: .zero, labelSize: 11, labels: false)
    }

    /// The points of the `path` (or the corners of the `rect`) drawn for view `id`.
    static func outline(_ svg: String, _ id: String) throws -> [(Double, Double)] {
        let root = try parseXML("<svg>" + svg + "</svg>")
        let group = try #require(root.all { $0.attributes["data-view"] == id }.first)
        if let path = group.children.first(where: { $0.name == "path" }), let d = path.attributes["d"] {
            let numbers = d.split { "MLZ ".contains($0) }.compactMap { Double($0) }
            return stride(from: 0, to: numbers.count - 1, by: 2).map { (numbers[$0], numbers[$0 + 1]) }
        }
        // An affine one: the rect's corners through its `matrix(a b c d e f)`.
        guard let rect = group.children.first(where: { $0.name == "rect" }),
            let transform = rect.attributes["transform"], transform.hasPrefix("matrix(")
        else { return [] }
        let m = transform.dropFirst(7).dropLast().split(separator: " ").compactMap { Double($0) }
        let x = rect.double("x") ?? 0, y = rect.double("y") ?? 0
        let w = rect.double("width") ?? 0, h = rect.double("height") ?? 0
        return [(x, y), (x + w, y), (x + w, y + h), (x, y + h)].map { p in
            (m[0] * p.0 + m[2] * p.1 + m[4], m[1] * p.0 + m[3] * p.1 + m[5])
        }
    }

    @Test("a child turned about y under the superview's sublayer perspective is drawn as a trapezoid")
    func sublayerPerspective() throws {
        let (scene, box, children) = try Self.scene(["card"])
        scene.set(box, .sublayerTransform, Transform3D.perspective(500).values)
        scene.set(children[0], transform: .rotation(.pi / 3, 0, 1, 0))
        let points = try Self.outline(Self.draw(box), "card")
        #expect(points.count == 4, "\(points)")
        // The left edge (x < 100) and the right edge: one nearer the eye, taller than the other.
        let left = points.filter { $0.0 < 100 }, right = points.filter { $0.0 > 100 }
        #expect(left.count == 2 && right.count == 2)
        let hl = abs(left[0].1 - left[1].1), hr = abs(right[0].1 - right[1].1)
        #expect(abs(hl - hr) > 10, "left \(hl), right \(hr)")
        // Without the perspective the same turn is a narrower rectangle (an affine matrix).
        scene.set(box, .sublayerTransform, Transform3D.identity.values)
        let flat = try Self.outline(Self.draw(box), "card")
        #expect(flat.count == 4 && abs(abs(flat[0].1 - flat[3].1) - 100) < 1e-6, "\(flat)")
    }

    @Test("a transform applies about the anchor point: anchored at the left edge, a turn about z swings about it")
    func anchorPoint() throws {
        let (scene, box, children) = try Self.scene(["door"])
        let door = children[0]
        scene.set(door, .anchorPoint, [0, 0.5])  // keeps position (100, 100): the frame moves to x = 100
        scene.set(door, transform: .concat(.rotation(.pi / 2, 0, 0, 1), .perspective(1000)))
        let points = try Self.outline(Self.draw(box), "door")
        #expect(points.count == 4, "\(points)")
        // The left edge's middle stays at the position; the door hangs down from it, 100 long.
        let xs = points.map(\.0), ys = points.map(\.1)
        #expect(abs((xs.min() ?? 0) - 50) < 1e-6 && abs((xs.max() ?? 0) - 150) < 1e-6, "\(points)")
        #expect(abs((ys.min() ?? 0) - 100) < 1e-6 && abs((ys.max() ?? 0) - 200) < 1e-6, "\(points)")
    }

    @Test("siblings are drawn by z, then by order")
    func zOrder() throws {
        let (scene, box, children) = try Self.scene(["back", "front"])
        var svg = Self.draw(box)
        #expect(try #require(svg.range(of: "\"back\"")).lowerBound < svg.range(of: "\"front\"")!.lowerBound)
        scene.set(children[0], z: 1)
        svg = Self.draw(box)
        #expect(try #require(svg.range(of: "\"front\"")).lowerBound < svg.range(of: "\"back\"")!.lowerBound)
    }

    @Test("the back of a view that is not double-sided is not drawn; a double-sided one shows its back")
    func doubleSided() throws {
        let (scene, box, children) = try Self.scene(["card"])
        scene.set(box, .sublayerTransform, Transform3D.perspective(500).values)
        scene.set(children[0], transform: .rotation(.pi * 0.9, 0, 1, 0))
        #expect(Self.draw(box).contains("data-view=\"card\""))
        scene.set(children[0], .doubleSided, [0])
        #expect(!Self.draw(box).contains("data-view=\"card\""))
        // Turned less than a quarter it faces the viewer and is drawn.
        scene.set(children[0], transform: .rotation(.pi * 0.4, 0, 1, 0))
        #expect(Self.draw(box).contains("data-view=\"card\""))
    }

    @Test("a view crossing the eye plane is clipped there and the rest drawn, in the filmstrip SVG too")
    func eyePlane() throws {
        let (scene, box, children) = try Self.scene(["wide"])
        // Eye at z = 100 over the box's centre; the card turned 80° about y: its right part comes past the eye.
        scene.set(children[0], bounds: Rect(x: 0, y: 0, w: 400, h: 100))
        scene.set(box, .sublayerTransform, Transform3D.perspective(100).values)
        scene.set(children[0], transform: .rotation(-80 * .pi / 180, 0, 1, 0))
        let points = try Self.outline(Self.draw(box), "wide")
        #expect(points.count >= 4, "\(points)")
        #expect(points.allSatisfy { $0.0.isFinite && $0.1.isFinite })
        var timeline = Timeline()
        timeline.record(box, at: 0, structureVersion: 1, valueVersion: 1, final: true)
        let source = RenderSource(timeline: timeline, start: 0, end: 0, now: 0, duration: 0,
                                  sceneSize: Size(w: 400, h: 400), title: "eye plane")
        let svg = Filmstrip(source, frames: 1).svg
        let root = try parseXML(svg)
        let wide = try #require(root.all { $0.attributes["data-view"] == "wide" }.first)
        #expect(wide.children.contains { $0.name == "path" })
        #expect(!svg.contains("nan"))
    }

    @Test("affine patches of a projected rect stay within half a pixel of the projection")
    func patches() throws {
        let m = Transform3D.concat(.concat(.translation3D(-100, -50, 0), .rotation(1.1, 0, 1, 0)),
                                   .concat(.perspective(300), .translation3D(200, 100, 0)))
        let projection = Projection(m)
        let rect = Rect(x: 0, y: 0, w: 200, h: 100)
        let patches = ProjectedQuad.patches(rect, projection)
        #expect(patches.count > 1)
        let area = patches.reduce(0) { $0 + $1.cell.w * $1.cell.h }
        #expect(abs(area - 200 * 100) < 1e-6, "the patches tile the rect")
        for patch in patches {
            for (u, v) in [(0.25, 0.25), (0.75, 0.5), (0.5, 0.9), (1.0, 1.0)] {
                let x = patch.cell.x + u * patch.cell.w, y = patch.cell.y + v * patch.cell.h
                let p = try #require(projection.apply(x, y))
                let ax = patch.a * x + patch.c * y + patch.e, ay = patch.b * x + patch.d * y + patch.f
                #expect(((ax - p.x) * (ax - p.x) + (ay - p.y) * (ay - p.y)).squareRoot() <= 0.5 + 1e-9)
            }
        }
        #expect(ProjectedQuad.patches(rect, .translation(3, 4)).count == 1)
    }
}
