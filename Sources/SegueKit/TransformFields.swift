#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A transform's fields as Core Animation's transform key paths name them ("CATransform3D Key Paths", Core Animation
/// Programming Guide, Key-Value Coding Extensions): `rotation.x/.y/.z`, `scale.x/.y/.z`, `translation.x/.y/.z`, read
/// from and written back into the 3-D transform.
///
/// The fields are CSS Transforms Level 2's decomposition (`DecomposedTransform`: translation, scale, skew,
/// perspective) with its rotation as the Euler angles of Graphics Gems II's unmatrix (the algorithm CSS's is taken
/// from): R = Rx·Ry·Rz in row vectors, a point turned about x first, then y, then z, each as
/// CATransform3DMakeRotation turns it. Writing one field and recomposing leaves the others as they were: an
/// animation of `transform.rotation.y` over a model transform that is scaled and moved turns the view about y and
/// keeps its scale and position. CA does not publish how it takes a matrix apart for its key paths; this is the
/// published decomposition segued interpolates with (segued's choice).
struct TransformFields: Equatable {
    var translation: SIMD3<Double>
    var scale: SIMD3<Double>
    var skew: SIMD3<Double>
    var perspective: SIMD4<Double>
    /// Radians about x, y and z.
    var rotation: SIMD3<Double>

    /// The fields of `t`. A matrix with no decomposition (a scale of 0, m44 = 0) keeps its translation (m41, m42,
    /// m43) and the lengths of its first three rows as its scale, no rotation, skew or perspective (segued's
    /// choice, because CSS has no decomposition there and a zero scale is a common start of an animation).
    init(_ t: Transform3D) {
        if let d = DecomposedTransform(t) {
            translation = d.translation
            scale = d.scale
            skew = d.skew
            perspective = d.perspective
            rotation = TransformFields.angles(d.rotationRows)
            return
        }
        let m = t.values.map { $0.isFinite ? $0 : 0 }
        translation = SIMD3(m[12], m[13], m[14])
        func length(_ i: Int) -> Double { (m[i] * m[i] + m[i + 1] * m[i + 1] + m[i + 2] * m[i + 2]).squareRoot() }
        scale = SIMD3(length(0), length(4), length(8))
        skew = SIMD3(repeating: 0)
        perspective = SIMD4(0, 0, 0, 1)
        rotation = SIMD3(repeating: 0)
    }

    /// The transform the fields make (CSS "Recomposing to a 3D matrix", the rotation from the angles).
    var transform: Transform3D {
        DecomposedTransform.recompose(rotation: TransformFields.rows(rotation), scale: scale, skew: skew,
                                      translation: translation, perspective: perspective)
    }

    /// The rows of Rx·Ry·Rz (row vectors), each factor CATransform3DMakeRotation's. An angle of 0 gives exact
    /// zeros, so a turn about z alone stays a 2-D affine transform.
    static func rows(_ angles: SIMD3<Double>) -> (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>) {
        let cx = cos(angles.x), sx = sin(angles.x), cy = cos(angles.y), sy = sin(angles.y)
        let cz = cos(angles.z), sz = sin(angles.z)
        // Row i of Rx, times Ry, times Rz; Rx = [1 0 0; 0 cx sx; 0 −sx cx], Ry = [cy 0 −sy; 0 1 0; sy 0 cy],
        // Rz = [cz sz 0; −sz cz 0; 0 0 1].
        func times(_ v: SIMD3<Double>) -> SIMD3<Double> {
            let y = SIMD3(v.x * cy + v.z * sy, v.y, -v.x * sy + v.z * cy)
            return SIMD3(y.x * cz - y.y * sz, y.x * sz + y.y * cz, y.z)
        }
        return (times(SIMD3(1, 0, 0)), times(SIMD3(0, cx, sx)), times(SIMD3(0, -sx, cx)))
    }

    /// The angles of a rotation matrix's rows (Graphics Gems II, unmatrix): y = asin(−r13), x = atan2(r23, r33),
    /// z = atan2(r12, r11); at y = ±90° (x and z turn about the same axis) z is 0 and x takes the whole turn.
    static func angles(_ r: (SIMD3<Double>, SIMD3<Double>, SIMD3<Double>)) -> SIMD3<Double> {
        let (r0, r1, r2) = r
        let sy = min(max(-r0.z, -1), 1)
        let y = asin(sy)
        if abs(sy) < 1 - 1e-12 {
            return SIMD3(atan2(r1.z, r2.z), y, atan2(r0.y, r0.x))
        }
        return SIMD3(atan2(sy * r1.x, r1.y), y, 0)
    }
}
