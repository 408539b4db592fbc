import SegueJSON
import SegueKit

/// The protocol's values in JSON (docs/PROTOCOL.md "Value shapes"): geometry, transforms and a view's values written
/// and read.
enum ValueJSON {
    static func rect(_ r: Rect) -> JSONValue {
        .object(JSONObject([("x", .number(r.x)), ("y", .number(r.y)), ("w", .number(r.w)), ("h", .number(r.h))]))
    }

    static func point(_ p: Point) -> JSONValue {
        .object(JSONObject([("x", .number(p.x)), ("y", .number(p.y))]))
    }

    static func size(_ s: Size) -> JSONValue {
        .object(JSONObject([("w", .number(s.w)), ("h", .number(s.h))]))
    }

    /// 2-D affine `{a, b, c, d, tx, ty}` when the matrix is affine, else `{m: [16]}`.
    static func transform(_ t: Transform3D) -> JSONValue {
        if t.isAffine {
            let a = t.affine
            return .object(JSONObject([
                ("a", .number(a.a)), ("b", .number(a.b)), ("c", .number(a.c)), ("d", .number(a.d)),
                ("tx", .number(a.tx)), ("ty", .number(a.ty)),
            ]))
        }
        return .object(JSONObject([("m", .array(t.values.map { .number($0) }))]))
    }

    static func parseRect(_ v: JSONValue) -> Rect? {
        guard let x = v["x"]?.doubleValue, let y = v["y"]?.doubleValue, let w = v["w"]?.doubleValue,
            let h = v["h"]?.doubleValue, x.isFinite, y.isFinite, w.isFinite, h.isFinite
        else { return nil }
        return Rect(x: x, y: y, w: w, h: h)
    }

    static func parseSize(_ v: JSONValue) -> Size? {
        guard let w = v["w"]?.doubleValue, let h = v["h"]?.doubleValue, w.isFinite, h.isFinite else { return nil }
        return Size(w: w, h: h)
    }

    /// The view values that docs/PROTOCOL.md's view node carries: the derived frame, then every property of the
    /// table in its listed order — a property with an initial value (`ViewPropertyInfo.initial`: the border, the
    /// shadow, clips_to_bounds) only when it is not at it, so the tree of a scene that does not use them reads as
    /// before. `position` is `center` under CALayer's name: the node carries it once, as `center`.
    static func viewValues(_ v: ViewValues, hidden: Bool, z: Double) -> JSONObject {
        var o = JSONObject([("frame", rect(v.frame))])
        for property in ViewProperty.listed where property != .position && !v.isInitial(property) {
            // A gradient view's parts only on gradient views; `locations` left out while nil (evenly spaced).
            if property.isGradient, v.gradient == nil || (property == .locations && v.gradient?.locations.isEmpty == true) {
                continue
            }
            o[property.name] = value(property, v.value(of: property, z: z, hidden: hidden))
        }
        return o
    }

    /// A property's value in the shape of its kind.
    static func value(_ property: ViewProperty, _ v: ArraySlice<Double>) -> JSONValue {
        let i = v.startIndex
        switch property.info.kind {
        case .number: return .number(v[i])
        case .boolean: return .bool(v[i] != 0)
        case .point: return point(Point(x: v[i], y: v[i + 1]))
        case .size: return size(Size(w: v[i], h: v[i + 1]))
        case .rect: return rect(Rect(x: v[i], y: v[i + 1], w: v[i + 2], h: v[i + 3]))
        case .transform: return transform(Transform3D(values: Array(v)))
        case .color: return .string(Color(r: v[i], g: v[i + 1], b: v[i + 2], a: v[i + 3]).hex)
        case .colorList:
            return .array(stride(from: i, to: v.endIndex - 3, by: 4).map {
                .string(Color(r: v[$0], g: v[$0 + 1], b: v[$0 + 2], a: v[$0 + 3]).hex)
            })
        case .numberList: return v.isEmpty ? .null : .array(v.map { .number($0) })
        case .gradientType: return .string((v.first.flatMap(GradientType.init(code:)) ?? .axial).rawValue)
        }
    }
}
