import SegueJSON

/// The OpenRPC 1.x document `rpc.discover` answers, made from the method table's descriptors.
enum OpenRPC {
    static let specVersion = "1.2.6"
    static let description = "A headless view-controller transition engine with Lua animator plugins, driven over a "
        + "Unix socket with JSON-RPC 2.0 (one JSON text per line). See docs/PROTOCOL.md."

    static func document(methods: [String: MethodEntry], version: String) -> JSONValue {
        var schemas = JSONObject()
        for (name, shape) in SchemaShape.components { schemas[name] = shape.jsonSchema }
        return .object(JSONObject([
            ("openrpc", .string(specVersion)),
            ("info", .object(JSONObject([
                ("title", "segued"), ("version", .string(version)),
                ("description", .string(description)),
            ]))),
            ("methods", .array(methods.keys.sorted().compactMap { name in
                methods[name].map { method(name, $0.descriptor) }
            })),
            ("components", .object(JSONObject([("schemas", .object(schemas))]))),
        ]))
    }

    static func method(_ name: String, _ d: MethodDescriptor) -> JSONValue {
        let params: [JSONValue] = d.params.map { field in
            var o = JSONObject([("name", .string(field.name)), ("required", .bool(field.required)),
                                ("schema", field.shape.jsonSchema)])
            if !field.summary.isEmpty { o["description"] = .string(field.summary) }
            return .object(o)
        }
        // Every method answers -32602 to a parameter it does not take (daemon.ping {"x": 1} too), and -32005 while
        // the daemon drains.
        let codes = [.invalidParams] + d.errors + [.shuttingDown]
        let errors: [JSONValue] = codes.map { code in
            .object(JSONObject([("code", .number(Double(code.rawValue))), ("message", .string(code.kind)),
                                ("data", .object(JSONObject([("kind", .string(code.kind))]))) ]))
        }
        return .object(JSONObject([
            ("name", .string(name)), ("summary", .string(d.summary)), ("paramStructure", "by-name"),
            ("params", .array(params)),
            ("result", .object(JSONObject([("name", .string(name + ".result")), ("schema", d.result.jsonSchema)]))),
            ("errors", .array(errors)),
        ]))
    }
}

extension Daemon {
    /// rpc.discover's answer, made once.
    static let openRPCDocument = OpenRPC.document(methods: methods, version: version)
}
