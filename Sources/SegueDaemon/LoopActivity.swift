import SegueJSON
import SegueLua
import Synchronization

/// What the event loop is running, for the stall detector's report: the request being served (its method and id),
/// and through `LuaActivity` the plugin function. The loop writes it around each request and only the detector
/// reads it, once, when the loop has not turned for the whole timeout (so it cannot see a request half written).
///
/// Written on every request, so it costs two atomic stores and no lock: the method number in one atomic, and the id
/// packed into another (`PackedID`) — every id of up to 7 bytes, which is nearly every id. A longer id goes under a
/// lock, as every id did before (it cost a daemon.ping ~30 ns).
package final class LoopActivity: Sendable {
    /// The method number being served, or -1 between requests.
    private let method = Atomic<Int>(-1)
    /// The id of the request being served, packed (`PackedID`).
    private let packedID = Atomic<UInt64>(0)
    /// An id too long to pack.
    private let longID = Mutex<RequestID?>(nil)
    /// The method names, by number (`Daemon.methodTable.names`).
    private let names: [String]
    let lua: LuaActivity

    init(names: [String], lua: LuaActivity = .shared) {
        self.names = names
        self.lua = lua
    }

    /// A request starts: `packed` is its id (`RequestEnvelope.packedID`); `id` is read only when that is `long`.
    @inline(__always)
    func serving(method number: Int, packed: PackedID, id: @autoclosure () -> RequestID?) {
        if packed == .long {
            let long = id()
            longID.withLock { $0 = long }
        }
        packedID.store(packed.rawValue, ordering: .relaxed)
        method.store(number, ordering: .releasing)
    }

    func serving(method number: Int, id: RequestID?) {
        serving(method: number, packed: PackedID(id) ?? .long, id: id)
    }

    func served() { method.store(-1, ordering: .relaxed) }

    /// One line naming what runs now: "request container.select (id 7), plugin stall.lua: animate (defined at
    /// line 1)", or what is known of it.
    package var description: String {
        var parts: [String] = []
        let number = method.load(ordering: .acquiring)
        if names.indices.contains(number) {
            let packed = PackedID(rawValue: packedID.load(ordering: .relaxed))
            let id = packed == .long ? longID.withLock { $0 } : packed.id
            var text = ""
            switch id {
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
