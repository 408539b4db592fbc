import CLuaShim

/// What a Lua call returned when it failed: what stopped it and the message (with traceback).
public struct LuaError: Error, Sendable, CustomStringConvertible {
    /// What ended a call, as the shim knows it (never read from the message's text).
    public enum Kind: Sendable, Equatable {
        /// The script (or a host function it called) raised an error.
        case runtime
        /// The chunk did not compile.
        case syntax
        /// The state's memory cap refused an allocation during the call.
        case memory
        /// The instruction budget was spent (per call, or the plugin's budgets for one instant of its clock).
        case budget
        /// The wall-clock backstop stopped the call.
        case timeout
        /// The plugin is disabled in this scene (too many of its calls were stopped): the call did not run.
        case disabled

        /// Whether the call was stopped by a limit (budget, clock or memory): what quarantines a plugin.
        public var isRunaway: Bool { self == .budget || self == .timeout || self == .memory }

        init(shim kind: Int32) {
            switch UInt32(bitPattern: kind) {
            case SEGUE_ERROR_SYNTAX.rawValue: self = .syntax
            case SEGUE_ERROR_MEMORY.rawValue: self = .memory
            case SEGUE_ERROR_BUDGET.rawValue: self = .budget
            case SEGUE_ERROR_TIMEOUT.rawValue: self = .timeout
            default: self = .runtime
            }
        }
    }

    public let kind: Kind
    public let message: String
    public init(_ message: String, kind: Kind = .runtime) {
        self.message = message
        self.kind = kind
    }
    public var description: String { message }

    /// Longest error message kept (8 KiB): a traceback per level of a deep recursion through the host can reach
    /// hundreds of KB, which would then travel in every event and log line.
    static let maxMessageBytes = 8192

    static func bounded(_ message: String) -> String {
        guard message.utf8.count > maxMessageBytes else { return message }
        let head = message.utf8.prefix(maxMessageBytes)
        return String(decoding: head, as: UTF8.self) + "\n… (\(message.utf8.count - maxMessageBytes) more bytes)"
    }
}

/// A host function: reads its arguments from the state's stack and returns a result count, or `.error(message)`.
/// It must only use non-raising Lua calls (the shim raises after it returns).
enum HostResult {
    case results(Int32)
    case error(String)
}

/// Owns one sandboxed `lua_State` (closed in deinit) and the Swift functions it can call.
final class LuaState {
    /// The thread host code works on: the main thread, or the coroutine that called the running host function
    /// (host functions must read their arguments from, and push results on, the stack of the thread that called).
    @exclusivity(unchecked) private(set) var L: OpaquePointer
    /// The state's main thread (what `segue_close` closes).
    let main: OpaquePointer
    /// A host function, in a struct so the array holds it at its own calling convention: no reabstraction thunk
    /// (an indirect return of the `HostResult`) per call, as an array of bare closures has.
    private struct HostFunction {
        let call: (LuaState) -> HostResult
    }
    private var hostFunctions: [HostFunction] = []

    /// A new sandboxed state, or nil when Lua cannot allocate one.
    /// `callTimeoutMs` > 0 arms the wall-clock backstop (a top-level call running longer is stopped).
    init?(memoryLimit: Int, instructionBudget: Int, callTimeoutMs: Int = 0) {
        // The view properties' names go to the shim before the first state (every state interns them).
        guard PluginInstance.propertyNamesInstalled,
            let L = segue_newstate(memoryLimit, Int64(instructionBudget))
        else { return nil }
        self.L = L
        self.main = L
        self.sandbox = segue_sandbox_of(L)
        if callTimeoutMs > 0 { segue_set_call_timeout(L, Int32(min(callTimeoutMs, 3_600_000))) }
    }

    deinit { segue_close(main) }

    /// The sandbox bookkeeping of this state (the allocator's user data, fixed for the state's life).
    let sandbox: UnsafeMutablePointer<segue_sandbox>
    var memoryUsed: Int { sandbox.pointee.used }
    /// Instructions the last top-level call used (to the count hook's granularity of 1000; 0 without a budget).
    var lastCallInstructions: Int { Int(sandbox.pointee.last_used) }
    /// The instruction budget per top-level call (0: none).
    var instructionBudget: Int { Int(sandbox.pointee.budget) }

    /// Pushes a C closure that calls `function` through the shim's trampoline.
    func pushHostFunction(_ function: @escaping (LuaState) -> HostResult) {
        hostFunctions.append(HostFunction(call: function))
        segue_pushhost(L, luaHostEntry, Unmanaged.passUnretained(self).toOpaque(), Int32(hostFunctions.count - 1))
    }

    /// Pushes a proxy metatable's `__index`: `methods[key]` for the table at `methods` (and, with `cached`, a
    /// field cached in the proxy's user values) answered in C; `function` runs for every other key.
    func pushIndexFunction(methods: Int32, cached: Bool, _ function: @escaping (LuaState) -> HostResult) {
        hostFunctions.append(HostFunction(call: function))
        segue_pushindex(L, methods, Int32(hostFunctions.count - 1), cached ? 1 : 0)
    }

    fileprivate func callHost(_ index: Int32, thread: OpaquePointer?) -> Int32 {
        let saved = L
        if let thread { L = thread }
        defer { L = saved }
        guard index >= 0, Int(index) < hostFunctions.count else {
            push("segued: unknown host function")
            return -1
        }
        switch hostFunctions[Int(index)].call(self) {
        case .results(let n): return n
        case .error(let message):
            push(message)
            return -1
        }
    }

    // MARK: Stack

    var top: Int32 { lua_gettop(L) }
    func setTop(_ n: Int32) { lua_settop(L, n) }
    func pop(_ n: Int32 = 1) { segue_pop(L, n) }
    func type(at i: Int32) -> Int32 { lua_type(L, i) }
    func isNil(_ i: Int32) -> Bool { lua_type(L, i) <= LUA_TNIL }
    func typeName(at i: Int32) -> String { String(cString: lua_typename(L, lua_type(L, i))) }
    /// What Lua's `type()` answers for the argument at `i`: "nil" for an argument not given, where `typeName` says
    /// "no value" (a host function in a prelude wrapper's place reports its arguments as the wrapper did).
    func luaTypeName(at i: Int32) -> String { lua_type(L, i) == LUA_TNONE ? "nil" : typeName(at: i) }

    func push(_ s: String) { _ = s.withCString { lua_pushstring(L, $0) } }
    func push(_ n: Double) { lua_pushnumber(L, n) }
    func push(_ n: Int) { lua_pushinteger(L, lua_Integer(n)) }
    func push(_ b: Bool) { lua_pushboolean(L, b ? 1 : 0) }
    func pushNil() { lua_pushnil(L) }
    func pushValue(_ i: Int32) { lua_pushvalue(L, i) }

    func string(at i: Int32) -> String? {
        guard lua_type(L, i) == LUA_TSTRING else { return nil }
        var length = 0
        guard let p = segue_tostring(L, i, &length) else { return nil }
        return String(decoding: UnsafeRawBufferPointer(start: p, count: length), as: UTF8.self)
    }

    /// An error message at `i` as text that stays readable (and valid JSON once written): a byte that is not UTF-8
    /// (a syntax error quoting a Latin-1 token, a message built from a byte string) shows as `\xHH`.
    func message(at i: Int32) -> String? {
        guard lua_type(L, i) == LUA_TSTRING else { return nil }
        var length = 0
        guard let p = segue_tostring(L, i, &length) else { return nil }
        return FileSystem.displayText(UnsafeRawBufferPointer(start: p, count: length))
    }

    /// The `segue_name` of the string at `i` (`SEGUE_NAME_NONE` for another string, -1 for no string): decoded
    /// in C, no Swift string made.
    func name(at i: Int32) -> Int32 { segue_name_at(L, i) }

    func number(at i: Int32) -> Double? {
        guard lua_type(L, i) == LUA_TNUMBER else { return nil }
        return lua_tonumberx(L, i, nil)
    }

    func bool(at i: Int32) -> Bool { lua_toboolean(L, i) != 0 }

    /// Pushes `t[key]` (raw) for the table at `t`; returns the value's type. Pushes nil when `t` is no table.
    @discardableResult
    func rawField(_ t: Int32, _ key: String) -> Int32 {
        guard lua_type(L, t) == LUA_TTABLE else {
            lua_pushnil(L)
            return LUA_TNIL
        }
        // `withCString`, not the implicit String→pointer conversion: that one copies a small string (every key
        // here) into a new heap buffer per call; this one uses a stack copy.
        return key.withCString { segue_rawgetfield(L, t, $0) }
    }

    /// `rawField` for a name the shim interned (`segue_key`): no string is converted or hashed.
    @discardableResult
    func rawField(_ t: Int32, _ key: segue_key) -> Int32 {
        guard lua_type(L, t) == LUA_TTABLE else {
            lua_pushnil(L)
            return LUA_TNIL
        }
        return segue_rawgetkey(L, t, key)
    }

    func numberField(_ t: Int32, _ key: segue_key) -> Double? {
        rawField(t, key)
        defer { pop() }
        return number(at: -1)
    }

    /// Whether every key of the table at `t` is a string that the table at registry reference `known` has
    /// (raw): the common case of an options table, checked without running Lua. False when either is no table.
    func hasOnlyKeys(at t: Int32, in known: Int32) -> Bool {
        guard lua_type(L, t) == LUA_TTABLE else { return false }
        let base = lua_gettop(L)
        defer { lua_settop(L, base) }
        guard lua_rawgeti(L, segue_registryindex(), lua_Integer(known)) == LUA_TTABLE else { return false }
        let names = base + 1
        lua_pushnil(L)
        while lua_next(L, t) != 0 {                 // [names key value]
            guard lua_type(L, -2) == LUA_TSTRING else { return false }
            lua_pushvalue(L, -2)                    // [names key value key]
            guard lua_rawget(L, names) != LUA_TNIL else { return false }
            pop(2)                                  // [names key]
        }
        return true
    }

    @discardableResult
    func rawIndex(_ t: Int32, _ n: Int) -> Int32 {
        guard lua_type(L, t) == LUA_TTABLE else {
            lua_pushnil(L)
            return LUA_TNIL
        }
        return lua_rawgeti(L, t, lua_Integer(n))
    }

    /// Sets `t[key] = top` (raw) and pops the value.
    func setRawField(_ t: Int32, _ key: String) { key.withCString { segue_rawsetfield(L, t, $0) } }

    func numberField(_ t: Int32, _ key: String) -> Double? {
        rawField(t, key)
        defer { pop() }
        return number(at: -1)
    }

    func stringField(_ t: Int32, _ key: String) -> String? {
        rawField(t, key)
        defer { pop() }
        return string(at: -1)
    }

    func newTable(arrayCount: Int32 = 0, fieldCount: Int32 = 0) { lua_createtable(L, arrayCount, fieldCount) }

    // MARK: References

    /// Pops the top value into the registry and returns its reference.
    func ref() -> Int32 { luaL_ref(L, segue_registryindex()) }
    func pushRef(_ ref: Int32) { lua_rawgeti(L, segue_registryindex(), lua_Integer(ref)) }
    func unref(_ ref: Int32) { luaL_unref(L, segue_registryindex(), ref) }

    // MARK: Calls

    /// Loads the host's own Lua text (the prelude) as a function on the stack: parsed by the first state, loaded
    /// from the bytecode dumped then by every later state given the same text (segue_loadtrusted). Never for a
    /// plugin's text.
    func loadTrusted(_ source: String, chunkName: String) -> LuaError? {
        var text = source
        let status = text.withUTF8 { bytes in
            bytes.withMemoryRebound(to: CChar.self) { chars in
                guard let base = chars.baseAddress else { return "".withCString { segue_loadtrusted(L, $0, 0, chunkName) } }
                return segue_loadtrusted(L, base, chars.count, chunkName)
            }
        }
        guard status == LUA_OK else { return failure(default: "load failed") }
        return nil
    }

    /// Loads Lua source text (never bytecode) as a function on the stack.
    func load(_ source: String, chunkName: String) -> LuaError? {
        load(bytes: Array(source.utf8), chunkName: chunkName)
    }

    /// Loads a chunk as the bytes it is (a plugin file as it is on disk: Lua strings are bytes, and a byte that is
    /// not UTF-8 must stay that byte), never bytecode.
    func load(bytes: [UInt8], chunkName: String) -> LuaError? {
        let status = bytes.withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { text in
                guard let base = text.baseAddress else { return "".withCString { segue_loadtext(L, $0, 0, chunkName) } }
                return segue_loadtext(L, base, text.count, chunkName)
            }
        }
        guard status == LUA_OK else { return failure(default: "load failed") }
        return nil
    }

    /// Calls the function below `args` arguments. A `topLevel` call gets a fresh instruction budget unless another
    /// call runs on this state (the shim keeps that one count): a script cannot refill its budget by making the
    /// engine call back into it (ctx:complete → ended). On success the results are on the stack; on failure the
    /// stack is as before the function and the error is returned.
    @inline(__always)
    func call(args: Int32, results: Int32, topLevel: Bool) -> LuaError? {
        guard segue_pcall(L, args, results, topLevel ? 1 : 0) == LUA_OK else { return failure(default: "error") }
        return nil
    }

    /// The failed call's error: its message (popped) and the kind the shim recorded.
    private func failure(default text: String) -> LuaError {
        let message = message(at: -1) ?? text
        pop()
        return LuaError(LuaError.bounded(message), kind: LuaError.Kind(shim: sandbox.pointee.error_kind))
    }

    /// The line a Lua function at `i` is defined at (0 for anything else): cheap, no allocation.
    func lineDefined(at i: Int32) -> Int {
        guard lua_type(L, i) == LUA_TFUNCTION else { return 0 }
        var ar = lua_Debug()
        lua_pushvalue(L, i)
        guard lua_getinfo(L, ">S", &ar) != 0 else { return 0 }
        return Int(max(0, ar.linedefined))
    }

    // MARK: Userdata proxies

    /// Pushes a full userdata holding (tag, handle) with the metatable stored at registry reference `metatable`
    /// and `userValues` user value slots (nil).
    func pushProxy(tag: Int32, handle: Int, metatable: Int32, userValues: Int32 = 0) {
        guard let raw = lua_newuserdatauv(L, 16, userValues) else {
            lua_pushnil(L)
            return
        }
        raw.storeBytes(of: tag, toByteOffset: 0, as: Int32.self)
        raw.storeBytes(of: Int64(handle), toByteOffset: 8, as: Int64.self)
        pushRef(metatable)
        lua_setmetatable(L, -2)
    }

    /// Reads a proxy pushed by `pushProxy` with the given tag; nil for anything else.
    func proxy(at i: Int32, tag: Int32) -> Int? {
        let handle = segue_proxy_handle(L, i, tag)
        return handle < 0 ? nil : Int(handle)
    }

    /// The `segue_name` of the key the running `__index` function (`pushIndexFunction`) was called with.
    var indexName: Int32 { sandbox.pointee.index_name }
}

/// The one C entry point for every host function: finds the state and the function by index.
private let luaHostEntry: segue_host_fn = { thread, context, index in
    guard let context else { return -1 }
    return Unmanaged<LuaState>.fromOpaque(context)._withUnsafeGuaranteedRef { $0.callHost(index, thread: thread) }
}
