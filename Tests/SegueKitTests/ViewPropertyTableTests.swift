import Testing

@testable import SegueKit

/// The view-property table (`ViewProperty.info`) is consistent, and the engine does what each entry says.
@Suite("View-property table")
struct ViewPropertyTableTests {
    @Test("the channel properties tile the channels, 0 up to channelCount, without overlap (position is center)")
    func channelsTile() {
        var covered = [Int](repeating: 0, count: ViewProperty.channelCount)
        for property in ViewProperty.allCases where property.stored == property {
            guard case .channels(let offset) = property.info.storage else { continue }
            #expect(offset + property.count <= ViewProperty.channelCount, "\(property)")
            for k in offset..<min(offset + property.count, ViewProperty.channelCount) { covered[k] += 1 }
        }
        #expect(covered.allSatisfy { $0 == 1 }, "\(covered)")
    }

    @Test("names are unique, every property is listed once, and the change flags fit ViewChanges and the shim")
    func namesAndFlags() {
        let names = ViewProperty.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        #expect(!names.contains("frame"))  // derived: not a property of its own
        #expect(ViewProperty.listed.count == ViewProperty.allCases.count)
        #expect(Set(ViewProperty.listed) == Set(ViewProperty.allCases))
        #expect(ViewProperty.allCases.count <= 64)  // ViewChanges' bits, the shim's SEGUE_PROPERTY_MAX
        #expect(ViewChanges.all.rawValue.nonzeroBitCount == ViewProperty.allCases.count)
        #expect(ViewChanges.frame == [.center, .bounds, .anchorPoint, .position])
        // `position` is the one property stored in another's channels: center's, the same point.
        #expect(ViewProperty.allCases.filter { $0.stored != $0 } == [.position])
        #expect(ViewProperty.position.info.storage == ViewProperty.center.info.storage)
    }

    @Test("a model range admits, clamps or refuses as it says")
    func ranges() {
        #expect(ModelRange.clamped(0, 1).admit(2) == 1)
        #expect(ModelRange.clamped(0, 1).admit(-0.5) == 0)
        #expect(ModelRange.clamped(0, 1).admit(.nan) == nil)
        #expect(ModelRange.atLeast(0).admit(-3) == nil)
        #expect(ModelRange.atLeast(0).admit(3) == 3)
        #expect(ModelRange.finite.admit(.infinity) == nil)
        #expect(ViewProperty.cornerRadius.info.range.description == "≥ 0")
        #expect(ViewProperty.alpha.info.range.description == "clamped to 0…1")
    }

    @Test("a property that does not animate is set at once inside an animation block; one that does animates")
    func nonAnimatingSetAtOnce() throws {
        let recorder = EventRecorder()
        let (scene, _, a, _) = try makeScene(recorder: recorder)
        let view = a.view
        scene.animate(AnimationOptions(duration: 1)) {
            [3.0].withUnsafeBufferPointer { scene.set(view, .z, values: $0) }
            [1.0].withUnsafeBufferPointer { scene.set(view, .hidden, values: $0) }
            [8.0].withUnsafeBufferPointer { scene.set(view, .cornerRadius, values: $0) }
        }
        #expect(view.z == 3)
        #expect(view.hidden)
        #expect(view.model.cornerRadius == 8)
        #expect(view.presentation.cornerRadius == 0)  // animating toward 8
        scene.advance(by: 1_100_000_000)
        #expect(view.presentation.cornerRadius == 8)
    }

    @Test("a packed frame view unpacks to what was packed, for every property (affine and 3-D transforms)")
    func packRoundTrip() {
        var view = FrameView(id: "v", changes: .all)
        view.frame = Rect(x: 1, y: 2, w: 3, h: 4)
        for property in ViewProperty.allCases {
            let values = (0..<property.count).map { Double($0 + 1) / 8 + Double(property.rawValue) }
            view.set(property, property == .hidden ? [1] : values)
        }
        var flat = FrameView(id: "w", changes: [.transform])
        flat.values.transform = Transform3D(a: 2, b: 0, c: 0, d: 2, tx: 5, ty: 6)
        let packed = FrameViews([view, flat])
        for property in ViewProperty.allCases where property.info.sentInFrames {
            #expect(packed[0].value(of: property) == view.value(of: property), "\(property)")
        }
        #expect(packed[0].frame == view.frame)
        #expect(packed.entries[1].affine == [.transform])
        #expect(packed[1].values.transform == flat.values.transform)
    }
}
