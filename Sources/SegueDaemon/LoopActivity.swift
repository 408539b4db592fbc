import SegueJSON
import SegueLua
import Synchronization

/// What the event loop is running, for the stall detector's report: the request being served (its method and id),
/// and through `LuaActivity` the plugin function. The loop writes it around each request (a lock taken twice, no
/// allocation); only the detector reads it.
final class LoopActivity: Sendable {
    struct Request: Sendable {
        let method: String
        let id: RequestID?
    }

    private let request = Mutex<Request?>(nil)
    let lua: LuaActivity

    init(lua: LuaActivity = .shared) { self.lua = lua }

    func serving(method: String, id: RequestID?) { request.withLock { $0 = Request(method: method, id: id) } }

    func served() { request.withLock { $0 = nil } }

    /// One line naming what runs now: "request container.select (id 7), plugin stall.lua: animate (defined at
    /// line 1)", or what is known of it.
    var description: String {
        var parts: [String] = []
        if let request = request.withLock({ $0 }) {
            var text = ""
            switch request.id {
            case nil: text = " (a notification)"
            case .null?: text = " (id null)"
            case .string(let s)?: text = " (id \(JSONValue.string(s).serialized()))"
            case .number(let n)?: text = " (id \(n))"
            }
            parts.append("request \(request.method)\(text)")
        } else {
            parts.append("no request (a timer, a frame or a reload)")
        }
        if let call = lua.call { parts.append("plugin \(call)") }
        return parts.joined(separator: ", ")
    }
}
