import Foundation
import Testing

@testable import SegueKit

/// CA's transform key paths of explicit animations ("CATransform3D Key Paths", Core Animation Programming Guide:
/// Key-Value Coding Extensions) on the 3-D transform: each field path animates its part of the decomposition and
/// leaves the others. Expected matrices are written out by hand (row-major, CATransform3D's m11 … m44).
@Suite("Explicit animations: CA's 3-D transform key paths")
struct TransformKeyPathTests {
    func spec(_ keyPath: String, _ fill: (inout LayerAnimationSpec) -> Void) -> LayerAnimationSpec {
        var s = LayerAnimationSpec(keyPath: keyPath, duration: 1)
        fill(&s)
        return s
    }

    func expectMatrix(_ t: Transform3D, _ expected: [Double], sourceLocation: SourceLocation = #_sourceLocation) {
        let v = t.values
        let off = zip(v, expected).map { abs($0 - $1) }.max() ?? .infinity
        #expect(off < 1e-4, "got \(v.map { ($0 * 1e6).rounded() / 1e6 })", sourceLocation: sourceLocation)
    }

    /// A view with `model` as its transform and one animation of `keyPath` added, the clock `seconds` on.
    func animated(_ keyPath: String, model: Transform3D = .identity, property: ViewProperty = .transform,
                  at seconds: Double, _ fill: (inout LayerAnimationSpec) -> Void) throws -> View
    {
        let (scene, view, _) = try makeViewScene()
        scene.set(view, property, model.values)
        try scene.addAnimation(spec(keyPath) {
            fill(&$0)
            $0.fillMode = .forwards
            $0.removedOnCompletion = false
        }, forKey: "k", to: view)
        scene.advance(by: Int64((seconds * 1e9).rounded()))
        #expect(Array(view.model.get(property)) == model.values, "the model value is not changed")
        return view
    }

    @Test("every CA transform key path exists, on transform and on sublayerTransform, by CA's and segued's names")
    func table() {
        let fields = ["rotation.x", "rotation.y", "rotation.z", "rotation", "scale.x", "scale.y", "scale.z", "scale",
                      "translation.x", "translation.y", "translation.z", "translation"]
        for base in ["transform", "sublayerTransform", "sublayer_transform"] {
            for field in fields {
                let path = LayerKeyPath.named(base + "." + field)
                #expect(path != nil, "\(base).\(field)")
                #expect(path?.valueCount == (field == "translation" ? 2 : 1))
            }
        }
        #expect(LayerKeyPath.named("transform.rotation.w") == nil)
        #expect(LayerKeyPath.named("sublayerTransform.rotation.y")?.property == .sublayerTransform)
    }

    @Test("transform.rotation.y from 0 to π/2: half-way a 45° turn about y, no shrink")
    func rotationY() throws {
        let view = try animated("transform.rotation.y", at: 0.5) { $0.from = [0]; $0.to = [Double.pi / 2] }
        let c = 0.7071067811865476
        expectMatrix(view.presentation.transform, [c, 0, -c, 0, 0, 1, 0, 0, c, 0, c, 0, 0, 0, 0, 1])
    }

    @Test("transform.rotation.x over a scaled, moved model: the scale and the translation stay")
    func rotationXKeepsTheRest() throws {
        let model = Transform3D(a: 2, b: 0, c: 0, d: 2, tx: 10, ty: 20)
        let half = try animated("transform.rotation.x", model: model, at: 0.5) { $0.to = [Double.pi / 2] }
        // S·Rx(45°)·T: row 2 of Rx scaled by 2, row 3 by the z scale (1).
        expectMatrix(half.presentation.transform,
                     [2, 0, 0, 0, 0, 1.4142135623730951, 1.4142135623730951, 0, 0, -0.7071067811865476,
                      0.7071067811865476, 0, 10, 20, 0, 1])
        let end = try animated("transform.rotation.x", model: model, at: 2) { $0.to = [Double.pi / 2] }
        expectMatrix(end.presentation.transform, [2, 0, 0, 0, 0, 0, 2, 0, 0, -1, 0, 0, 10, 20, 0, 1])
    }

    @Test("transform.rotation (= rotation.z) over a model turned about y: R = Rx·Ry·Rz, the y turn kept")
    func rotationZOver3D() throws {
        let model = Transform3D.rotation(Double.pi / 4, 0, 1, 0)
        let c = 0.7071067811865476
        for path in ["transform.rotation", "transform.rotation.z"] {
            let view = try animated(path, model: model, at: 1) { $0.from = [0]; $0.to = [Double.pi / 2] }
            // Ry(45°) rows (c 0 −c), (0 1 0), (c 0 c) times Rz(90°) rows (0 1 0), (−1 0 0), (0 0 1).
            expectMatrix(view.presentation.transform, [0, c, -c, 0, -1, 0, 0, 0, 0, c, c, 0, 0, 0, 0, 1])
        }
    }

    @Test("a missing from reads the model's field: by 0.2 over a 0.3 rad turn about x ends at 0.5 rad")
    func readsTheModel() throws {
        let view = try animated("transform.rotation.x", model: .rotation(0.3, 1, 0, 0), at: 1) { $0.by = [0.2] }
        let (c, s) = (0.8775825618903728, 0.479425538604203)
        expectMatrix(view.presentation.transform, [1, 0, 0, 0, 0, c, s, 0, 0, -s, c, 0, 0, 0, 0, 1])
    }

    @Test("transform.scale sets all three scales (CA: the average of the three); scale.z alone; a 0 scale model")
    func scale() throws {
        let half = try animated("transform.scale", at: 0.5) { $0.to = [2] }
        expectMatrix(half.presentation.transform, [1.5, 0, 0, 0, 0, 1.5, 0, 0, 0, 0, 1.5, 0, 0, 0, 0, 1])
        let z = try animated("transform.scale.z", model: .translation(5, 6), at: 1) { $0.to = [3] }
        expectMatrix(z.presentation.transform, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 3, 0, 5, 6, 0, 1])
        // A model with no decomposition (scale 0): its translation and row lengths are kept, nothing thrown away.
        let zero = Transform3D(a: 0, b: 0, c: 0, d: 0, tx: 7, ty: 8)
        let grow = try animated("transform.scale.x", model: zero, at: 1) { $0.to = [2] }
        expectMatrix(grow.presentation.transform, [2, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 7, 8, 0, 1])
    }

    @Test("translation.z and translation {x, y}; additive adds to the model's field")
    func translation() throws {
        let model = Transform3D.translation(10, 20)
        let z = try animated("transform.translation.z", model: model, at: 1) {
            $0.from = [0]; $0.to = [50]; $0.additive = true
        }
        expectMatrix(z.presentation.transform, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 10, 20, 50, 1])
        let xy = try animated("transform.translation", model: model, at: 0.5) {
            $0.from = [0, 0]; $0.to = [100, -40]; $0.additive = true
        }
        expectMatrix(xy.presentation.transform, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 60, 0, 0, 1])
        let plain = try animated("transform.translation.x", model: model, at: 1) { $0.to = [-5] }
        expectMatrix(plain.presentation.transform, [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, -5, 20, 0, 1])
    }

    @Test("additive rotation.y adds to the model's turn about y")
    func additiveRotation() throws {
        let view = try animated("transform.rotation.y", model: .rotation(Double.pi / 6, 0, 1, 0), at: 1) {
            $0.from = [0]; $0.to = [Double.pi / 6]; $0.additive = true
        }
        let (c, s) = (0.5, 0.8660254037844386)
        expectMatrix(view.presentation.transform, [c, 0, -s, 0, 0, 1, 0, 0, s, 0, c, 0, 0, 0, 0, 1])
    }

    @Test("sublayerTransform.rotation.y under the model's perspective: Ry(θ) then m34 = −1/500 stays")
    func sublayerPerspective() throws {
        let view = try animated("sublayerTransform.rotation.y", model: .perspective(500), property: .sublayerTransform,
                                at: 0.5) { $0.from = [0]; $0.to = [2 * Double.pi / 3] }
        let (c, s) = (0.5, 0.8660254037844386)
        expectMatrix(view.presentation.sublayerTransform,
                     [c, 0, -s, s / 500, 0, 1, 0, 0, s, 0, c, -c / 500, 0, 0, 0, 1])
        #expect(view.presentation.transform.isIdentity)
    }

    @Test("a turn about z alone over a 2-D model stays a 2-D affine transform (frame events send it as {a, b, …})")
    func stays2D() throws {
        let view = try animated("transform.rotation.z", model: Transform3D(a: 2, b: 0, c: 0, d: 2, tx: 3, ty: 4),
                                at: 0.5) { $0.to = [Double.pi] }
        #expect(view.presentation.transform.isAffine)
        expectMatrix(view.presentation.transform, [0, 2, 0, 0, -2, 0, 0, 0, 0, 0, 1, 0, 3, 4, 0, 1])
    }

    @Test("the fields of a matrix recompose it: Euler angles x, y, z (Graphics Gems II), also at y = ±90°")
    func roundTrip() {
        let cases: [(Double, Double, Double)] = [(0.3, -0.7, 1.1), (-2.5, 0.2, 3.0), (1.0, Double.pi / 2, 0.4),
                                                 (0.6, -Double.pi / 2, -0.9), (0, 0, 0)]
        for (x, y, z) in cases {
            let r = Transform3D.concat(Transform3D.concat(.rotation(x, 1, 0, 0), .rotation(y, 0, 1, 0)),
                                       .rotation(z, 0, 0, 1))
            let m = Transform3D.concat(Transform3D.concat(Transform3D(a: 1.5, b: 0, c: 0.2, d: 0.8, tx: 0, ty: 0), r),
                                       Transform3D.translation3D(4, -3, 12))
            let f = TransformFields(m)
            expectMatrix(f.transform, m.values)
            expectMatrix(TransformFields(r).transform, r.values)
            if abs(abs(y) - Double.pi / 2) > 1e-9 {
                let a = TransformFields(r).rotation
                #expect(abs(a.x - x) < 1e-9 && abs(a.y - y) < 1e-9 && abs(a.z - z) < 1e-9, "\(a)")
            }
        }
    }

    @Test("a field path that does not exist raises naming it, with the nearest name")
    func unknownField() throws {
        let (scene, view, _) = try makeViewScene()
        do {
            try scene.addAnimation(spec("transform.rotation.w") { $0.to = [1] }, forKey: "k", to: view)
            Issue.record("no error")
        } catch {
            #expect(error.message.hasPrefix("key_path 'transform.rotation.w' is no animatable key path (did you mean 'transform.rotation"))
        }
        #expect(scene.animationKeys(of: view).isEmpty)
    }
}
