import SegueJSON

/// Small helpers for text meant to be read by a person.
public enum Format {
    /// A number with at most `decimals` decimals and no trailing zeros: `160`, `0.28`, `-106.67`.
    public static func number(_ n: Double, decimals: Int = 2) -> String {
        guard n.isFinite else { return n.isNaN ? "nan" : (n > 0 ? "inf" : "-inf") }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let rounded = (n * scale).rounded() / scale
        if rounded == 0 { return "0" }  // also turns -0 into 0
        if rounded == rounded.rounded(), abs(rounded) < 1e15 { return String(Int64(rounded)) }
        var text = "\(rounded)"
        if text.contains("e") { return text }
        while text.hasSuffix("0") { text.removeLast() }
        if text.hasSuffix(".") { text.removeLast() }
        return text
    }

    /// A number with exactly `decimals` decimals (`17.0`, `234.1`), for columns of figures.
    public static func fixed(_ n: Double, decimals: Int) -> String {
        guard n.isFinite, abs(n) < 1e15 else { return number(n) }
        var scale = 1.0
        for _ in 0..<max(0, decimals) { scale *= 10 }
        let units = Int64((abs(n) * scale).rounded())
        let whole = units / Int64(scale)
        let sign = n < 0 && units != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(whole) }
        let fraction = String(units % Int64(scale))
        return sign + String(whole) + "." + String(repeating: "0", count: decimals - fraction.count) + fraction
    }

    /// A JSON value on one line, cut to `limit` characters with an ellipsis.
    public static func compact(_ value: JSONValue?, limit: Int = 160) -> String {
        guard let value else { return "nothing" }
        return truncate(value.serialized(), limit: limit)
    }

    public static func truncate(_ text: String, limit: Int) -> String {
        guard text.count > limit, limit > 1 else { return text }
        return String(text.prefix(limit - 1)) + "…"
    }

    /// Pads `text` with spaces to `width` characters (left-aligned, or right-aligned for numbers).
    public static func pad(_ text: String, _ width: Int, right: Bool = false) -> String {
        let missing = width - text.count
        guard missing > 0 else { return text }
        let spaces = String(repeating: " ", count: missing)
        return right ? spaces + text : text + spaces
    }

    /// A scalar for a table cell: strings bare, numbers short, null as `-`.
    public static func cell(_ value: JSONValue?) -> String {
        switch value {
        case nil, .null?: return "-"
        case .string(let s)?: return s.isEmpty ? "-" : s
        case .number(let n)?: return number(n)
        case .bool(let b)?: return b ? "yes" : "no"
        case let other?: return compact(other, limit: 60)
        }
    }
}
