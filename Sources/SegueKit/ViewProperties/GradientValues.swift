/// CAGradientLayer.type (developer.apple.com/documentation/quartzcore/cagradientlayertype).
public enum GradientType: String, Sendable, CaseIterable {
    /// kCAGradientLayerAxial: "Axial gradient (also called a linear gradient)", varying along the line from
    /// `startPoint` to `endPoint`.
    case axial
    /// kCAGradientLayerRadial: "Radial gradient. The gradient is defined as an ellipse with its center at
    /// startPoint and its width and height defined by (endPoint.x - startPoint.x) * 2 and (endPoint.y -
    /// startPoint.y) * 2 respectively."
    case radial
    /// kCAGradientLayerConic (QuartzCore's CAGradientLayer.h): "Conic gradient. The gradient is centered at
    /// 'startPoint' and its 0-degrees direction is defined by a vector spanned between 'startPoint' and 'endPoint'.
    /// When 'startPoint' and 'endPoint' overlap the results are undefined. The gradient's angle increases in the
    /// direction of the positive y-axis" — clockwise on a y-down screen; the locations go round once.
    case conic

    /// The value stored for the type (the `type` property's one channel).
    public var code: Double { Double(GradientType.allCases.firstIndex(of: self) ?? 0) }

    /// The type stored as `code`.
    public init?(code: Double) {
        guard code.isFinite, let i = Int(exactly: code), GradientType.allCases.indices.contains(i) else { return nil }
        self = GradientType.allCases[i]
    }
}

/// The values of a gradient view (`segue.gradient_view`, a view drawn by a CAGradientLayer), kept beside the fixed
/// channels (`ViewValues.gradient`, nil for every other view: a view without a gradient carries one nil word and
/// pays nothing per frame). Each part is a property of the view-property table with `.gradient` storage; `values(of:)`
/// and `set(_:_:)` read and write a part as the flat doubles the animations interpolate.
///
/// Semantics are CAGradientLayer's (developer.apple.com/documentation/quartzcore/cagradientlayer): `startPoint` and
/// `endPoint` in the unit coordinate space of the bounds (defaults (0.5, 0) and (0.5, 1)); `locations` nil for stops
/// spread uniformly, else "monotonically increasing" values in 0…1; colours interpolated per component (RGBA).
public struct GradientValues: Sendable, Equatable {
    public var type: GradientType
    /// Red, green, blue, alpha of each colour, end to end (4 per colour).
    public var colors: [Double]
    /// Each colour's stop in 0…1, ascending; empty for CA's nil (spread uniformly). Never more than the colours.
    public var locations: [Double]
    /// CAGradientLayer.startPoint, unit coordinates of the bounds.
    public var startPoint: Point
    /// CAGradientLayer.endPoint, unit coordinates of the bounds.
    public var endPoint: Point

    public static let defaultStart = Point(x: 0.5, y: 0)
    public static let defaultEnd = Point(x: 0.5, y: 1)

    public init(type: GradientType = .axial, colors: [Color] = [], locations: [Double] = [],
                startPoint: Point = GradientValues.defaultStart, endPoint: Point = GradientValues.defaultEnd)
    {
        self.type = type
        self.colors = colors.flatMap { [$0.r, $0.g, $0.b, $0.a] }
        self.locations = locations
        self.startPoint = startPoint
        self.endPoint = endPoint
    }

    /// How many colours.
    public var colorCount: Int { colors.count / 4 }

    /// The colour at `i`.
    public func color(_ i: Int) -> Color {
        Color(r: colors[4 * i], g: colors[4 * i + 1], b: colors[4 * i + 2], a: colors[4 * i + 3])
    }

    /// The stops drawn: each colour at its location (or spread uniformly, the first at 0 and the last at 1, when
    /// `locations` is nil). With fewer locations than colours, the colours past the last location are not drawn
    /// (segued's choice: CA does not publish what it does, and a CGGradient takes one location per colour). A
    /// presentation value is clamped into 0…1 and made non-decreasing here (a spring may overshoot on the way).
    public var stops: [(location: Double, color: Color)] {
        let n = colorCount
        guard n > 0 else { return [] }
        if locations.isEmpty {
            return (0..<n).map { (n > 1 ? Double($0) / Double(n - 1) : 0, pinned(color($0))) }
        }
        var out: [(location: Double, color: Color)] = []
        var last = 0.0
        for i in 0..<min(n, locations.count) {
            let l = max(last, min(max(locations[i].isFinite ? locations[i] : 0, 0), 1))
            out.append((l, pinned(color(i))))
            last = l
        }
        return out
    }

    /// The colour the gradient has at position `t` along its axis (0 at the start, 1 at the end): the stops'
    /// colours interpolated per component, the first before the first stop and the last after the last (CA and
    /// CGGradient extend the end colours).
    public func color(at t: Double) -> Color {
        let s = stops
        guard let first = s.first, let last = s.last else { return .clear }
        if t <= first.location { return first.color }
        if t >= last.location { return last.color }
        var i = 0
        while i < s.count - 2, t >= s[i + 1].location { i += 1 }
        let a = s[i], b = s[i + 1]
        let span = b.location - a.location
        let f = span > 0 ? (t - a.location) / span : 1
        return Color(r: a.color.r + (b.color.r - a.color.r) * f, g: a.color.g + (b.color.g - a.color.g) * f,
                     b: a.color.b + (b.color.b - a.color.b) * f, a: a.color.a + (b.color.a - a.color.a) * f)
    }

    private func pinned(_ c: Color) -> Color {
        func p(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 0 }
        return Color(r: p(c.r), g: p(c.g), b: p(c.b), a: p(c.a))
    }

    /// The part `property` stores, as flat doubles: the colours' 4 per colour, the locations (none for nil), a
    /// point's 2, the type's code.
    public func values(of property: ViewProperty) -> [Double] {
        switch property {
        case .colors: colors
        case .locations: locations
        case .startPoint: [startPoint.x, startPoint.y]
        case .endPoint: [endPoint.x, endPoint.y]
        case .gradientType: [type.code]
        default: []
        }
    }

    /// Sets the part `property` stores from flat doubles (as `values(of:)` gives them; already checked).
    public mutating func set(_ property: ViewProperty, _ values: some Collection<Double>) {
        let v = Array(values)
        switch property {
        case .colors: colors = v
        case .locations: locations = v
        case .startPoint where v.count >= 2: startPoint = Point(x: v[0], y: v[1])
        case .endPoint where v.count >= 2: endPoint = Point(x: v[0], y: v[1])
        case .gradientType: if let t = v.first.flatMap(GradientType.init(code:)) { type = t }
        default: break
        }
    }
}

/// Why a gradient value a plugin writes is refused: said after the property's name (`view.locations[3] …`).
public enum GradientCheck {
    /// `message` without its " (the write did not happen)" (an animation's value is not a write).
    public static func bare(_ message: String) -> String {
        let tail = " (the write did not happen)"
        return message.hasSuffix(tail) ? String(message.dropLast(tail.count)) : message
    }

    /// The most colours (and locations) a gradient takes: what a picture can draw and a frame event carry.
    public static let maxStops = 1_000

    /// Nil when `colors` (4 per colour) may be a gradient's colours with `locations`, else why not.
    public static func colorsRefusal(_ colors: [Double], locations: [Double]) -> String? {
        let n = colors.count / 4
        if n == 0 { return "view.colors expects at least one colour, got an empty list (the write did not happen)" }
        if n > maxStops { return "view.colors has \(n) colours, more than \(maxStops) (the write did not happen)" }
        if locations.count > n {
            return "view.colors has \(n) colour\(n == 1 ? "" : "s") but view.locations has \(locations.count): "
                + "more locations than colours (set locations first, or to nil; the write did not happen)"
        }
        return nil
    }

    /// Nil when `locations` may be the locations of `colorCount` colours, else why not (CAGradientLayer.locations:
    /// "The gradient stops are specified as values between 0 and 1. The values must be monotonically increasing.").
    public static func locationsRefusal(_ locations: [Double], colorCount: Int) -> String? {
        for (i, l) in locations.enumerated() {
            guard l.isFinite, l >= 0, l <= 1 else {
                return "view.locations[\(i + 1)] must be in 0…1, got \(ModelRange.text(l)) (the write did not happen)"
            }
            if i > 0, l < locations[i - 1] {
                return "view.locations[\(i + 1)] = \(ModelRange.text(l)) is less than locations[\(i)] = "
                    + "\(ModelRange.text(locations[i - 1])): locations must ascend (the write did not happen)"
            }
        }
        if locations.count > colorCount {
            return "view.locations has \(locations.count) entries but view.colors has \(colorCount): more locations "
                + "than colours (the write did not happen)"
        }
        return nil
    }
}

extension GradientValues {
    /// The path of an animation between two lists of different lengths (colours or locations): no per-component
    /// interpolation exists, so the value jumps from the first list to the second half-way through. Core Animation
    /// does not publish what it does; segued's choice is the Web Animations rule for values that cannot be
    /// interpolated ("discrete" animation: the from value for progress < 0.5, the to value from 0.5 on; W3C Web
    /// Animations Level 1, §5.3 "Animation types" as CSS Values and Units Level 4 §3.3 applies it), so a picture
    /// and a frame event say exactly when it changes.
    public static func discretePath(from: [Double], to: [Double]) -> (Double) -> [Double] {
        { p in p < 0.5 ? from : to }
    }
}

extension GradientValues {
    /// Where the point `p` (bounds coordinates) lies along an axial gradient in `bounds`: 0 at the start point, 1 at
    /// the end point, by the projection onto the axis in points (CGContextDrawLinearGradient between the two points
    /// CA maps out of the unit square: the isolines are perpendicular to the axis on screen). `color(at:)` of it is
    /// the colour CA draws there.
    public func axialPosition(of p: Point, in bounds: Rect) -> Double {
        let sx = bounds.x + startPoint.x * bounds.w, sy = bounds.y + startPoint.y * bounds.h
        let dx = (endPoint.x - startPoint.x) * bounds.w, dy = (endPoint.y - startPoint.y) * bounds.h
        let length = dx * dx + dy * dy
        guard length > 0 else { return 1 }
        return ((p.x - sx) * dx + (p.y - sy) * dy) / length
    }
}
