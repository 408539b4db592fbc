import SegueJSON

/// `WxH` (`320x480`, also `320×480`) as a size object `{w, h}`.
public enum CheckSize {
    public static func parse(_ text: String) -> JSONValue? {
        let parts = text.split(whereSeparator: { $0 == "x" || $0 == "X" || $0 == "×" })
        guard parts.count == 2, let w = Double(parts[0]), let h = Double(parts[1]), w > 0, h > 0, w.isFinite,
            h.isFinite
        else { return nil }
        return .object(JSONObject([("w", .number(w)), ("h", .number(h))]))
    }
}
