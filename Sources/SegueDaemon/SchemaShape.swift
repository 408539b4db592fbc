import SegueJSON

/// The shape of a JSON value as a method's descriptor declares it: enough for rpc.discover's OpenRPC document (JSON
/// Schema) and for a reader, not a validator — the handler's `Params` reads remain what is enforced.
indirect enum SchemaShape: Sendable {
    case string, boolean, number, integer, any
    /// JSON `null`: `.either([.id, .null])` for "an id or null" (an `.any` there would match an id twice, and
    /// JSON Schema's `oneOf` rejects a value two of its shapes match).
    case null
    /// An id: 1–64 letters, digits, `-`, `_`, `.`.
    case id
    /// Exactly this string.
    case literal(String)
    /// One of these strings.
    case oneOf([String])
    case array(SchemaShape)
    /// An object with these members; `open` when it may carry more (results may grow, docs/PROTOCOL.md says).
    case object([Field], open: Bool = true)
    /// One of several shapes.
    case either([SchemaShape])
    /// A shape defined once in the document's `components.schemas`.
    case ref(String)

    /// A member of an object shape, or a method's parameter.
    struct Field: Sendable {
        let name: String
        let shape: SchemaShape
        let required: Bool
        let summary: String

        static func required(_ name: String, _ shape: SchemaShape, _ summary: String = "") -> Field {
            Field(name: name, shape: shape, required: true, summary: summary)
        }

        static func optional(_ name: String, _ shape: SchemaShape, _ summary: String = "") -> Field {
            Field(name: name, shape: shape, required: false, summary: summary)
        }
    }

    /// The JSON Schema of this shape (draft 7, as OpenRPC 1.x uses).
    var jsonSchema: JSONValue {
        var o = JSONObject()
        switch self {
        case .string: o["type"] = "string"
        case .boolean: o["type"] = "boolean"
        case .number: o["type"] = "number"
        case .integer: o["type"] = "integer"
        case .any: break
        case .null: o["type"] = "null"
        case .id:
            o["type"] = "string"
            o["pattern"] = "^[A-Za-z0-9._-]{1,64}$"
        case .literal(let value): o["const"] = .string(value)
        case .oneOf(let values):
            o["type"] = "string"
            o["enum"] = .array(values.map { .string($0) })
        case .array(let item):
            o["type"] = "array"
            o["items"] = item.jsonSchema
        case .object(let fields, let open):
            o["type"] = "object"
            var properties = JSONObject()
            for field in fields {
                var schema = field.shape.jsonSchema
                if !field.summary.isEmpty, case .object(var s) = schema {
                    s["description"] = .string(field.summary)
                    schema = .object(s)
                }
                properties[field.name] = schema
            }
            o["properties"] = .object(properties)
            let required = fields.filter(\.required).map { JSONValue.string($0.name) }
            if !required.isEmpty { o["required"] = .array(required) }
            if !open { o["additionalProperties"] = false }
        case .either(let shapes): o["oneOf"] = .array(shapes.map(\.jsonSchema))
        case .ref(let name): o["$ref"] = .string("#/components/schemas/\(name)")
        }
        return .object(o)
    }
}
