import SegueJSON
import SegueLua
import Synchronization

/// What the event loop is running, for the stall detector's report: the request being served (its method and id),
/// and through `LuaActivity` the plugin function. The loop writes it around each request — the id under a lock, the
/// method number in an atomic (so `served()` is one store, and no method name is retained) — and only the detector
/// reads it, once, when the loop has not turned for the whole timeout (so it cannot see a request half written).
final class LoopActivity: Sendable {
    /// The method number being served, or -1 between requests.
    private let method = Atomic<Int>(-1)
    private let id = Mutex<RequestID?>(nil)
    /// The method names, by number (`Daemon.methodTable.names`).
    private let names: [String]
    let lua: LuaActivity

    init(names: [String], lua: LuaActivity = .shared) {
        self.names = names
        self.lua = lua
    }

    func serving(method number: Int, id: RequestID?) {
        self.id.withLock { $0 = id }
        method.store(number, ordering: .releasing)
    }

    func served() { method.store(-1, ordering: .relaxed) }

    /// One line naming what runs now: "request container.select (id 7), plugin stall.lua: animate (defined at
    /// line 1)", or what is known of it.
    var description: String {
        var parts: [String] = []
        let number = method.load(ordering: .acquiring)
        if names.indices.contains(number) {
            var text = ""
            switch id.withLock({ $0 }) {
            case nil: text = " (a notification)"
            case .null?: text = " (id null)"
            case .string(let s)?: text = " (id \(JSONValue.string(s).serialized()))"
            case .number(let n)?: text = " (id \(n))"
            }
            parts.append("request \(names[number])\(text)")
        } else {
            parts.append("no request (a timer, a frame or a reload)")
        }
        if let call = lua.call { parts.append("plugin \(call)") }
        return parts.joined(separator: ", ")
    }
}
