/// Caller data handed to plugins: a transition request's `info` (`ctx.info`), a `gesture_began` operation's params.
/// A JSON-shaped tree, kept typed in the engine (the daemon turns it into JSON at the edge, the Lua host into
/// tables). Object members keep their order.
public indirect enum InfoValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([InfoValue])
    case object([(String, InfoValue)])

    public static func == (a: InfoValue, b: InfoValue) -> Bool {
        switch (a, b) {
        case (.null, .null): true
        case (.bool(let x), .bool(let y)): x == y
        case (.number(let x), .number(let y)): x == y
        case (.string(let x), .string(let y)): x == y
        case (.array(let x), .array(let y)): x == y
        case (.object(let x), .object(let y)): x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// Member `key` of an object (nil for any other value or a missing key).
    public subscript(key: String) -> InfoValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let s) = self { return s }
        return nil
    }
}
