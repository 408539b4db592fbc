import Testing

@testable import SegueKit

/// The layer's look in the engine (issue 26, item 1): CALayer's documented defaults, writes, animations, and the
/// non-animated clips_to_bounds.
@Suite("Layer look: border, shadow, clips_to_bounds")
struct LayerLookTests {
    @Test("a new view has CALayer's defaults: border 0 black, shadow black 0 radius 3 offset (0, -3), no clipping")
    func defaults() throws {
        let (_, view, _) = try makeViewScene()
        let v = view.model
        #expect(v.borderWidth == 0)
        #expect(v.borderColor == Color(r: 0, g: 0, b: 0, a: 1))
        #expect(v.shadowColor == Color(r: 0, g: 0, b: 0, a: 1))
        #expect(v.shadowOpacity == 0)
        #expect(v.shadowRadius == 3)
        #expect(v.shadowOffset == Size(w: 0, h: -3))
        #expect(!v.clipsToBounds)
        for property in [ViewProperty.borderWidth, .borderColor, .shadowColor, .shadowOpacity, .shadowRadius,
                         .shadowOffset, .clipsToBounds] {
            #expect(v.isInitial(property), "\(property.name)")
        }
        #expect(!v.isInitial(.alpha))
    }

    @Test("border and shadow animate inside a block, channel by channel; clips_to_bounds is set at once")
    func animates() throws {
        let (scene, view, _) = try makeViewScene()
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(view, .borderWidth, [4])
            scene.set(view, .borderColor, [1, 0, 0, 1])
            scene.set(view, .shadowOpacity, [0.5])
            scene.set(view, .shadowRadius, [7])
            scene.set(view, .shadowOffset, [4, 5])
            scene.set(view, .shadowColor, [0, 0, 1, 1])
            scene.set(view, .clipsToBounds, [1])
        }
        #expect(view.presentation.clipsToBounds)
        #expect(view.model.borderWidth == 4)
        scene.advance(by: 500_000_000)
        let p = view.presentation
        #expect(abs(p.borderWidth - 2) < 1e-9)
        #expect(abs(p.borderColor.r - 0.5) < 1e-9)
        #expect(abs(p.shadowOpacity - 0.25) < 1e-9)
        #expect(abs(p.shadowRadius - 5) < 1e-9)
        #expect(abs(p.shadowOffset.w - 2) < 1e-9 && abs(p.shadowOffset.h - 1) < 1e-9)
        #expect(abs(p.shadowColor.b - 0.5) < 1e-9)
        #expect(ViewProperty.borderWidth.animates && ViewProperty.shadowOffset.animates)
        #expect(!ViewProperty.clipsToBounds.animates)
        scene.advance(by: 600_000_000)
        #expect(view.presentation.borderWidth == 4 && view.presentation.shadowRadius == 7)
    }

    @Test("the model ranges: border width and shadow radius ≥ 0, shadow opacity in 0…1 (refused outside, not clamped)")
    func ranges() {
        #expect(ViewProperty.borderWidth.info.range.admit(-1) == nil)
        #expect(ViewProperty.shadowRadius.info.range.admit(-0.5) == nil)
        #expect(ViewProperty.shadowRadius.info.range.admit(.nan) == nil)
        #expect(ViewProperty.shadowOpacity.info.range.admit(1.5) == nil)
        #expect(ViewProperty.shadowOpacity.info.range.admit(-0.1) == nil)
        #expect(ViewProperty.shadowOpacity.info.range.admit(0.4) == 0.4)
        #expect(ViewProperty.shadowOpacity.info.range.pinned(1.2) == 1)
        #expect(ViewProperty.shadowOpacity.info.range.description == "in 0…1")
    }

    @Test("a restored view reports API 1's properties, and a later one only when its value changes back")
    func restoredChanges() {
        let old = ViewValues(frame: Rect(x: 0, y: 0, w: 10, h: 10))
        var new = old
        #expect(!ViewChanges.restored(from: old, to: new).contains(.borderWidth))
        #expect(ViewChanges.restored(from: old, to: new).contains(.alpha))
        new.set(.borderWidth, [2])
        #expect(ViewChanges.restored(from: old, to: new).contains(.borderWidth))
    }
}
