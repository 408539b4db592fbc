import SegueJSON

/// The variables of a running scenario: `scene` (the scene the runner made) and every `capture`.
///
/// In params and expectations, a string that is exactly `${name}` becomes the variable's value, whatever its type
/// (a number stays a number); `${name}` inside a longer string is replaced by the value's text. `$${` writes a
/// literal `${`. Object keys are substituted too.
public struct ScenarioVariables: Sendable {
    public private(set) var values: [String: JSONValue] = [:]

    public init(_ values: [String: JSONValue] = [:]) { self.values = values }

    public subscript(name: String) -> JSONValue? {
        get { values[name] }
        set { values[name] = newValue }
    }

    /// `value` with every `${name}` replaced; throws naming the first unknown or malformed reference.
    public func substitute(_ value: JSONValue) throws(ScenarioError) -> JSONValue {
        switch value {
        case .string(let s):
            return try substitute(string: s)
        case .array(let a):
            var out: [JSONValue] = []
            out.reserveCapacity(a.count)
            for element in a { out.append(try substitute(element)) }
            return .array(out)
        case .object(let o):
            var out = JSONObject()
            for (key, element) in o { out[try text(of: try substitute(string: key))] = try substitute(element) }
            return .object(out)
        default:
            return value
        }
    }

    public func substitute(_ object: JSONObject) throws(ScenarioError) -> JSONObject {
        guard case .object(let o) = try substitute(.object(object)) else { return object }
        return o
    }

    private func substitute(string s: String) throws(ScenarioError) -> JSONValue {
        guard s.contains("${") else { return .string(s) }
        if s.hasPrefix("${"), s.hasSuffix("}"), !s.hasPrefix("$${") {
            let name = String(s.dropFirst(2).dropLast())
            if isName(name) { return try lookup(name) }
        }
        var out = ""
        var rest = Substring(s)
        while let dollar = rest.firstIndex(of: "$") {
            out += rest[..<dollar]
            let after = rest[dollar...]
            if after.hasPrefix("$${") {
                out += "${"
                rest = after.dropFirst(3)
            } else if after.hasPrefix("${") {
                guard let close = after.firstIndex(of: "}") else {
                    throw ScenarioError("unterminated ${ in \"\(s)\"")
                }
                let name = String(after[after.index(after.startIndex, offsetBy: 2)..<close])
                guard isName(name) else { throw ScenarioError("bad variable name \"\(name)\" in \"\(s)\"") }
                out += try text(of: try lookup(name))
                rest = after[after.index(after: close)...]
            } else {
                out += "$"
                rest = after.dropFirst()
            }
        }
        out += rest
        return .string(out)
    }

    private func lookup(_ name: String) throws(ScenarioError) -> JSONValue {
        guard let value = values[name] else {
            let known = values.keys.sorted().joined(separator: ", ")
            throw ScenarioError("unknown variable ${\(name)} (known: \(known.isEmpty ? "none" : known))")
        }
        return value
    }

    private func text(of value: JSONValue) throws(ScenarioError) -> String {
        if case .string(let s) = value { return s }
        return value.serialized()
    }

    private func isName(_ name: String) -> Bool {
        !name.isEmpty && name.utf8.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F || b == 0x2D
        }
    }
}

/// A problem with a scenario itself (its file, its format, a variable), as opposed to a daemon answer that did not
/// match.
public struct ScenarioError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}
