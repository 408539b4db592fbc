import SegueKit

/// A plane-to-plane projective map (a 3×3 homography, row vectors: `[x y 1]·H`), which is what a CALayer's 4×4
/// transform does to its flat content once the layer tree is flattened into its superlayer's plane: z in is 0, z out
/// is dropped, and only the perspective divide by w remains.
struct Projection: Equatable {
    /// Row-major h00…h22.
    var h: [Double]

    static let identity = Projection(h: [1, 0, 0, 0, 1, 0, 0, 0, 1])

    static func translation(_ x: Double, _ y: Double) -> Projection { Projection(h: [1, 0, 0, 0, 1, 0, x, y, 1]) }

    /// The 4×4 transform restricted to the z = 0 plane: rows and columns 1, 2, 4.
    init(_ t: Transform3D) {
        let m = t.values
        h = [m[0], m[1], m[3], m[4], m[5], m[7], m[12], m[13], m[15]]
    }

    init(h: [Double]) { self.h = h }

    /// `self` then `next`.
    func then(_ next: Projection) -> Projection {
        var r = [Double](repeating: 0, count: 9)
        for i in 0..<3 {
            for j in 0..<3 {
                r[i * 3 + j] = h[i * 3] * next.h[j] + h[i * 3 + 1] * next.h[3 + j] + h[i * 3 + 2] * next.h[6 + j]
            }
        }
        return Projection(h: r)
    }

    /// How a view's own (bounds) coordinates map into its superview's plane, as Core Animation renders a layer:
    /// about its anchor point (`anchor_point` of the bounds), through its 4×4 transform, to (position, zPosition);
    /// then, in the superview's 3-D space before it is flattened, the superview's sublayer transform about the
    /// superview's anchor point (`parent`: nil for a root view, whose superview is not drawn).
    ///
    /// 4×4 all the way (row vectors, p' = p·M), restricted to z = 0 in and z dropped out only at the end: a child
    /// turned about y under a perspective sublayer transform is foreshortened by that perspective.
    static func view(_ values: ViewValues, z: Double = 0, parent: ViewValues? = nil) -> Projection {
        let b = values.bounds, a = values.anchorPoint
        let anchor = (b.x + a.x * b.w, b.y + a.y * b.h)
        var m = Transform3D.concat(Transform3D.translation3D(-anchor.0, -anchor.1, 0), values.transform)
        m = Transform3D.concat(m, Transform3D.translation3D(values.center.x, values.center.y, z))
        if let parent, !parent.sublayerTransform.isIdentity {
            let pb = parent.bounds, pa = parent.anchorPoint
            let pivot = (pb.x + pa.x * pb.w, pb.y + pa.y * pb.h)
            m = Transform3D.concat(m, Transform3D.translation3D(-pivot.0, -pivot.1, 0))
            m = Transform3D.concat(m, parent.sublayerTransform)
            m = Transform3D.concat(m, Transform3D.translation3D(pivot.0, pivot.1, 0))
        }
        return Projection(m)
    }

    /// The point, or nil when it is at or behind the eye (w ≤ `Projection.eye`).
    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let X = x * h[0] + y * h[3] + h[6]
        let Y = x * h[1] + y * h[4] + h[7]
        let W = x * h[2] + y * h[5] + h[8]
        guard W > Projection.eye, X.isFinite, Y.isFinite else { return nil }
        return (X / W, Y / W)
    }

    /// The eye plane: points with w at or below it are behind the eye and clipped away (Core Animation draws the
    /// rest of a layer that crosses it).
    static let eye = 1e-6

    /// The homogeneous w of a source point (linear in x and y).
    func w(_ x: Double, _ y: Double) -> Double { x * h[2] + y * h[5] + h[8] }

    /// SVG's `matrix(a b c d e f)` when the map is affine (no perspective), else nil.
    var affine: (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)? {
        guard abs(h[2]) < 1e-12, abs(h[5]) < 1e-12, h[8] > 1e-12 else { return nil }
        let w = h[8]
        return (h[0] / w, h[1] / w, h[3] / w, h[4] / w, h[6] / w, h[7] / w)
    }
}
