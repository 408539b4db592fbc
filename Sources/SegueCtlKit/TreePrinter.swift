import SegueJSON

/// `scene.tree`'s result as an indented tree, one line per node: the view controllers (id, kind, appearance),
/// then the views (id, frame `x,y w×h`, alpha, color, and hidden / transform / corner radius when they are not
/// the default). With presentation values in the result, a view whose on-screen values differ from its model
/// gets `| now:` and those values.
public enum TreePrinter {
    public static func render(_ tree: JSONValue) -> String {
        var lines: [String] = []
        lines.append("view controllers")
        if let root = tree["controllers"], !root.isNull {
            controller(root, depth: 1, prefix: "", into: &lines)
        } else {
            lines.append("  (no root view controller)")
        }
        lines.append("views")
        if let root = tree["views"], !root.isNull {
            view(root, depth: 1, into: &lines)
        }
        return lines.joined(separator: "\n")
    }

    static func controller(_ node: JSONValue, depth: Int, prefix: String, into lines: inout [String]) {
        var parts = [prefix + (node["id"]?.stringValue ?? "?")]
        if let kind = node["kind"]?.stringValue { parts.append(kind) }
        if let appearance = node["appearance"]?.stringValue { parts.append(appearance) }
        lines.append(indent(depth) + parts.joined(separator: "  "))
        for child in node["children"]?.arrayValue ?? [] {
            controller(child, depth: depth + 1, prefix: "", into: &lines)
        }
        if let presented = node["presented"], !presented.isNull {
            controller(presented, depth: depth + 1, prefix: "presented: ", into: &lines)
        }
    }

    static func view(_ node: JSONValue, depth: Int, into lines: inout [String]) {
        var line = indent(depth) + (node["id"]?.stringValue ?? "?") + "  " + values(node, all: true)
        if let now = node["presentation"], !now.isNull {
            let changed = differences(model: node, presentation: now)
            if !changed.isEmpty { line += "  | now: " + changed }
        }
        lines.append(line)
        for child in node["subviews"]?.arrayValue ?? [] { view(child, depth: depth + 1, into: &lines) }
    }

    /// The view's values as text; `all` false leaves out what is at its default.
    static func values(_ v: JSONValue, all: Bool) -> String {
        var parts: [String] = []
        if let f = v["frame"] { parts.append(rect(f)) }
        if let a = v["alpha"]?.doubleValue { parts.append("alpha " + Format.number(a)) }
        if let c = v["color"]?.stringValue { parts.append(c) }
        if v["hidden"]?.boolValue == true { parts.append("hidden") }
        if let t = v["transform"], !isIdentity(t) { parts.append("transform " + transform(t)) }
        if let r = v["corner_radius"]?.doubleValue, r != 0 { parts.append("corner " + Format.number(r)) }
        return parts.joined(separator: "  ")
    }

    /// The presentation values that differ from the model's.
    static func differences(model: JSONValue, presentation now: JSONValue) -> String {
        var parts: [String] = []
        if let f = now["frame"], f != model["frame"] { parts.append(rect(f)) }
        if let a = now["alpha"]?.doubleValue, now["alpha"] != model["alpha"] { parts.append("alpha " + Format.number(a)) }
        if let c = now["color"]?.stringValue, now["color"] != model["color"] { parts.append(c) }
        if let h = now["hidden"]?.boolValue, now["hidden"] != model["hidden"] { parts.append(h ? "hidden" : "visible") }
        if let t = now["transform"], t != model["transform"] { parts.append("transform " + transform(t)) }
        if let r = now["corner_radius"]?.doubleValue, now["corner_radius"] != model["corner_radius"] {
            parts.append("corner " + Format.number(r))
        }
        return parts.joined(separator: "  ")
    }

    static func rect(_ r: JSONValue) -> String {
        func n(_ key: String) -> String { r[key]?.doubleValue.map { Format.number($0) } ?? "?" }
        return "\(n("x")),\(n("y")) \(n("w"))×\(n("h"))"
    }

    static func isIdentity(_ t: JSONValue) -> Bool {
        if t == "identity" { return true }
        guard let a = t["a"]?.doubleValue, let b = t["b"]?.doubleValue, let c = t["c"]?.doubleValue,
            let d = t["d"]?.doubleValue, let tx = t["tx"]?.doubleValue, let ty = t["ty"]?.doubleValue
        else { return false }
        return a == 1 && b == 0 && c == 0 && d == 1 && tx == 0 && ty == 0
    }

    /// `translate(tx, ty)`, `scale(sx, sy)`, `identity`, or the matrix.
    static func transform(_ t: JSONValue) -> String {
        if isIdentity(t) { return "identity" }
        if let m = t["m"]?.arrayValue {
            return "3d[" + m.map { $0.doubleValue.map { Format.number($0, decimals: 4) } ?? "?" }.joined(separator: " ") + "]"
        }
        guard let a = t["a"]?.doubleValue, let b = t["b"]?.doubleValue, let c = t["c"]?.doubleValue,
            let d = t["d"]?.doubleValue, let tx = t["tx"]?.doubleValue, let ty = t["ty"]?.doubleValue
        else { return Format.compact(t) }
        let n = { (x: Double) in Format.number(x) }
        if a == 1, b == 0, c == 0, d == 1 { return "translate(\(n(tx)), \(n(ty)))" }
        if b == 0, c == 0, tx == 0, ty == 0 { return "scale(\(n(a)), \(n(d)))" }
        return "[\(n(a)) \(n(b)) \(n(c)) \(n(d)) \(n(tx)) \(n(ty))]"
    }

    static func indent(_ depth: Int) -> String { String(repeating: "  ", count: depth) }
}
