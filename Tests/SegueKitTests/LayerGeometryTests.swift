import Foundation
import Testing

@testable import SegueKit

/// Core Animation's layer geometry in the engine: 3-D transforms interpolated by decomposition (CSS Transforms
/// Level 2), anchor point, position, sublayer transform, double-sidedness.
@Suite("Layer geometry: 3-D decomposition, anchor point, position, sublayer transform")
struct LayerGeometryTests {
    static func close(_ a: Transform3D, _ b: Transform3D, _ tolerance: Double = 1e-9) -> Bool {
        zip(a.values, b.values).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// The presentation transform half-way through a linear 1 s animation from `from` to `to`.
    static func halfWay(_ from: Transform3D, _ to: Transform3D, property: ViewProperty = .transform) throws
        -> Transform3D
    {
        let (scene, view, _) = try makeViewScene()
        scene.set(view, property, from.values)
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) { scene.set(view, property, to.values) }
        scene.advance(by: 500_000_000)
        let half = Transform3D(values: Array(view.presentation.get(property)))
        scene.advance(by: 600_000_000)
        #expect(Array(view.presentation.get(property)) == to.values, "the end is the model value exactly")
        return half
    }

    @Test("decompose then recompose gives the matrix back (rotations, scales, skews, perspective, flips)")
    func roundTrip() throws {
        let matrices: [Transform3D] = [
            .rotation(0.7, 0, 1, 0), .rotation(2.5, 1, 2, 3), .rotation(-1.2, 1, 0, 0),
            .concat(.concat(Transform3D(values: [2, 0, 0, 0, 0.3, 1.5, 0, 0, 0.1, 0.2, 0.7, 0, 0, 0, 0, 1]),
                            .rotation(1, 0.3, -1, 0.5)), .translation3D(10, -20, 30)),
            .concat(.rotation(0.4, 0, 1, 0), .perspective(500)),
            .concat(Transform3D(values: [-1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]), .perspective(300)),
        ]
        for m in matrices {
            let d = try #require(DecomposedTransform(m))
            #expect(Self.close(d.transform, m, 1e-9), "\(m.values) → \(d.transform.values)")
        }
        #expect(DecomposedTransform(Transform3D(values: [0, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])) == nil)
    }

    @Test("0 → 90° about y is, half-way, a 45° turn about y with no shrink")
    func rotationAboutY() throws {
        let half = try Self.halfWay(.identity, .rotation(.pi / 2, 0, 1, 0))
        #expect(Self.close(half, .rotation(.pi / 4, 0, 1, 0)), "\(half.values)")
        // An entry-by-entry blend would give m11 = 0.5 (a 45° turn shrunk to 0.71).
        #expect(abs(half.values[0] - cos(Double.pi / 4)) < 1e-9)
    }

    @Test("a 3-D rotation about z under a perspective turns by half the angle, the perspective kept")
    func rotationAboutZ() throws {
        let p = Transform3D.perspective(500)
        let half = try Self.halfWay(.concat(.rotation(0, 0, 0, 1), p), .concat(.rotation(.pi / 2, 0, 0, 1), p))
        #expect(Self.close(half, .concat(.rotation(.pi / 4, 0, 0, 1), p)), "\(half.values)")
    }

    @Test("scale and rotation interpolate apart: half-way is the mean scale at half the angle")
    func scaleAndRotate() throws {
        let scale2 = Transform3D(values: [2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 2, 0, 0, 0, 0, 1])
        let scale15 = Transform3D(values: [1.5, 0, 0, 0, 0, 1.5, 0, 0, 0, 0, 1.5, 0, 0, 0, 0, 1])
        let half = try Self.halfWay(.identity, .concat(scale2, .rotation(.pi / 2, 0, 1, 0)))
        #expect(Self.close(half, .concat(scale15, .rotation(.pi / 4, 0, 1, 0))), "\(half.values)")
    }

    @Test("perspective interpolates linearly: m34 −1/500 → −1/250 is −0.003 half-way")
    func perspective() throws {
        let half = try Self.halfWay(.perspective(500), .perspective(250))
        #expect(abs(half.values[11] + 0.003) < 1e-12, "\(half.values)")
        #expect(Self.close(half, Transform3D(values: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.003, 0, 0, 0, 1])))
    }

    @Test("a 2-D → 3-D animation is promoted to 3-D: translation and turn both at half")
    func promotion() throws {
        let half = try Self.halfWay(.translation(100, 0), .rotation(.pi / 2, 0, 1, 0))
        #expect(Self.close(half, .concat(.rotation(.pi / 4, 0, 1, 0), .translation3D(50, 0, 0))), "\(half.values)")
    }

    @Test("the quaternion turns the short way: 170° → −170° about y passes through 180°, not 0°")
    func shortWay() throws {
        let half = try Self.halfWay(.rotation(170 * .pi / 180, 0, 1, 0), .rotation(-170 * .pi / 180, 0, 1, 0))
        #expect(Self.close(half, .rotation(.pi, 0, 1, 0), 1e-9), "\(half.values)")
    }

    @Test("2-D transforms still interpolate as 2-D (the frame loop's own decomposed track)")
    func twoDUnchanged() throws {
        let (scene, view, _) = try makeViewScene()
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(view, transform: Transform3D(a: 0, b: 1, c: -1, d: 0, tx: 0, ty: 0))
        }
        let animation = try #require(view.animations[ViewProperty.transform.rawValue])
        #expect(AnimationTrack(animation).mode == .decomposed)
    }

    @Test("the sublayer transform animates by decomposition too")
    func sublayerTransformAnimates() throws {
        let half = try Self.halfWay(.identity, .rotation(.pi / 2, 0, 1, 0), property: .sublayerTransform)
        #expect(Self.close(half, .rotation(.pi / 4, 0, 1, 0)), "\(half.values)")
    }

    @Test("a new view has CA's defaults: anchor point 0.5, 0.5, identity sublayer transform, double-sided")
    func defaults() throws {
        let (_, view, _) = try makeViewScene()
        #expect(view.model.anchorPoint == Point(x: 0.5, y: 0.5))
        #expect(view.model.sublayerTransform.isIdentity)
        #expect(view.model.doubleSided)
        #expect(ViewValues(channels: []).anchorPoint == Point(x: 0.5, y: 0.5))
    }

    @Test("setting the anchor point keeps the position and moves the frame, as CALayer does")
    func anchorPointMovesFrame() throws {
        let (scene, view, recorder) = try makeViewScene()
        #expect(view.model.frame == Rect(x: 0, y: 0, w: 100, h: 100))
        scene.set(view, .anchorPoint, [0, 0.5])
        #expect(view.model.center == Point(x: 50, y: 50))
        #expect(view.model.frame == Rect(x: 50, y: 0, w: 100, h: 100))
        scene.advance(by: 10_000_000)
        let frame = try #require(recorder.events.last { $0.type == "frame" })
        guard case .frame(let views) = frame.payload else { throw LayerTestFailure("not a frame") }
        let entry = try #require(views.first { $0.id == "v" })
        #expect(entry.frame == Rect(x: 50, y: 0, w: 100, h: 100))
        #expect(entry.changes.contains(ViewChanges(.anchorPoint)))
        // A frame set now puts the anchor point (the left edge's middle) at the new position.
        scene.set(view, frame: Rect(x: 10, y: 20, w: 40, h: 60))
        #expect(view.model.center == Point(x: 10, y: 50))
        #expect(view.model.frame == Rect(x: 10, y: 20, w: 40, h: 60))
    }

    @Test("the anchor point animates")
    func anchorPointAnimates() throws {
        let (scene, view, _) = try makeViewScene()
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) { scene.set(view, .anchorPoint, [0, 1]) }
        scene.advance(by: 500_000_000)
        #expect(abs(view.presentation.anchorPoint.x - 0.25) < 1e-9 && abs(view.presentation.anchorPoint.y - 0.75) < 1e-9)
        #expect(view.model.anchorPoint == Point(x: 0, y: 1))
    }

    @Test("position is center: one value, one animation under either name")
    func positionIsCenter() throws {
        let (scene, view, _) = try makeViewScene()
        scene.set(view, .position, [10, 20])
        #expect(view.model.center == Point(x: 10, y: 20) && view.presentation.center == Point(x: 10, y: 20))
        #expect(Array(view.model.value(of: .position, z: 0, hidden: false)) == [10, 20])
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) { scene.set(view, .position, [110, 20]) }
        #expect(view.animations[ViewProperty.center.rawValue] != nil)
        #expect(view.animations[ViewProperty.position.rawValue] == nil)
        scene.advance(by: 500_000_000)
        #expect(abs(view.presentation.center.x - 60) < 1e-9)
        // Setting center supersedes the position animation: the same property.
        scene.set(view, center: Point(x: 0, y: 0))
        #expect(view.animations[ViewProperty.center.rawValue] == nil && view.presentation.center == .zero)
    }

    @Test("double_sided is set at once, also inside an animation block (CALayer.doubleSided is not animatable)")
    func doubleSidedNotAnimated() throws {
        let (scene, view, _) = try makeViewScene()
        scene.animate(AnimationOptions(duration: 1)) { scene.set(view, .doubleSided, [0]) }
        #expect(!view.presentation.doubleSided && !view.model.doubleSided)
        #expect(view.animations[ViewProperty.doubleSided.rawValue] == nil)
    }
}

struct LayerTestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
