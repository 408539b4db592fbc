#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueKit

/// A gradient view's CAGradientLayer in a picture: drawn over the view's background colour and under its subviews
/// and border, inside its rounded bounds, as CA draws a layer's contents. The paint is set up in the view's bounds
/// coordinates (`gradientUnits="userSpaceOnUse"` on an element placed by the view's `matrix(…)`), so the isolines of
/// an axial gradient stay perpendicular to its axis in points, as CGContextDrawLinearGradient draws them between the
/// two points CA maps out of the unit square:
/// - axial: an SVG `linearGradient` from `start_point` to `end_point` (scaled by the bounds);
/// - radial: a `radialGradient` of radius 1 stretched by `gradientTransform` into CA's ellipse centred at
///   `start_point` with semi-axes |end − start| (×bounds) along x and y;
/// - conic: SVG has no conic paint, so `conicWedges` fan-shaped slices, each a solid colour (the gradient's at the
///   slice's middle angle), from `start_point`'s angle towards `end_point`, clockwise on screen. The error at any
///   point is at most half a slice's turn times the steepest stop: |Δcolour| ≤ max|Δc/Δlocation| / (2 · 256) per
///   component, half an 8-bit step for a colour running 0 → 1 over the whole turn.
/// Under a perspective the paint goes through `ProjectedQuad.patches` (affine pieces within 0.5 px); a conic's
/// slices are projected corner by corner (a projection keeps their edges straight).
///
/// Colours interpolate per component, unpremultiplied (CGGradient's RGBA): where two stops' alphas differ the span
/// between them is cut into `alphaSteps` pieces computed here, so a renderer that interpolates premultiplied
/// (CSS does; librsvg may) draws the same within 1/`alphaSteps` of the step.
enum GradientDrawing {
    static let conicWedges = 256
    static let alphaSteps = 8

    static func draw(_ values: ViewValues, _ projection: Projection, id: String) -> String {
        guard let gradient = values.gradient, gradient.colorCount > 0 else { return "" }
        let b = values.bounds
        guard b.w > 0, b.h > 0 else { return "" }
        let radius = SceneDrawing.cornerRadius(values)
        if gradient.type == .conic { return conic(gradient, b, radius, projection, id: id) }
        let paint = self.paint(gradient, b, id: id)
        if projection.affine != nil {
            guard let shape = LayerLook.geometry(b, radius, projection) else { return "" }
            return "<defs>\(paint)</defs>" + shape + " fill=\"url(#\(id))\"/>\n"
        }
        // Perspective: the paint in affine patches of the bounds, clipped to the projected outline.
        guard let outline = LayerLook.geometry(b, radius, projection) else { return "" }
        // The patches are not anti-aliased against each other (crispEdges: each pixel goes to one patch, no light
        // seam where two translucent edges meet); the outline's clip keeps the view's own edge smooth.
        var out = "<defs>\(paint)<clipPath id=\"\(id)-clip\">\(outline)/></clipPath></defs>"
            + "<g clip-path=\"url(#\(id)-clip)\" shape-rendering=\"crispEdges\">"
        for p in ProjectedQuad.patches(b, projection) {
            let m = [p.a, p.b, p.c, p.d].map { SVG.num($0, 6) }.joined(separator: " ")
            out += "<rect x=\"\(SVG.num(p.cell.x))\" y=\"\(SVG.num(p.cell.y))\" width=\"\(SVG.num(p.cell.w))\" "
                + "height=\"\(SVG.num(p.cell.h))\" transform=\"matrix(\(m) \(SVG.num(p.e)) \(SVG.num(p.f)))\" "
                + "fill=\"url(#\(id))\"/>"
        }
        return out + "</g>\n"
    }

    /// The `linearGradient` or `radialGradient` element in bounds coordinates.
    static func paint(_ g: GradientValues, _ b: Rect, id: String) -> String {
        let s = point(g.startPoint, b), e = point(g.endPoint, b)
        let stops = svgStops(g)
        switch g.type {
        case .radial:
            let rx = abs(e.x - s.x), ry = abs(e.y - s.y)
            // A flat ellipse has no inside: everything is past its edge, in the last colour (CA pads the ends).
            let m = rx > 1e-9 && ry > 1e-9
                ? "\(SVG.num(rx, 4)) 0 0 \(SVG.num(ry, 4)) \(SVG.num(s.x, 4)) \(SVG.num(s.y, 4))"
                : "1e-9 0 0 1e-9 \(SVG.num(s.x, 4)) \(SVG.num(s.y, 4))"
            return "<radialGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" cx=\"0\" cy=\"0\" r=\"1\" "
                + "gradientTransform=\"matrix(\(m))\">\(stops)</radialGradient>"
        case .axial, .conic:
            return "<linearGradient id=\"\(id)\" gradientUnits=\"userSpaceOnUse\" x1=\"\(SVG.num(s.x, 4))\" "
                + "y1=\"\(SVG.num(s.y, 4))\" x2=\"\(SVG.num(e.x, 4))\" y2=\"\(SVG.num(e.y, 4))\">\(stops)</linearGradient>"
        }
    }

    /// A unit point of the bounds in bounds coordinates.
    static func point(_ u: Point, _ b: Rect) -> Point { Point(x: b.x + u.x * b.w, y: b.y + u.y * b.h) }

    /// The stops to draw: the gradient's, and between two whose alphas differ `alphaSteps − 1` more computed per
    /// component (so premultiplied and unpremultiplied interpolation agree).
    static func drawnStops(_ g: GradientValues) -> [(location: Double, color: Color)] {
        let stops = g.stops
        var out: [(location: Double, color: Color)] = []
        for (k, stop) in stops.enumerated() {
            if k > 0, abs(stops[k - 1].color.a - stop.color.a) > 1e-6, stop.location > stops[k - 1].location {
                let a = stops[k - 1].location
                for j in 1..<alphaSteps {
                    let t = a + (stop.location - a) * Double(j) / Double(alphaSteps)
                    out.append((t, g.color(at: t)))
                }
            }
            out.append(stop)
        }
        return out
    }

    static func svgStops(_ g: GradientValues) -> String {
        drawnStops(g).map { stop in
            let c = stop.color
            return "<stop offset=\"\(SVG.num(stop.location, 4))\" stop-color=\"\(Color(r: c.r, g: c.g, b: c.b).hex)\""
                + (c.a < 0.999 ? " stop-opacity=\"\(SVG.num(c.a, 3))\"" : "") + "/>"
        }.joined()
    }

    /// The conic gradient's slices, clipped to the view's rounded bounds.
    static func conic(_ g: GradientValues, _ b: Rect, _ radius: Double, _ projection: Projection, id: String) -> String {
        guard let outline = LayerLook.geometry(b, radius, projection) else { return "" }
        let c = point(g.startPoint, b), e = point(g.endPoint, b)
        let start = atan2(e.y - c.y, e.x - c.x)
        // Far enough to cover the bounds from the centre, wherever the centre is.
        var reach = 1.0
        for (x, y) in [(b.x, b.y), (b.x + b.w, b.y), (b.x, b.y + b.h), (b.x + b.w, b.y + b.h)] {
            reach = max(reach, ((x - c.x) * (x - c.x) + (y - c.y) * (y - c.y)).squareRoot() * 1.5)
        }
        let n = conicWedges
        let opaque = g.stops.allSatisfy { $0.color.a >= 0.999 }
        let affine = projection.affine
        var slices = ""
        for k in 0..<n {
            let a0 = start + 2 * Double.pi * Double(k) / Double(n)
            // Opaque slices overlap a little so no seam shows between them; translucent ones meet exactly.
            let a1 = start + 2 * Double.pi * (Double(k + 1) + (opaque && k + 1 < n ? 0.5 : 0)) / Double(n)
            let color = g.color(at: (Double(k) + 0.5) / Double(n))
            let fill = "fill=\"\(Color(r: color.r, g: color.g, b: color.b).hex)\""
                + (color.a < 0.999 ? " fill-opacity=\"\(SVG.num(color.a, 3))\"" : "")
            let triangle = [(c.x, c.y), (c.x + reach * cos(a0), c.y + reach * sin(a0)),
                            (c.x + reach * cos(a1), c.y + reach * sin(a1))]
            let points = affine != nil ? triangle : ProjectedQuad.projected(triangle, projection)
            guard points.count >= 3 else { continue }
            var d = ""
            for (j, p) in points.enumerated() { d += (j == 0 ? "M" : "L") + SVG.num(p.0, 3) + " " + SVG.num(p.1, 3) }
            slices += "<path d=\"\(d)Z\" \(fill)/>"
        }
        var out = "<defs><clipPath id=\"\(id)-clip\">\(outline)/></clipPath></defs>"
        if let m = affine {
            // The slices in bounds coordinates under the view's matrix; the clip path in the group's user space is
            // the outline without its own transform.
            let linear = [m.a, m.b, m.c, m.d].map { SVG.num($0, 6) }.joined(separator: " ")
            let plain = LayerLook.geometry(b, radius, .translation(0, 0)) ?? "<rect width=\"0\" height=\"0\""
            out = "<defs><clipPath id=\"\(id)-clip\">\(plain)/></clipPath></defs>"
                + "<g transform=\"matrix(\(linear) \(SVG.num(m.e)) \(SVG.num(m.f)))\" clip-path=\"url(#\(id)-clip)\">"
        } else {
            out += "<g clip-path=\"url(#\(id)-clip)\">"
        }
        return out + slices + "</g>\n"
    }
}
