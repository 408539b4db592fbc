import SegueKit

/// A view's flat rectangle (or any polygon of its bounds) through its projection, as a picture draws it: clipped at
/// the eye plane, tested for which side faces the viewer, and — for content SVG can only place with an affine
/// `matrix(…)` (an image, a gradient) — cut into affine patches that stay within half a pixel of the projection.
///
/// A projective map keeps straight lines straight, so a polygon's projected corners joined by straight segments are
/// its exact image: a solid fill needs no patches, only the clip.
enum ProjectedQuad {
    /// The most an affine patch may be off the true projection, in picture units (px).
    static let tolerance = 0.5
    /// How deep a patch is split at most (4⁸ = 65 536 patches): past it a patch is drawn as it is.
    static let maxDepth = 8

    /// The part of `polygon` (source coordinates) in front of the eye (w > `Projection.eye`), by Sutherland–Hodgman
    /// against the one plane w = eye (w is linear in x and y); empty when all of it is behind.
    static func clip(_ polygon: [(Double, Double)], _ projection: Projection) -> [(Double, Double)] {
        guard !polygon.isEmpty else { return [] }
        let eye = Projection.eye * 2  // a margin over `apply`'s own test, so every kept point projects
        var out: [(Double, Double)] = []
        for k in polygon.indices {
            let p = polygon[k], q = polygon[(k + 1) % polygon.count]
            let wp = projection.w(p.0, p.1), wq = projection.w(q.0, q.1)
            let pIn = wp > eye, qIn = wq > eye
            if pIn { out.append(p) }
            if pIn != qIn {
                let t = (eye - wp) / (wq - wp)
                out.append((p.0 + (q.0 - p.0) * t, p.1 + (q.1 - p.1) * t))
            }
        }
        return out
    }

    /// The clipped polygon projected into picture coordinates (empty when nothing of it is in front of the eye).
    static func projected(_ polygon: [(Double, Double)], _ projection: Projection) -> [(Double, Double)] {
        var points: [(Double, Double)] = []
        for p in clip(polygon, projection) {
            guard let q = projection.apply(p.0, p.1) else { continue }
            points.append(q)
        }
        return points
    }

    /// True when the view shows its back: the projection turns its plane over (the determinant of the 3×3 map is
    /// negative; in front of the eye, w > 0, the map's orientation is its determinant's sign). CALayer.doubleSided.
    static func facesBack(_ projection: Projection) -> Bool {
        let h = projection.h
        let det = h[0] * (h[4] * h[8] - h[5] * h[7]) - h[1] * (h[3] * h[8] - h[5] * h[6])
            + h[2] * (h[3] * h[7] - h[4] * h[6])
        return det < 0
    }

    /// An affine piece of a projected rectangle: the source cell, and the affine map (SVG's `matrix(a b c d e f)`)
    /// that places it within `tolerance` of the projection.
    struct Patch: Equatable {
        let cell: Rect
        let a: Double, b: Double, c: Double, d: Double, e: Double, f: Double
    }

    /// `rect` cut into affine patches of the projection, each within `tolerance` (px) of it at its corners, edge
    /// midpoints and centre; cells wholly behind the eye are dropped, cells crossing it split until `maxDepth` and
    /// then dropped (what is left of them is a sliver at the picture's infinity). An affine projection is one patch.
    static func patches(_ rect: Rect, _ projection: Projection, tolerance: Double = ProjectedQuad.tolerance)
        -> [Patch]
    {
        var out: [Patch] = []
        split(rect, projection, tolerance, depth: 0, into: &out)
        return out
    }

    private static func split(_ r: Rect, _ projection: Projection, _ tolerance: Double, depth: Int,
                              into out: inout [Patch])
    {
        guard r.w > 0, r.h > 0 else { return }
        let x1: Double = r.x + r.w, y1: Double = r.y + r.h
        let corners: [(Double, Double)] = [(r.x, r.y), (x1, r.y), (r.x, y1), (x1, y1)]
        var behind = 0
        for corner in corners where projection.w(corner.0, corner.1) <= Projection.eye * 2 { behind += 1 }
        if behind == 4 { return }
        if behind == 0, let p0 = projection.apply(r.x, r.y), let p1 = projection.apply(r.x + r.w, r.y),
            let p2 = projection.apply(r.x, r.y + r.h)
        {
            // The affine map exact at three corners: source (x, y) ↦ p0 + (x − r.x)/w·(p1 − p0) + (y − r.y)/h·(p2 − p0).
            let a = (p1.x - p0.x) / r.w, b = (p1.y - p0.y) / r.w
            let c = (p2.x - p0.x) / r.h, d = (p2.y - p0.y) / r.h
            let e = p0.x - a * r.x - c * r.y, f = p0.y - b * r.x - d * r.y
            var error = 0.0
            let probes: [(Double, Double)] = [(1, 1), (0.5, 0.5), (0.5, 0), (0, 0.5), (1, 0.5), (0.5, 1)]
            for (u, v) in probes {
                let x: Double = r.x + u * r.w, y: Double = r.y + v * r.h
                guard let p = projection.apply(x, y) else {
                    error = .infinity
                    break
                }
                let ax: Double = a * x + c * y + e
                let ay: Double = b * x + d * y + f
                let dx: Double = ax - p.x, dy: Double = ay - p.y
                error = max(error, (dx * dx + dy * dy).squareRoot())
            }
            if error <= tolerance || depth >= maxDepth {
                if error.isFinite { out.append(Patch(cell: r, a: a, b: b, c: c, d: d, e: e, f: f)) }
                return
            }
        } else if depth >= maxDepth {
            return
        }
        let hw = r.w / 2, hh = r.h / 2
        for (dx, dy) in [(0.0, 0.0), (hw, 0), (0, hh), (hw, hh)] {
            split(Rect(x: r.x + dx, y: r.y + dy, w: hw, h: hh), projection, tolerance, depth: depth + 1, into: &out)
        }
    }
}
