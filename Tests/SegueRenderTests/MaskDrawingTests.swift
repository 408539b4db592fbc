import Foundation
import SegueKit
import Testing

@testable import SegueRender

/// CALayer.mask in pictures (issue 26, item 8): the masked view's group is drawn through an SVG `<mask>` made from
/// the mask view's shape at its alpha, placed in the masked view's coordinates; the mask view itself is not drawn.
@Suite("Render: masks")
struct MaskDrawingTests {
    @Test("a masked view is drawn inside an SVG mask of the mask view's rounded rect and alpha; ids unique")
    func maskDrawn() throws {
        let (scene, container, _, b) = try makeScene()
        let mask = try scene.makeView(id: "the-mask", frame: Rect(x: 10, y: 20, w: 30, h: 40))
        scene.set(mask, .alpha, [0.5])
        scene.set(mask, .cornerRadius, [4])
        #expect(scene.setMask(b.view, mask) == nil)
        let t = try #require(try scene.select(container, index: 1).transition)
        while !t.isEnded { scene.advance(by: 1_000_000_000 / 60) }
        let svg = Filmstrip(RenderSource(transition: t, scene: scene), frames: 3).svg
        let root = try parseXML(svg)
        let masks = root.all(named: "mask")
        #expect(!masks.isEmpty)
        let ids = masks.compactMap { $0.attributes["id"] }
        #expect(Set(ids).count == ids.count)
        #expect(masks.allSatisfy { $0.attributes["maskUnits"] == "userSpaceOnUse" })
        let shapes = masks.flatMap { $0.all(named: "rect") }
        #expect(!shapes.isEmpty)
        #expect(shapes.allSatisfy {
            $0.attributes["fill"] == "#ffffff" && $0.double("fill-opacity") == 0.5 && $0.double("width") == 30
                && $0.double("height") == 40 && $0.double("rx") == 4
        })
        let masked = root.all { $0.attributes["mask"] != nil }
        #expect(!masked.isEmpty)
        #expect(masked.allSatisfy { $0.attributes["data-view"] != nil })
        // Drawn only as a mask: the mask view is no view of the picture.
        #expect(!svg.contains("data-view=\"the-mask\""))
    }

    @Test("a picture without masks draws no mask element")
    func noMask() throws {
        let (scene, container, _, _) = try makeScene()
        let t = try #require(try scene.select(container, index: 1).transition)
        while !t.isEnded { scene.advance(by: 1_000_000_000 / 60) }
        let svg = Filmstrip(RenderSource(transition: t, scene: scene), frames: 3).svg
        #expect(!svg.contains("<mask") && !svg.contains("mask=\""))
    }

    /// The filmstrip of a select with b.view masked (the mask at 10, 20, 30 × 40 in b's bounds) and holding one
    /// subview, b's sublayer transform `sublayer`: the mask rects' transforms and the subview's rects' transforms.
    func maskedStrip(sublayer: Transform3D) throws -> (masks: [String], subview: [String]) {
        let (scene, container, _, b) = try makeScene()
        let mask = try scene.makeView(id: "the-mask", frame: Rect(x: 10, y: 20, w: 30, h: 40))
        scene.set(mask, .color, [0, 0, 0, 1])
        #expect(scene.setMask(b.view, mask) == nil)
        let inner = try scene.makeView(id: "inner", frame: Rect(x: 10, y: 20, w: 30, h: 40))
        scene.set(inner, .color, [0, 1, 0, 1])
        scene.addSubview(inner, to: b.view)
        scene.set(b.view, .sublayerTransform, sublayer.values)
        let t = try #require(try scene.select(container, index: 1).transition)
        while !t.isEnded { scene.advance(by: 1_000_000_000 / 60) }
        let root = try parseXML(Filmstrip(RenderSource(transition: t, scene: scene), frames: 3).svg)
        let masks = root.all(named: "mask").flatMap { $0.all(named: "rect") }.map { $0.attributes["transform"] ?? "" }
        let subview = root.all { $0.attributes["data-view"] == "inner" }
            .flatMap { $0.children.filter { $0.name == "rect" } }.map { $0.attributes["transform"] ?? "" }
        return (masks, subview)
    }

    @Test("the masked view's sublayer transform moves its subviews, not its mask (CA: a mask is no sublayer)")
    func sublayerTransformLeavesTheMask() throws {
        let plain = try maskedStrip(sublayer: .identity)
        let moved = try maskedStrip(sublayer: .translation(50, 0))
        #expect(!plain.masks.isEmpty && plain.masks == moved.masks, "\(plain.masks) / \(moved.masks)")
        #expect(!plain.subview.isEmpty && plain.subview.count == moved.subview.count)
        #expect(plain.subview != moved.subview, "the subview follows the sublayer transform")
        // The last frame drawn: the subview 50 pt further right, the mask where it was.
        func tx(_ transform: String) -> Double? {
            transform.split(whereSeparator: { " ()".contains($0) }).compactMap { Double($0) }.dropLast().last
        }
        let shift = zip(plain.subview, moved.subview).compactMap { p, m in tx(m).flatMap { x in tx(p).map { x - $0 } } }
        #expect(!shift.isEmpty && shift.allSatisfy { abs($0 - 50) < 1e-6 }, "\(shift)")
    }
}
