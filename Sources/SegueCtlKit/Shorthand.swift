import SegueJSON

/// The protocol's input shorthands, matched in expectations as the daemon reads them (docs/PROTOCOL.md "Value
/// shapes"): an expectation may be written the way a request would be, and the answer's canonical form matches it.
enum Shorthand {
    /// nil when neither value is a shorthand this knows (compare as plain JSON); else whether they mean the same.
    static func compare(_ expected: JSONValue, _ actual: JSONValue, tolerance: Double) -> Bool? {
        if case .string(let e) = expected, case .string(let a) = actual {
            guard let ec = color(e), let ac = color(a) else { return nil }
            return ec == ac
        }
        guard let e = matrix(expected, allowName: true), let a = matrix(actual, allowName: false) else { return nil }
        // Plain JSON comparison already handles two objects of the same form (and reports per key).
        if expected.objectValue != nil, (expected["m"] == nil) == (actual["m"] == nil) { return nil }
        return zip(e, a).allSatisfy { abs($0 - $1) <= tolerance }
    }

    /// `#rrggbb` or `#rrggbbaa` as lowercase `rrggbbaa`.
    static func color(_ text: String) -> String? {
        let bytes = Array(text.utf8)
        guard bytes.first == UInt8(ascii: "#"), bytes.count == 7 || bytes.count == 9 else { return nil }
        let hex = text.dropFirst().lowercased()
        guard hex.allSatisfy({ $0.isHexDigit }) else { return nil }
        return hex.count == 6 ? hex + "ff" : hex
    }

    /// A transform's 16 row-major values: `"identity"` (when allowed), `{a, b, c, d, tx, ty}` or `{m: [16]}`.
    static func matrix(_ value: JSONValue, allowName: Bool) -> [Double]? {
        let identity: [Double] = [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]
        switch value {
        case .string("identity") where allowName: return identity
        case .object(let o):
            if o.count == 1, case .array(let list)? = o["m"] {
                let values = list.compactMap(\.doubleValue)
                return values.count == 16 && list.count == 16 ? values : nil
            }
            guard o.count == 6, let a = o["a"]?.doubleValue, let b = o["b"]?.doubleValue, let c = o["c"]?.doubleValue,
                let d = o["d"]?.doubleValue, let tx = o["tx"]?.doubleValue, let ty = o["ty"]?.doubleValue
            else { return nil }
            // CATransform3DMakeAffineTransform: m11 m12 / m21 m22 / m41 m42, row-major.
            return [a, b, 0, 0, c, d, 0, 0, 0, 0, 1, 0, tx, ty, 0, 1]
        default: return nil
        }
    }
}
