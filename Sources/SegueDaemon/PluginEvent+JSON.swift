import SegueJSON
import SegueLua

/// A daemon-wide plugin event's fields on the wire: `{name, file}` and the message (`error` for `plugin.failed`).
extension PluginEvent {
    var fields: JSONObject {
        var o = JSONObject([("name", .string(name)), ("file", .string(file))])
        if let message { o[type == "plugin.failed" ? "error" : "message"] = .string(message) }
        return o
    }
}
