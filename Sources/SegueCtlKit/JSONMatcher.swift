import SegueJSON

/// Partial matching of an expected JSON value against an actual one, as scenario files use it.
///
/// - objects match when every listed key matches (other keys are ignored), recursively;
/// - arrays match when they have the same length and match element by element;
/// - numbers match when they differ by at most `tolerance` (absolute);
/// - strings, booleans and null match when equal;
/// - the protocol's input shorthands match what the daemon answers (docs/PROTOCOL.md "Value shapes"): a transform
///   written `"identity"` matches the identity matrix in either form, a 2-D `{a, b, c, d, tx, ty}` matches the same
///   matrix written `{m: [16]}` and back, and a color `#rrggbb` matches `#rrggbbff` (hex digits in either case).
///
/// An object whose keys all start with `$` is an operator:
/// - `{"$contains": [a, b]}`: the actual array has elements matching `a`, then `b`, in that order (others may
///   come before, between and after);
/// - `{"$absent": true}`: the key is not there at all;
/// - `{"$any": true}`: the key is there, with any value (null included).
public struct JSONMatcher: Sendable {
    public var tolerance: Double

    public static let operators = ["$contains", "$absent", "$any"]

    public init(tolerance: Double = 1e-6) { self.tolerance = tolerance }

    /// True when `actual` matches `expected`.
    public func matches(_ expected: JSONValue, _ actual: JSONValue?) -> Bool {
        mismatches(expected: expected, actual: actual, at: JSONPath(segments: [])).isEmpty
    }

    /// Every difference, each with the path where it is (nil `actual` means the key is absent).
    public func mismatches(expected: JSONValue, actual: JSONValue?, at path: JSONPath) -> [Mismatch] {
        var out: [Mismatch] = []
        compare(expected, actual, path, &out)
        return out
    }

    private func compare(_ expected: JSONValue, _ actual: JSONValue?, _ path: JSONPath, _ out: inout [Mismatch]) {
        if case .object(let o) = expected, let op = o.keys.first, o.keys.allSatisfy({ $0.hasPrefix("$") }) {
            guard o.count == 1 else {
                out.append(Mismatch(path: "\(path)", expected: "one operator per object",
                                    got: "\(o.keys.joined(separator: ", ")) in the scenario"))
                return
            }
            applyOperator(op, o[op] ?? .null, actual, path, &out)
            return
        }
        guard let actual else {
            out.append(Mismatch(path: "\(path)", expected: Format.compact(expected), got: "nothing (no such key)"))
            return
        }
        if let shorthand = Shorthand.compare(expected, actual, tolerance: tolerance) {
            if !shorthand {
                out.append(Mismatch(path: "\(path)", expected: Format.compact(expected), got: Format.compact(actual)))
            }
            return
        }
        switch (expected, actual) {
        case (.number(let e), .number(let a)):
            if !(abs(e - a) <= tolerance) {
                out.append(Mismatch(path: "\(path)", expected: Format.compact(expected), got: Format.compact(actual)))
            }
        case (.object(let e), .object(let a)):
            for (key, value) in e { compare(value, a[key], path.appending(key), &out) }
        case (.array(let e), .array(let a)):
            guard e.count == a.count else {
                out.append(Mismatch(path: "\(path)", expected: "\(e.count) element\(e.count == 1 ? "" : "s") \(Format.compact(expected))",
                                    got: "\(a.count): \(Format.compact(actual))"))
                return
            }
            for (i, (ev, av)) in zip(e, a).enumerated() { compare(ev, av, path.appending(i), &out) }
        default:
            if expected != actual {
                let got = expected.typeName == actual.typeName || actual.isNull ? Format.compact(actual)
                    : "\(actual.typeName) \(Format.compact(actual))"
                out.append(Mismatch(path: "\(path)", expected: Format.compact(expected), got: got))
            }
        }
    }

    private func applyOperator(_ op: String, _ argument: JSONValue, _ actual: JSONValue?, _ path: JSONPath,
                               _ out: inout [Mismatch])
    {
        switch op {
        case "$absent":
            if let actual { out.append(Mismatch(path: "\(path)", expected: "no such key", got: Format.compact(actual))) }
        case "$any":
            if actual == nil { out.append(Mismatch(path: "\(path)", expected: "a value", got: "nothing (no such key)")) }
        case "$contains":
            guard case .array(let wanted) = argument else {
                out.append(Mismatch(path: "\(path)", expected: "an array after $contains", got: "\(argument.typeName) in the scenario"))
                return
            }
            guard case .array(let elements)? = actual else {
                out.append(Mismatch(path: "\(path)", expected: "an array containing \(Format.compact(argument))",
                                    got: actual.map { "\($0.typeName) \(Format.compact($0))" } ?? "nothing (no such key)"))
                return
            }
            if let miss = subsequenceMiss(wanted, in: elements) {
                let target = wanted[miss.expectedIndex]
                var expected = "elements matching \(Format.compact(argument)) in order (element \(miss.expectedIndex + 1) "
                    + "\(Format.compact(target)) not found"
                    + (miss.searchedFrom > 0 ? " after the array's element \(miss.searchedFrom), where element "
                        + "\(miss.expectedIndex) matched)" : ")")
                var got = Format.compact(actual)
                if let nearest = nearestCandidate(to: target, in: elements, from: miss.searchedFrom, at: path) {
                    expected = Format.truncate(expected, limit: 240)
                    got = "the nearest, \(path).\(nearest.index) (element \(nearest.index + 1)), differs: "
                        + nearest.differences.map(\.description).joined(separator: "; ")
                }
                out.append(Mismatch(path: "\(path)", expected: expected, got: got))
            }
        default:
            out.append(Mismatch(path: "\(path)", expected: "one of \(JSONMatcher.operators.joined(separator: ", "))",
                                got: "unknown operator \(op) in the scenario"))
        }
    }

    /// The element from `start` on that differs least from `target` (fewest differences; the first on a tie), with
    /// its differences; nil when there is no element to compare with.
    public func nearestCandidate(to target: JSONValue, in elements: [JSONValue], from start: Int, at path: JSONPath)
        -> (index: Int, differences: [Mismatch])?
    {
        var best: (index: Int, differences: [Mismatch])?
        for i in elements.indices.dropFirst(start) {
            let differences = mismatches(expected: target, actual: elements[i], at: path.appending(i))
            if differences.count < best?.differences.count ?? .max { best = (i, differences) }
        }
        return best
    }

    /// Where `wanted` fails to be a subsequence of `elements` (each matched partially, in order): the index of the
    /// first wanted element that could not be placed and the index the search for it started from; nil when all
    /// were found. Greedy earliest matching, which finds a placement whenever one exists.
    public func subsequenceMiss(_ wanted: [JSONValue], in elements: [JSONValue])
        -> (expectedIndex: Int, searchedFrom: Int)?
    {
        var next = 0
        for (i, w) in wanted.enumerated() {
            guard let found = elements[next...].firstIndex(where: { matches(w, $0) }) else {
                return (i, next)
            }
            next = found + 1
        }
        return nil
    }
}
