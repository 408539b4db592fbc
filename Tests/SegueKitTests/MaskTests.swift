import Testing

@testable import SegueKit

/// CALayer.mask in the engine (issue 26, item 1): a view with no superview that is not the view or one of its
/// ancestors; nil removes it; a destroyed mask view clears the mask; scene.tree carries the mask's id.
@Suite("Layer mask")
struct MaskTests {
    @Test("a mask is set, read in the tree, moved to another view, and cleared by nil")
    func setAndClear() throws {
        let (scene, view, _) = try makeViewScene()
        let mask = try scene.makeView(id: "m", frame: Rect(x: 10, y: 10, w: 50, h: 50))
        #expect(scene.setMask(view, mask) == nil)
        #expect(view.mask === mask)
        #expect(scene.tree(presentation: false).views.subviews.first?.mask == "m")
        #expect(scene.tree(presentation: false).masks.map(\.id) == ["m"])
        // A view masks at most one view: given to another, it leaves the first.
        let other = try scene.makeView(id: "o", frame: Rect(x: 0, y: 0, w: 10, h: 10))
        scene.addSubview(other, to: scene.window)
        #expect(scene.setMask(other, mask) == nil)
        #expect(view.mask == nil && other.mask === mask)
        #expect(scene.setMask(other, nil) == nil)
        #expect(other.mask == nil && mask.maskedView == nil)
        #expect(scene.tree(presentation: false).views.subviews.allSatisfy { $0.mask == nil })
        #expect(scene.tree(presentation: false).masks.isEmpty)
    }

    @Test("a mask with a superview, the view itself, or an ancestor of the view is refused; nothing changes")
    func refusals() throws {
        let (scene, view, _) = try makeViewScene()
        let sub = try scene.makeView(id: "s", frame: Rect(x: 0, y: 0, w: 10, h: 10))
        scene.addSubview(sub, to: view)
        let keep = try scene.makeView(id: "k", frame: Rect(x: 0, y: 0, w: 10, h: 10))
        #expect(scene.setMask(view, keep) == nil)
        let withSuperview = try #require(scene.setMask(view, sub))
        #expect(withSuperview.contains("view.mask") && withSuperview.contains("view s") && withSuperview.contains("superview"))
        let itself = try #require(scene.setMask(view, view))
        #expect(itself.contains("view.mask") && itself.contains("itself") && itself.contains("view v"))
        // A detached root holding the view is its ancestor, though it has no superview.
        let root = try scene.makeView(id: "r", frame: Rect(x: 0, y: 0, w: 10, h: 10))
        let inner = try scene.makeView(id: "i", frame: Rect(x: 0, y: 0, w: 10, h: 10))
        scene.addSubview(inner, to: root)
        let ancestor = try #require(scene.setMask(inner, root))
        #expect(ancestor.contains("view.mask") && ancestor.contains("ancestor") && ancestor.contains("view r"))
        #expect(view.mask === keep && inner.mask == nil && sub.maskedView == nil)
    }

    @Test("destroying the mask view clears the mask; destroying the masked view frees the mask view")
    func destroyClears() throws {
        let (scene, view, _) = try makeViewScene()
        let mask = try scene.makeView(id: "m", frame: Rect(x: 0, y: 0, w: 50, h: 50))
        scene.setMask(view, mask)
        scene.destroyViewForPlugin(mask)
        #expect(view.mask == nil)
        #expect(scene.tree(presentation: false).masks.isEmpty)
        let other = try scene.makeView(id: "m2", frame: Rect(x: 0, y: 0, w: 50, h: 50))
        let masked = try scene.makeView(id: "x", frame: Rect(x: 0, y: 0, w: 50, h: 50))
        scene.setMask(masked, other)
        scene.destroyViewForPlugin(masked)
        #expect(other.maskedView == nil)
        #expect(scene.setMask(view, other) == nil)
    }
}
