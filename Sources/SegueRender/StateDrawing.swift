import SegueJSON
import SegueKit

/// Draws views given in the protocol's value shapes — a `scene.tree` node's values, or a view's `frame`-event
/// values merged frame after frame — as the filmstrip draws a frame (`SceneDrawing`: projected quads, anchor points,
/// the superview's sublayer transform, z order, double-sidedness, the eye-plane clip, the layer's look and masks).
/// seguectl's motion pictures draw their panels with it.
public enum StateDrawing {
    /// SVG elements in the state's coordinates. `state` holds each view's values by id (`parent`: its superview's
    /// id; `mask`: its mask view's id), `order` the ids in tree order (superviews first; ids not in it follow,
    /// sorted). A view whose superview is not in the state is a root; a mask view is drawn only as a mask. Unique
    /// element ids start with `idPrefix`.
    public static func svg(_ state: [String: JSONObject], order: [String], labelSize: Double, labels: Bool = true,
                           idPrefix: String) -> String
    {
        let ids = order.filter { state[$0] != nil } + state.keys.sorted().filter { !order.contains($0) }
        var index: [String: Int] = [:]
        for (i, id) in ids.enumerated() where index[id] == nil { index[id] = i }
        let masks = Set(ids.compactMap { state[$0]?["mask"]?.stringValue })
        let views = ids.map { id -> Timeline.ViewSample in
            let o = state[id] ?? JSONObject()
            var parent = o["parent"]?.stringValue.flatMap { index[$0] } ?? -1
            if masks.contains(id) { parent = Timeline.Structure.maskParent }
            let mask = o["mask"]?.stringValue.flatMap { index[$0] } ?? -1
            return Timeline.ViewSample(id: id, parent: parent, values: values(o), hidden: o["hidden"]?.boolValue == true,
                                       z: o["z"]?.doubleValue ?? 0, mask: mask)
        }
        return SceneDrawing.draw(views: views, origin: .zero, labelSize: labelSize, labels: labels, idPrefix: idPrefix)
    }

    /// A view's values from the protocol's shapes (docs/PROTOCOL.md "Value shapes"): each property of the table by
    /// its name and kind, CALayer's default where it is missing (as `scene.tree` leaves it out); the placement from
    /// `frame` (position = frame origin + anchor point × size), which every node and every frame event that moves the
    /// view carries, and the bounds origin from `bounds`.
    public static func values(_ o: JSONObject) -> ViewValues {
        var v = ViewValues(frame: .zero, alpha: 1, color: .clear)
        for property in ViewProperty.allCases where property.stored == property && property != .center {
            guard case .channels = property.info.storage, let json = o[property.info.name],
                let parsed = parse(json, property.info.kind)
            else { continue }
            v.set(property, parsed)
        }
        if let f = o["frame"], let r = parse(f, .rect) {
            let a = v.anchorPoint
            v.center = Point(x: r[0] + a.x * r[2], y: r[1] + a.y * r[3])
            var b = v.bounds
            (b.w, b.h) = (r[2], r[3])
            v.bounds = b
        } else if let c = o["center"], let p = parse(c, .point) {
            v.center = Point(x: p[0], y: p[1])
        }
        return v
    }

    /// The numbers of a value of `kind`, nil when it is not of that shape (or not finite).
    static func parse(_ json: JSONValue, _ kind: ViewValueKind) -> [Double]? {
        func numbers(_ keys: [String]) -> [Double]? {
            let out = keys.compactMap { json[$0]?.doubleValue }
            return out.count == keys.count && out.allSatisfy(\.isFinite) ? out : nil
        }
        switch kind {
        case .number: return json.doubleValue.flatMap { $0.isFinite ? [$0] : nil }
        case .boolean: return json.boolValue.map { [$0 ? 1 : 0] }
        case .point: return numbers(["x", "y"])
        case .size: return numbers(["w", "h"])
        case .rect: return numbers(["x", "y", "w", "h"])
        case .transform:
            if json.stringValue == "identity" { return Transform3D.identity.values }
            if let m = json["m"]?.arrayValue {
                let values = m.compactMap(\.doubleValue)
                return values.count == 16 && values.allSatisfy(\.isFinite) ? values : nil
            }
            return numbers(["a", "b", "c", "d", "tx", "ty"]).map {
                Transform3D(a: $0[0], b: $0[1], c: $0[2], d: $0[3], tx: $0[4], ty: $0[5]).values
            }
        case .color:
            return json.stringValue.flatMap { Color(hex: $0) }.map { [$0.r, $0.g, $0.b, $0.a] }
        case .colorList, .numberList, .gradientType:
            // A gradient view's parts are not read: the motion panels (and the Python client's copy of this
            // drawing, python/segued/drawing.py) draw a gradient view by its background colour.
            return nil
        }
    }
}
