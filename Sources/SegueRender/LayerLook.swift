import SegueKit

/// How a layer's look shows in a picture: its shadow (under the view), its border (over the view and its subviews,
/// as CALayer composites it) and the clip of its subviews (`clips_to_bounds`). Each returns SVG in scene
/// coordinates, placed by the view's projection as `SceneDrawing.shape` places the view's own rect; `id` is unique in
/// the document (a filter's or a clip path's name).
enum LayerLook {
    /// The shadow: the view's rounded rect offset by `shadow_offset`, filled with `shadow_color` at
    /// `shadow_opacity` and blurred with a Gaussian of σ = `shadow_radius` / 2. Core Animation does not publish its
    /// blur; σ = radius / 2 is CSS's rule for a blur radius (W3C CSS Backgrounds and Borders 3, §7.1 "box-shadow":
    /// "a Gaussian blur with a standard deviation equal to half the blur radius"), segued's choice because it is
    /// what a browser draws for the same number. CA draws the shadow of the layer's composited alpha; the picture
    /// takes the view's own rounded rect (its subviews' shapes are not added). Not drawn when `clips_to_bounds` is
    /// set: masksToBounds clips the layer's shadow too.
    static func shadow(_ values: ViewValues, _ projection: Projection, id: String) -> String {
        let opacity = SceneDrawing.clamp(values.shadowOpacity) * SceneDrawing.clamp(values.shadowColor.a)
        guard opacity > 0.001, !values.clipsToBounds else { return "" }
        let b = values.bounds
        guard b.w > 0, b.h > 0 else { return "" }
        let offset = values.shadowOffset
        let shifted = Rect(x: b.x + offset.w, y: b.y + offset.h, w: b.w, h: b.h)
        let radius = max(values.shadowRadius, 0)
        let sigma = radius / 2
        let c = values.shadowColor
        let fill = "fill=\"\(Color(r: c.r, g: c.g, b: c.b).hex)\" fill-opacity=\"\(SVG.num(opacity, 3))\""
        guard let outline = geometry(shifted, SceneDrawing.cornerRadius(values), projection) else { return "" }
        guard sigma > 0.001 else { return outline + " \(fill)/>" }
        // The filter works in the user space of the shape it blurs (the view's bounds under its affine map, or the
        // scene for a projected path): its region is the shape's bounding box grown by 3σ on every side.
        let filter = "<filter id=\"\(id)\" x=\"-50%\" y=\"-50%\" width=\"200%\" height=\"200%\">"
            + "<feGaussianBlur stdDeviation=\"\(SVG.num(sigma, 3))\"/></filter>"
        return "<defs>\(filter)</defs>" + outline + " \(fill) filter=\"url(#\(id))\"/>"
    }

    /// The border: CALayer draws it inside the bounds, following the corner radius, over the layer's contents and
    /// sublayers (CALayer.borderWidth: "When this value is greater than 0.0, the layer draws a border using the
    /// current borderColor value. The border is drawn inset from the receiver's bounds by the value specified in
    /// this property. It is composited above the receiver's contents and sublayers"). A stroke of that width along
    /// the rect inset by half of it.
    static func border(_ values: ViewValues, _ projection: Projection) -> String {
        let c = values.borderColor
        let b = values.bounds
        let width = min(max(values.borderWidth, 0), b.w / 2, b.h / 2)
        guard width > 0.001, c.a > 0.001, b.w > 0, b.h > 0 else { return "" }
        let inset = Rect(x: b.x + width / 2, y: b.y + width / 2, w: b.w - width, h: b.h - width)
        let radius = max(SceneDrawing.cornerRadius(values) - width / 2, 0)
        guard let outline = geometry(inset, radius, projection) else { return "" }
        let stroke = "fill=\"none\" stroke=\"\(Color(r: c.r, g: c.g, b: c.b).hex)\""
            + (c.a < 0.999 ? " stroke-opacity=\"\(SVG.num(c.a, 3))\"" : "")
        // A projected path is in scene coordinates: its stroke width is the border's, scaled as the map scales
        // the view at its centre (an affine rect's stroke scales with its matrix by itself).
        let scale = projection.affine == nil ? projectedScale(b, projection) : 1
        return outline + " \(stroke) stroke-width=\"\(SVG.num(width * scale, 3))\" class=\"border\"/>"
    }

    /// The clip path of a view whose `clips_to_bounds` is set: its rounded bounds, projected, in scene
    /// coordinates (its subviews are drawn there). Nil when nothing clips.
    static func clip(_ values: ViewValues, _ projection: Projection, id: String) -> String? {
        guard values.clipsToBounds else { return nil }
        let b = values.bounds
        let outline = geometry(b, SceneDrawing.cornerRadius(values), projection) ?? "<rect width=\"0\" height=\"0\""
        return "<defs><clipPath id=\"\(id)\">\(outline)/></clipPath></defs>"
    }

    /// An unclosed `<rect …` or `<path …` of a rounded rect in the view's coordinates placed by `projection` (the
    /// caller adds its paint and closes it); nil when part of it is behind the eye.
    static func geometry(_ b: Rect, _ radius: Double, _ projection: Projection) -> String? {
        let r = min(max(radius, 0), max(b.w, 0) / 2, max(b.h, 0) / 2)
        if let m = projection.affine {
            var rect = "<rect x=\"\(SVG.num(b.x))\" y=\"\(SVG.num(b.y))\" width=\"\(SVG.num(max(b.w, 0)))\" "
                + "height=\"\(SVG.num(max(b.h, 0)))\""
            if r > 0 { rect += " rx=\"\(SVG.num(r))\"" }
            let linear = [m.a, m.b, m.c, m.d].map { SVG.num($0, 6) }.joined(separator: " ")
            return rect + " transform=\"matrix(\(linear) \(SVG.num(m.e)) \(SVG.num(m.f)))\""
        }
        var d = ""
        for (k, (x, y)) in SceneDrawing.outline(b, radius: r).enumerated() {
            guard let p = projection.apply(x, y) else { return nil }
            d += (k == 0 ? "M" : "L") + SVG.num(p.x) + " " + SVG.num(p.y)
        }
        return "<path d=\"\(d)Z\""
    }

    /// How much the map scales a unit length at the rect's centre (the mean of its two axes).
    static func projectedScale(_ b: Rect, _ projection: Projection) -> Double {
        let cx = b.x + b.w / 2, cy = b.y + b.h / 2
        guard let c = projection.apply(cx, cy), let x = projection.apply(cx + 1, cy), let y = projection.apply(cx, cy + 1)
        else { return 1 }
        let sx = ((x.x - c.x) * (x.x - c.x) + (x.y - c.y) * (x.y - c.y)).squareRoot()
        let sy = ((y.x - c.x) * (y.x - c.x) + (y.y - c.y) * (y.y - c.y)).squareRoot()
        return (sx + sy) / 2
    }

    /// CALayer.mask as an SVG `<mask>`: the mask view's rounded bounds placed in the masked view's coordinates (as
    /// CA places a mask layer: in its layer's bounds, moved by its own position, anchor point and transform — not
    /// through the masked view's sublayer transform, which CA applies to sublayers, and a mask is none),
    /// painted white at the mask view's alpha × its colour's alpha, so luminance (SVG 1.1's only mask) and alpha
    /// agree. What the mask does not cover is hidden, as where a mask layer is transparent; a hidden mask view, or
    /// one partly behind the eye, hides the whole view. The region is the whole plane (userSpaceOnUse), so a mask
    /// larger than the view is not cut at SVG's default -10 %…120 % box.
    static func mask(_ mask: ViewValues, z: Double, hidden: Bool, of values: ViewValues, _ projection: Projection,
                     id: String) -> String {
        var out = "<defs><mask id=\"\(id)\" maskUnits=\"userSpaceOnUse\" x=\"-100000\" y=\"-100000\" "
            + "width=\"200000\" height=\"200000\">"
        let opacity = SceneDrawing.clamp(mask.alpha) * SceneDrawing.clamp(mask.color.a)
        if !hidden, opacity > 0.001, mask.bounds.w > 0, mask.bounds.h > 0 {
            let placed = Projection.view(mask, z: z).then(projection)
            if let shape = geometry(mask.bounds, SceneDrawing.cornerRadius(mask), placed) {
                out += shape + " fill=\"#ffffff\"" + (opacity < 0.999 ? " fill-opacity=\"\(SVG.num(opacity, 4))\"" : "") + "/>"
            }
        }
        return out + "</mask></defs>"
    }
}
