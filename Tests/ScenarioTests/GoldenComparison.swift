import SegueJSON

/// Compares a run's lines with the record, structurally: the same number of lines; per line the same JSON types,
/// the same object keys (as sets: key order is not behaviour), the same array lengths, strings, bools and nulls,
/// and numbers equal within 1e-9 — absolute for |expected| ≤ 1, relative (1e-9 × |expected|) above.
enum GoldenComparison {
    static let tolerance = 1e-9

    /// The differences, at most `limit`, each a short line: `line 12 (step 5 clock.advance) params.views.0.alpha:
    /// expected 0.5, got 0.4`.
    static func differences(expected: [JSONValue], actual: [GoldenLine], limit: Int = 8) -> [String] {
        var out: [String] = []
        for i in 0..<min(expected.count, actual.count) where out.count < limit {
            var found: [(path: String, expected: String, got: String)] = []
            compare(expected[i], actual[i].value, path: "", into: &found)
            for d in found.prefix(limit - out.count) {
                let path = d.path.isEmpty ? "(the line)" : d.path
                out.append("line \(i + 1) (\(actual[i].cause)) \(path): expected \(d.expected), got \(d.got)")
            }
        }
        if expected.count != actual.count, out.count < limit {
            var text = "\(expected.count) lines recorded, \(actual.count) received"
            if actual.count > expected.count {
                let extra = actual[expected.count]
                text += "; the first extra one (\(extra.cause)): \(short(extra.value))"
            } else {
                text += "; the first missing one: \(short(expected[actual.count]))"
            }
            out.append(text)
        }
        return out
    }

    static func compare(_ e: JSONValue, _ a: JSONValue, path: String,
                        into out: inout [(path: String, expected: String, got: String)])
    {
        guard out.count < 8 else { return }
        switch (e, a) {
        case (.number(let x), .number(let y)):
            if !(abs(x - y) <= tolerance * max(1, abs(x))) { out.append((path, short(e), short(a))) }
        case (.object(let x), .object(let y)):
            let xKeys = Set(x.keys), yKeys = Set(y.keys)
            for key in x.keys where !yKeys.contains(key) { out.append((join(path, key), short(x[key]), "no such key")) }
            for key in y.keys where !xKeys.contains(key) { out.append((join(path, key), "no such key", short(y[key]))) }
            for key in x.keys where yKeys.contains(key) {
                if let xv = x[key], let yv = y[key] { compare(xv, yv, path: join(path, key), into: &out) }
            }
        case (.array(let x), .array(let y)):
            if x.count != y.count {
                out.append((path, "\(x.count) elements", "\(y.count) elements"))
            }
            for i in 0..<min(x.count, y.count) { compare(x[i], y[i], path: join(path, String(i)), into: &out) }
        default:
            if e != a { out.append((path, short(e), short(a))) }
        }
    }

    static func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : path + "." + key }

    static func short(_ value: JSONValue?) -> String {
        guard let value else { return "nothing" }
        let text = value.serialized()
        return text.count > 160 ? String(text.prefix(157)) + "…" : text
    }
}
