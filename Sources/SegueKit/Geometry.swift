#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A point in scene coordinates (points, y down, as UIKit).
public struct Point: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public init(x: Double, y: Double) { self.x = x; self.y = y }
    public static let zero = Point(x: 0, y: 0)
}

public struct Size: Sendable, Equatable {
    public var w: Double
    public var h: Double
    public init(w: Double, h: Double) { self.w = w; self.h = h }
    public static let zero = Size(w: 0, h: 0)
}

/// A rectangle as CGRect: origin and size.
public struct Rect: Sendable, Equatable {
    public var x: Double
    public var y: Double
    public var w: Double
    public var h: Double
    public init(x: Double, y: Double, w: Double, h: Double) { self.x = x; self.y = y; self.w = w; self.h = h }
    public static let zero = Rect(x: 0, y: 0, w: 0, h: 0)

    public var size: Size { Size(w: w, h: h) }
    public var mid: Point { Point(x: x + w / 2, y: y + h / 2) }

    /// CGRectOffset.
    public func offsetBy(dx: Double, dy: Double) -> Rect { Rect(x: x + dx, y: y + dy, w: w, h: h) }

    /// UIEdgeInsetsInsetRect.
    public func inset(top: Double, left: Double, bottom: Double, right: Double) -> Rect {
        Rect(x: x + left, y: y + top, w: w - left - right, h: h - top - bottom)
    }
}

/// A 4x4 transform, row-major m11…m44, as CATransform3D. A 2-D affine transform (a, b, c, d, tx, ty) is the
/// matrix with m11 = a, m12 = b, m21 = c, m22 = d, m41 = tx, m42 = ty, as CATransform3DMakeAffineTransform.
public struct Transform3D: Sendable, Equatable {
    public var m: (Double, Double, Double, Double, Double, Double, Double, Double,
                   Double, Double, Double, Double, Double, Double, Double, Double)

    public static let identity = Transform3D(values: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])

    /// From 16 row-major values; anything but 16 values gives the identity.
    public init(values: [Double]) {
        guard values.count == 16 else {
            m = (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1)
            return
        }
        m = (values[0], values[1], values[2], values[3], values[4], values[5], values[6], values[7],
             values[8], values[9], values[10], values[11], values[12], values[13], values[14], values[15])
    }

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        m = (a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1)
    }

    public static func translation(_ tx: Double, _ ty: Double) -> Transform3D {
        Transform3D(a: 1, b: 0, c: 0, d: 1, tx: tx, ty: ty)
    }

    public var values: [Double] {
        [m.0, m.1, m.2, m.3, m.4, m.5, m.6, m.7, m.8, m.9, m.10, m.11, m.12, m.13, m.14, m.15]
    }

    /// True when the matrix is a 2-D affine transform (CATransform3DIsAffine).
    public var isAffine: Bool {
        m.2 == 0 && m.3 == 0 && m.6 == 0 && m.7 == 0 && m.8 == 0 && m.9 == 0 && m.10 == 1 && m.11 == 0
            && m.14 == 0 && m.15 == 1
    }

    public var isIdentity: Bool { self == .identity }

    public var affine: (a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        (m.0, m.1, m.4, m.5, m.12, m.13)
    }

    public static func == (l: Transform3D, r: Transform3D) -> Bool { l.values == r.values }

    /// CATransform3DConcat(a, b): `a` then `b` (row vectors, p' = p·a·b).
    public static func concat(_ a: Transform3D, _ b: Transform3D) -> Transform3D {
        let p = a.values, q = b.values
        var r = [Double](repeating: 0, count: 16)
        for i in 0..<4 {
            for j in 0..<4 {
                var sum = 0.0
                for k in 0..<4 { sum += p[i * 4 + k] * q[k * 4 + j] }
                r[i * 4 + j] = sum
            }
        }
        return Transform3D(values: r)
    }

    /// CATransform3DMakeRotation(angle, x, y, z).
    public static func rotation(_ angle: Double, _ x: Double, _ y: Double, _ z: Double) -> Transform3D {
        let length = (x * x + y * y + z * z).squareRoot()
        guard length > 0 else { return .identity }
        let x = x / length, y = y / length, z = z / length
        let c = cos(angle), s = sin(angle), t = 1 - c
        return Transform3D(values: [
            c + t * x * x, t * x * y + s * z, t * x * z - s * y, 0,
            t * x * y - s * z, c + t * y * y, t * y * z + s * x, 0,
            t * x * z + s * y, t * y * z - s * x, c + t * z * z, 0,
            0, 0, 0, 1,
        ])
    }

    /// The perspective of a flip: m34 = −1/d (d = 500 for UIKit's flips).
    public static func perspective(_ d: Double) -> Transform3D {
        Transform3D(values: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -1 / d, 0, 0, 0, 1])
    }

    public static func translation3D(_ tx: Double, _ ty: Double, _ tz: Double) -> Transform3D {
        Transform3D(values: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, tx, ty, tz, 1])
    }

    /// Applies the transform to a point (x, y, 0, 1) with the perspective divide.
    public func apply(_ p: Point) -> Point {
        let x = p.x * m.0 + p.y * m.4 + m.12
        let y = p.x * m.1 + p.y * m.5 + m.13
        let w = p.x * m.3 + p.y * m.7 + m.15
        guard w != 0 else { return Point(x: x, y: y) }
        return Point(x: x / w, y: y / w)
    }
}

/// An RGBA color with components in 0…1.
public struct Color: Sendable, Equatable {
    public var r: Double
    public var g: Double
    public var b: Double
    public var a: Double
    public init(r: Double, g: Double, b: Double, a: Double = 1) { self.r = r; self.g = g; self.b = b; self.a = a }
    public static let clear = Color(r: 0, g: 0, b: 0, a: 0)
    public static let white = Color(r: 1, g: 1, b: 1, a: 1)

    /// Parses `#rrggbb` or `#rrggbbaa`.
    public init?(hex: String) {
        let utf8 = Array(hex.utf8)
        guard utf8.first == UInt8(ascii: "#"), utf8.count == 7 || utf8.count == 9 else { return nil }
        var components: [Double] = []
        var i = 1
        while i < utf8.count {
            guard let hi = Color.hexDigit(utf8[i]), let lo = Color.hexDigit(utf8[i + 1]) else { return nil }
            components.append(Double(hi * 16 + lo) / 255)
            i += 2
        }
        self.init(r: components[0], g: components[1], b: components[2], a: components.count == 4 ? components[3] : 1)
    }

    private static func hexDigit(_ c: UInt8) -> Int? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// `#rrggbb`, or `#rrggbbaa` when not opaque.
    public var hex: String {
        func byte(_ v: Double) -> String {
            let n = Int((min(max(v, 0), 1) * 255).rounded())
            let s = String(n, radix: 16)
            return n < 16 ? "0" + s : s
        }
        let rgb = "#" + byte(r) + byte(g) + byte(b)
        return Int((min(max(a, 0), 1) * 255).rounded()) == 255 ? rgb : rgb + byte(a)
    }
}
