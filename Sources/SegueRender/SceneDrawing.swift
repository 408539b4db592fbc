#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueKit

/// Draws one instant of a timeline as SVG elements in scene coordinates: every view at its presentation frame,
/// transform (3-D ones projected), alpha, color and corner radius, superviews before subviews, siblings back to
/// front (by `z`, then order), hidden views and their subviews left out. Each view is a
/// `<g class="view" data-view="id" opacity="alpha">` holding its shape and its subviews, so alpha multiplies down
/// the tree as in UIKit.
enum SceneDrawing {
    static func draw(_ sample: Timeline.Sample, origin: Point, labelSize: Double, labels: Bool,
                     idPrefix: String = "d") -> String {
        draw(views: sample.views, origin: origin, labelSize: labelSize, labels: labels, idPrefix: idPrefix)
    }

    /// The same for views given one by one (`StateDrawing`: a recorded frame's views).
    static func draw(views: [Timeline.ViewSample], origin: Point, labelSize: Double, labels: Bool,
                     idPrefix: String = "d") -> String {
        var children = [[Int]](repeating: [], count: views.count)
        var roots: [Int] = []
        for (i, view) in views.enumerated() {
            if view.parent >= 0, view.parent < views.count {
                children[view.parent].append(i)
            } else if view.parent != Timeline.Structure.maskParent {  // a mask view is drawn only as a mask
                roots.append(i)
            }
        }
        var out = ""
        var placed: [Label] = []
        func walk(_ i: Int, _ parent: Projection, opacity: Double, depth: Int) {
            let view = views[i]
            guard !view.hidden, depth <= Scene.maxViewDepth else { return }
            let values = view.values
            let alpha = clamp(values.alpha)
            let superview = view.parent >= 0 && view.parent < views.count ? views[view.parent].values : nil
            let projection = Projection.view(values, z: view.z, parent: superview).then(parent)
            // CALayer.doubleSided = false: a layer turned away is not drawn, nor what is flattened into it.
            if !values.doubleSided, ProjectedQuad.facesBack(projection) { return }
            // CALayer.mask: the view and its subviews (and its shadow) drawn through its mask view's alpha.
            var masked = ""
            if view.mask >= 0, view.mask < views.count {
                let mask = views[view.mask]
                let id = "\(idPrefix)-mask-\(i)"
                out += LayerLook.mask(mask.values, z: mask.z, hidden: mask.hidden, of: values, projection, id: id)
                masked = " mask=\"url(#\(id))\""
            }
            out += "<g class=\"view\" data-view=\"\(SVG.escape(view.id))\" opacity=\"\(SVG.num(alpha, 4))\"\(masked)>"
            out += LayerLook.shadow(values, projection, id: "\(idPrefix)-shadow-\(i)")
            out += shape(values, projection)
            if values.gradient != nil { out += GradientDrawing.draw(values, projection, id: "\(idPrefix)-gradient-\(i)") }
            // Named views only (not the engine's v-N, e.g. a flip's snapshot), and only the ones at least half
            // visible, so two views cross-fading over each other never print their names on top of each other.
            if labels, depth > 0, opacity * alpha >= 0.5, !isAutomaticID(view.id),
                let label = label(view.id, values, projection, size: labelSize)
            {
                placed.append(label)
            }
            out += "\n"
            let order = children[i].enumerated().sorted { l, r in
                views[l.element].z != views[r.element].z ? views[l.element].z < views[r.element].z : l.offset < r.offset
            }
            let clip = LayerLook.clip(values, projection, id: "\(idPrefix)-clip-\(i)")
            if let clip, !order.isEmpty { out += clip + "<g clip-path=\"url(#\(idPrefix)-clip-\(i))\">\n" }
            for (_, child) in order { walk(child, projection, opacity: opacity * alpha, depth: depth + 1) }
            if clip != nil, !order.isEmpty { out += "</g>\n" }
            out += LayerLook.border(values, projection)
            out += "</g>\n"
        }
        for root in roots { walk(root, .translation(origin.x, origin.y), opacity: 1, depth: 0) }
        // Labels go on top of every view; where two would overlap, the front view's wins.
        var kept: [Label] = []
        for label in placed.reversed()
        where !kept.contains(where: { abs($0.x - label.x) < labelSize * 4 && abs($0.y - label.y) < labelSize * 1.5 }) {
            kept.append(label)
        }
        for label in kept.reversed() {
            out += "<text class=\"label\" x=\"\(SVG.num(label.x))\" y=\"\(SVG.num(label.y + labelSize * 0.35))\" "
                + "font-size=\"\(SVG.num(labelSize))\" text-anchor=\"middle\" fill=\"\(label.ink)\">"
                + SVG.escape(label.text) + "</text>\n"
        }
        return out
    }

    /// How each property of the view-property table shows in a picture. The switch is exhaustive on purpose: a
    /// new property does not compile until it is drawn (or said not to show). Pictures clamp what the presentation
    /// reports raw (an overshooting alpha, a negative radius).
    static func drawing(of property: ViewProperty) -> String {
        switch property {
        case .center, .bounds, .transform: "placement: the view's projection (`Projection.view`) and its rect"
        case .alpha: "the group's opacity, clamped to 0…1 (`clamp`)"
        case .color: "the fill and its opacity (`shape`)"
        case .cornerRadius: "the rect's rx, clamped to 0…half the shorter side (`shape`)"
        case .z: "the order among siblings (`draw`), and the depth of its position under a perspective"
        case .hidden: "left out, with its subviews (`draw`)"
        case .anchorPoint, .position, .sublayerTransform:
            "placement: the view's projection about its anchor point, the superview's sublayer transform (`Projection.view`)"
        case .doubleSided: "turned away and not double-sided: left out, with its subviews (`ProjectedQuad.facesBack`)"
        case .borderWidth, .borderColor: "a stroke inside the bounds' rounded rect (`LayerLook.border`)"
        case .shadowColor, .shadowOpacity, .shadowRadius, .shadowOffset:
            "a blurred copy of the view's shape under it (`LayerLook.shadow`: feGaussianBlur, σ = radius / 2)"
        case .clipsToBounds: "the subviews inside a clipPath of the rounded bounds (`LayerLook.clip`)"
        case .colors, .locations, .startPoint, .endPoint, .gradientType:
            "a gradient view's paint over its colour (`GradientDrawing`: linearGradient, radialGradient, conic slices)"
        }
    }

    /// `v-12`: an id the engine made up for a view nobody named.
    static func isAutomaticID(_ id: String) -> Bool {
        id.hasPrefix("v-") && id.count > 2 && id.dropFirst(2).allSatisfy(\.isNumber)
    }

    static func clamp(_ v: Double) -> Double { v.isFinite ? min(max(v, 0), 1) : 1 }

    /// The corner radius as drawn: 0…half the shorter side.
    static func cornerRadius(_ values: ViewValues) -> Double {
        let b = values.bounds
        return min(max(values.cornerRadius, 0), max(b.w, 0) / 2, max(b.h, 0) / 2)
    }

    /// The view's rounded rectangle: an SVG `rect` under `matrix(…)` when the map is affine, else the outline
    /// projected point by point. Clear views draw nothing (their subviews still do).
    static func shape(_ values: ViewValues, _ projection: Projection) -> String {
        let color = values.color
        guard color.a > 0.001 else { return "" }
        let b = values.bounds
        guard b.w > 0, b.h > 0 else { return "" }
        let radius = cornerRadius(values)
        let fill = "fill=\"\(Color(r: color.r, g: color.g, b: color.b).hex)\""
            + (color.a < 0.999 ? " fill-opacity=\"\(SVG.num(color.a, 3))\"" : "")
        if let m = projection.affine {
            var rect = "<rect x=\"\(SVG.num(b.x))\" y=\"\(SVG.num(b.y))\" width=\"\(SVG.num(b.w))\" height=\"\(SVG.num(b.h))\""
            if radius > 0 { rect += " rx=\"\(SVG.num(radius))\"" }
            let isTranslation = abs(m.a - 1) < 1e-9 && abs(m.b) < 1e-9 && abs(m.c) < 1e-9 && abs(m.d - 1) < 1e-9
            if isTranslation {
                if abs(m.e) > 1e-9 || abs(m.f) > 1e-9 { rect += " transform=\"translate(\(SVG.num(m.e)) \(SVG.num(m.f)))\"" }
            } else {
                let linear = [m.a, m.b, m.c, m.d].map { SVG.num($0, 6) }.joined(separator: " ")
                rect += " transform=\"matrix(\(linear) \(SVG.num(m.e)) \(SVG.num(m.f)))\""
            }
            return rect + " \(fill)/>"
        }
        // Projected corner by corner (straight lines stay straight under a projection: the outline is exact),
        // clipped at the eye plane: the part in front of the eye is drawn, as Core Animation draws it.
        let points = ProjectedQuad.projected(outline(b, radius: radius), projection)
        guard points.count >= 3 else { return "" }
        var d = ""
        for (k, p) in points.enumerated() { d += (k == 0 ? "M" : "L") + SVG.num(p.0) + " " + SVG.num(p.1) }
        return "<path d=\"\(d)Z\" \(fill)/>"
    }

    /// The outline of a rounded rectangle as points (straight corners are one point; round ones eight).
    static func outline(_ b: Rect, radius: Double) -> [(Double, Double)] {
        guard radius > 0 else { return [(b.x, b.y), (b.x + b.w, b.y), (b.x + b.w, b.y + b.h), (b.x, b.y + b.h)] }
        var points: [(Double, Double)] = []
        let corners: [(Double, Double, Double)] = [
            (b.x + b.w - radius, b.y + radius, -Double.pi / 2), (b.x + b.w - radius, b.y + b.h - radius, 0),
            (b.x + radius, b.y + b.h - radius, Double.pi / 2), (b.x + radius, b.y + radius, Double.pi),
        ]
        for (cx, cy, a0) in corners {
            for k in 0...7 {
                let a = a0 + Double(k) / 7 * Double.pi / 2
                points.append((cx + radius * cos(a), cy + radius * sin(a)))
            }
        }
        return points
    }

    struct Label {
        let x: Double, y: Double
        let text: String
        let ink: String
    }

    /// The view's id at its projected centre, in black or white against its color; nil when the view is too thin
    /// on screen to hold it.
    static func label(_ id: String, _ values: ViewValues, _ projection: Projection, size: Double) -> Label? {
        let color = values.color
        guard color.a > 0.2 else { return nil }
        let b = values.bounds
        guard let c = projection.apply(b.x + b.w / 2, b.y + b.h / 2),
            let l = projection.apply(b.x, b.y + b.h / 2), let r = projection.apply(b.x + b.w, b.y + b.h / 2),
            let t = projection.apply(b.x + b.w / 2, b.y), let u = projection.apply(b.x + b.w / 2, b.y + b.h)
        else { return nil }
        let width = ((r.x - l.x) * (r.x - l.x) + (r.y - l.y) * (r.y - l.y)).squareRoot()
        let height = ((u.x - t.x) * (u.x - t.x) + (u.y - t.y) * (u.y - t.y)).squareRoot()
        let text = id.hasSuffix(".view") ? String(id.dropLast(5)) : id
        guard width > size * Double(max(2, text.count)) * 0.7, height > size * 1.5 else { return nil }
        let luminance = 0.2126 * color.r + 0.7152 * color.g + 0.0722 * color.b
        return Label(x: c.x, y: c.y, text: text, ink: luminance > 0.55 ? "#1c1c1e" : "#ffffff")
    }
}
