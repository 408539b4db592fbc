import SegueJSON

/// A request's id as its response carries it.
///
/// JSON-RPC answers with the request's id, so a number id is kept as the text it had on the request line and written
/// back byte for byte: `9007199254740993`, `9223372036854775807`, `12345678901234567890123`, `1e3`, `-0` and `1.50`
/// come back as sent (read as a Double they would come back rounded or rewritten). The text is a valid JSON number:
/// the scan or the parser read it as one. A string id is its value, written as JSON writes it; null is null.
enum RequestID: Equatable, Sendable, ExpressibleByIntegerLiteral {
    case null
    case string(String)
    /// A number id: its text exactly as sent.
    case number(String)

    init(integerLiteral value: Int) { self = .number(String(value)) }

    /// The id of a parsed request: `text` is the number's text on the line (see `RequestEnvelope.idTexts`); without
    /// it a number is written as the serializer writes a Double. Nil for a value that is no id (an object, …).
    init?(_ value: JSONValue, text: String? = nil) {
        switch value {
        case .null: self = .null
        case .string(let s): self = .string(s)
        case .number(let n): self = .number(text ?? JSONValue.number(n).serialized())
        default: return nil
        }
    }

    func write(to out: inout JSONOutput) {
        switch self {
        case .null: out.append("null")
        case .string(let s): JSONValue.writeString(s, to: &out)
        case .number(var text): text.withUTF8 { out.append($0) }
        }
    }
}
