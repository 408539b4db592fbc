import SegueJSON
import SegueKit

/// The protocol's value shapes (docs/PROTOCOL.md "Value shapes").
enum Shapes {
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

    /// The view values that docs/PROTOCOL.md's view node carries.
    static func viewValues(_ v: ViewValues, hidden: Bool, z: Double) -> JSONObject {
        JSONObject([
            ("frame", rect(v.frame)), ("bounds", rect(v.bounds)), ("center", point(v.center)),
            ("alpha", .number(v.alpha)), ("transform", transform(v.transform)), ("hidden", .bool(hidden)),
            ("color", .string(v.color.hex)), ("corner_radius", .number(v.cornerRadius)), ("z", .number(z)),
        ])
    }
}
