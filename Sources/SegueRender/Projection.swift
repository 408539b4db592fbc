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

    /// How a view's own (bounds) coordinates map into its superview's: about the bounds' centre (anchor 0.5, 0.5,
    /// as CALayer), through the transform, to the centre.
    static func view(_ values: ViewValues) -> Projection {
        let b = values.bounds
        return translation(-(b.x + b.w / 2), -(b.y + b.h / 2))
            .then(Projection(values.transform))
            .then(translation(values.center.x, values.center.y))
    }

    /// The point, or nil when it is at or behind the eye (w ≤ 0).
    func apply(_ x: Double, _ y: Double) -> (x: Double, y: Double)? {
        let X = x * h[0] + y * h[3] + h[6]
        let Y = x * h[1] + y * h[4] + h[7]
        let W = x * h[2] + y * h[5] + h[8]
        guard W > 1e-9, X.isFinite, Y.isFinite else { return nil }
        return (X / W, Y / W)
    }

    /// SVG's `matrix(a b c d e f)` when the map is affine (no perspective), else nil.
    var affine: (a: Double, b: Double, c: Double, d: Double, e: Double, f: Double)? {
        guard abs(h[2]) < 1e-12, abs(h[5]) < 1e-12, h[8] > 1e-12 else { return nil }
        let w = h[8]
        return (h[0] / w, h[1] / w, h[3] / w, h[4] / w, h[6] / w, h[7] / w)
    }
}
