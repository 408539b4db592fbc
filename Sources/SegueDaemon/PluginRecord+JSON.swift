import SegueJSON
import SegueLua

/// One line of `plugins.list` on the wire.
extension PluginRecord {
    var json: JSONValue {
        var o = JSONObject([
            ("name", .string(name)), ("kind", .string(kind?.rawValue ?? "unknown")), ("version", version.map { .string($0) } ?? .null),
            ("api", .number(Double(api))), ("file", .string(file)), ("status", .string(status)),
        ])
        if let error { o["error"] = .string(error) }
        o["loaded_at"] = .number(loadedAt)
        o["load_ms"] = .number(loadMs)
        o["memory_bytes"] = .number(Double(memoryBytes))
        o["calls"] = .number(Double(calls))
        o["failures"] = .number(Double(failures))
        o["generation"] = .number(Double(generation))
        if let kinds { o["kinds"] = .array(kinds.map { .string($0) }) }
        return .object(o)
    }
}
