#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A 3-D transform taken apart as CSS Transforms Level 2 "Decomposing a 3D matrix" does (the unmatrix of Graphics
/// Gems II, as WebKit's `TransformationMatrix::decompose4` implements it): translation, scale, skew (xy, xz, yz),
/// perspective and a rotation quaternion. Core Animation's own interpolation of a `CATransform3D` is unpublished;
/// this is the published algorithm that behaves as it is seen to (a turn stays a turn, no shrink on the way).
///
/// Row vectors, as `CATransform3D` (p' = p·M): M = S·K·R·T·P — scale, then skew, rotation, translation, and last
/// the perspective (P: the identity with its last column `perspective`).
struct DecomposedTransform: Equatable {
    var translation: SIMD3<Double>
    var scale: SIMD3<Double>
    /// xy, xz, yz (CSS's skew[0], skew[1], skew[2]).
    var skew: SIMD3<Double>
    var perspective: SIMD4<Double>
    /// x, y, z, w.
    var quaternion: SIMD4<Double>

    /// The decomposition of `t`, nil when it has none (m44 = 0, or a singular upper 3×3: a scale of 0).
    init?(_ t: Transform3D) {
        var m = t.values
        guard m[15] != 0, m.allSatisfy(\.isFinite) else { return nil }
        let w = m[15]
        for i in 0..<16 { m[i] /= w }
        // The matrix without its perspective column: the part S·K·R·T.
        var a = m
        a[3] = 0
        a[7] = 0
        a[11] = 0
        a[15] = 1
        guard let inverse = DecomposedTransform.inverse(a) else { return nil }
        if m[3] != 0 || m[7] != 0 || m[11] != 0 {
            // M's last column is A·p, so p = A⁻¹·(m14, m24, m34, m44).
            let rhs = [m[3], m[7], m[11], m[15]]
            var p = SIMD4<Double>(repeating: 0)
            for i in 0..<4 { p[i] = (0..<4).reduce(0) { $0 + inverse[i * 4 + $1] * rhs[$1] } }
            perspective = p
        } else {
            perspective = SIMD4(0, 0, 0, 1)
        }
        translation = SIMD3(m[12], m[13], m[14])
        var row0 = SIMD3(m[0], m[1], m[2]), row1 = SIMD3(m[4], m[5], m[6]), row2 = SIMD3(m[8], m[9], m[10])
        var scale = SIMD3<Double>(repeating: 0), skew = SIMD3<Double>(repeating: 0)
        scale.x = DecomposedTransform.length(row0)
        row0 /= scale.x
        skew.x = DecomposedTransform.dot(row0, row1)
        row1 -= skew.x * row0
        scale.y = DecomposedTransform.length(row1)
        row1 /= scale.y
        skew.x /= scale.y
        skew.y = DecomposedTransform.dot(row0, row2)
        row2 -= skew.y * row0
        skew.z = DecomposedTransform.dot(row1, row2)
        row2 -= skew.z * row1
        scale.z = DecomposedTransform.length(row2)
        row2 /= scale.z
        skew.y /= scale.z
        skew.z /= scale.z
        // A coordinate system flip: negate the scale and the rows.
        if DecomposedTransform.dot(row0, DecomposedTransform.cross(row1, row2)) < 0 {
            scale = -scale
            row0 = -row0
            row1 = -row1
            row2 = -row2
        }
        // The quaternion CSS reads from the diagonal (x = ½√(1 + r00 − r11 − r22) …, negative where r21 > r12,
        // r02 > r20, r10 > r01; w ≥ 0), computed from its largest component and the off-diagonal sums and
        // differences (Shepperd's method): the same quaternion, without the diagonal's loss of precision near 0
        // (which leaves 1e-8 in a round trip).
        let r00 = row0.x, r11 = row1.y, r22 = row2.z
        let trace = r00 + r11 + r22
        var q: SIMD4<Double>
        if trace >= r00, trace >= r11, trace >= r22 {
            let w = 0.5 * max(1 + trace, 0).squareRoot()
            let f = 0.25 / w
            q = SIMD4((row1.z - row2.y) * f, (row2.x - row0.z) * f, (row0.y - row1.x) * f, w)
        } else if r00 >= r11, r00 >= r22 {
            let x = 0.5 * max(1 + r00 - r11 - r22, 0).squareRoot()
            let f = 0.25 / x
            q = SIMD4(x, (row0.y + row1.x) * f, (row0.z + row2.x) * f, (row1.z - row2.y) * f)
        } else if r11 >= r22 {
            let y = 0.5 * max(1 - r00 + r11 - r22, 0).squareRoot()
            let f = 0.25 / y
            q = SIMD4((row0.y + row1.x) * f, y, (row1.z + row2.y) * f, (row2.x - row0.z) * f)
        } else {
            let z = 0.5 * max(1 - r00 - r11 + r22, 0).squareRoot()
            let f = 0.25 / z
            q = SIMD4((row0.z + row2.x) * f, (row1.z + row2.y) * f, z, (row0.y - row1.x) * f)
        }
        if q.w < 0 { q = -q }
        self.scale = scale
        self.skew = skew
        quaternion = q
        guard scale.x.isFinite, scale.y.isFinite, scale.z.isFinite, skew.x.isFinite, skew.y.isFinite,
            skew.z.isFinite, scale.x != 0, scale.y != 0, scale.z != 0
        else { return nil }
    }

    /// The rotation the quaternion stands for, as the rows of its matrix (row vectors: p' = p·R).
    var rotationRows: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        let (x, y, z, w) = (quaternion.x, quaternion.y, quaternion.z, quaternion.w)
        return (SIMD3(1 - 2 * (y * y + z * z), 2 * (x * y + z * w), 2 * (x * z - y * w)),
                SIMD3(2 * (x * y - z * w), 1 - 2 * (x * x + z * z), 2 * (y * z + x * w)),
                SIMD3(2 * (x * z + y * w), 2 * (y * z - x * w), 1 - 2 * (x * x + y * y)))
    }

    /// CSS "Recomposing to a 3D matrix": S·K·R·T·P (row vectors).
    var transform: Transform3D {
        DecomposedTransform.recompose(rotation: rotationRows, scale: scale, skew: skew, translation: translation,
                                      perspective: perspective)
    }

    /// S·K·R·T·P from the parts, the rotation given by the rows of its matrix.
    static func recompose(rotation: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>), scale: SIMD3<Double>,
                          skew: SIMD3<Double>, translation t: SIMD3<Double>, perspective p: SIMD4<Double>)
        -> Transform3D
    {
        let (r0, r1, r2) = rotation
        // K·R: row1 + xy·row0, row2 + xz·row0 + yz·row1; then each row scaled.
        let k0 = r0 * scale.x
        let k1 = (r1 + skew.x * r0) * scale.y
        let k2 = (r2 + skew.y * r0 + skew.z * r1) * scale.z
        // A = [k0 0; k1 0; k2 0; t 1]; M = A·P, P = identity with last column p.
        func row(_ v: SIMD3<Double>, _ last: Double) -> [Double] {
            [v.x, v.y, v.z, v.x * p.x + v.y * p.y + v.z * p.z + last * p.w]
        }
        return Transform3D(values: row(k0, 0) + row(k1, 0) + row(k2, 0) + row(t, 1))
    }

    /// CSS "Interpolation of decomposed 3D matrix values": translation, scale, skew and perspective along a straight
    /// line, the quaternion by spherical linear interpolation the short way round.
    func interpolated(to other: DecomposedTransform, _ p: Double) -> DecomposedTransform {
        var r = self
        r.translation += (other.translation - translation) * p
        r.scale += (other.scale - scale) * p
        r.skew += (other.skew - skew) * p
        r.perspective += (other.perspective - perspective) * p
        r.quaternion = DecomposedTransform.slerp(quaternion, other.quaternion, p)
        return r
    }

    static func slerp(_ a: SIMD4<Double>, _ b: SIMD4<Double>, _ t: Double) -> SIMD4<Double> {
        var b = b
        var product = (a * b).sum()
        // q and −q are the same rotation: take the one nearer `a`, so the turn goes the short way.
        if product < 0 {
            b = -b
            product = -product
        }
        product = min(product, 1)
        if product >= 1 - 1e-12 { return a + (b - a) * t }
        let theta = acos(product)
        let w = sin(t * theta) / (1 - product * product).squareRoot()
        return a * (cos(t * theta) - product * w) + b * w
    }

    static func dot(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> Double { (a * b).sum() }
    static func length(_ a: SIMD3<Double>) -> Double { dot(a, a).squareRoot() }
    static func cross(_ a: SIMD3<Double>, _ b: SIMD3<Double>) -> SIMD3<Double> {
        SIMD3(a.y * b.z - a.z * b.y, a.z * b.x - a.x * b.z, a.x * b.y - a.y * b.x)
    }

    /// The inverse of a row-major 4×4 matrix, nil when singular.
    static func inverse(_ m: [Double]) -> [Double]? {
        var a = m
        var inv: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        for col in 0..<4 {
            var pivot = col
            for r in (col + 1)..<4 where abs(a[r * 4 + col]) > abs(a[pivot * 4 + col]) { pivot = r }
            let scale = a[pivot * 4 + col]
            guard abs(scale) > 1e-300, scale.isFinite else { return nil }
            if pivot != col {
                for k in 0..<4 {
                    a.swapAt(pivot * 4 + k, col * 4 + k)
                    inv.swapAt(pivot * 4 + k, col * 4 + k)
                }
            }
            for k in 0..<4 {
                a[col * 4 + k] /= scale
                inv[col * 4 + k] /= scale
            }
            for r in 0..<4 where r != col {
                let f = a[r * 4 + col]
                guard f != 0 else { continue }
                for k in 0..<4 {
                    a[r * 4 + k] -= f * a[col * 4 + k]
                    inv[r * 4 + k] -= f * inv[col * 4 + k]
                }
            }
        }
        return inv
    }
}

/// A transform animation's path when either end is 3-D: both ends decomposed once, when the animation starts
/// (`DecomposedTransform`), and recomposed at each progress. A 2-D → 3-D animation is promoted to 3-D (CSS Transforms
/// Level 2 "Interpolation of 3D matrices"); two 2-D ends keep `AffinePath`.
struct TransformPath3D {
    let start: DecomposedTransform
    let end: DecomposedTransform

    /// Nil when both ends are 2-D affine (`AffinePath`'s case), or when either has no decomposition (then the
    /// animation goes entry by entry: segued's choice, because it stays continuous where CSS would jump half-way).
    init?(from: [Double], to: [Double]) { self.init(Transform3D(values: from), Transform3D(values: to)) }

    /// The same from the two matrices.
    init?(_ f: Transform3D, _ t: Transform3D) {
        guard !(f.isAffine && t.isAffine), let a = DecomposedTransform(f), let b = DecomposedTransform(t) else {
            return nil
        }
        start = a
        end = b
    }

    func at(_ p: Double) -> Transform3D { start.interpolated(to: end, p).transform }

    var closure: (Double) -> [Double] {
        let path = self
        return { p in path.at(p).values }
    }
}
