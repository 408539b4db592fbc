/// The stall detector's numbers (`LuaActivity`) for the plugin functions a state's descriptions hold, found by the
/// function's identity and the field it was called as: a function is described (`lua_getinfo`, a lock) once, not
/// per call. Each entry keeps its function alive by a registry reference, so its address cannot be taken by another
/// function while it is listed. Small and scanned in order: a plugin state calls a handful of such functions.
struct ActivityCache {
    struct Entry {
        /// The function's address (`lua_topointer`).
        let function: UnsafeRawPointer
        /// The field the engine called it as.
        let key: PluginInstance.Key
        /// The registry reference keeping the function alive.
        let ref: Int32
        /// Its described call.
        let number: Int
    }

    /// Functions listed at most; the oldest is dropped past it (a plugin replacing its functions at run time).
    static let capacity = 16

    private(set) var entries: [Entry] = []

    @inline(__always)
    func number(of function: UnsafeRawPointer, as key: PluginInstance.Key) -> Int? {
        for entry in entries where entry.function == function && entry.key == key { return entry.number }
        return nil
    }

    /// Lists `entry`; returns the reference of the entry dropped to make room, for the caller to release.
    mutating func add(_ entry: Entry) -> Int32? {
        entries.append(entry)
        guard entries.count > ActivityCache.capacity else { return nil }
        return entries.removeFirst().ref
    }
}
