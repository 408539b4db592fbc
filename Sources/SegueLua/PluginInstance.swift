import CLuaShim
import SegueKit

/// One plugin file loaded in its own Lua state, bound to one scene (or to none, when probing a file at load time).
final class PluginInstance {
    /// A plugin description the file returned.
    struct Described {
        let kind: PluginKind
        let ref: Int32
        let name: String?
    }

    let state: LuaState
    let file: String
    /// The scene, nil once it is gone (or when probing). Held through the scene's anchor, not `weak`: a weak
    /// reference would give the scene a side table, slowing every retain of it (see `Anchor`).
    var scene: Scene? { sceneAnchor?.object }
    private let sceneAnchor: Anchor<Scene>?
    /// Called for `segue.log` and for problems found outside a transition (errors in completions, timers).
    var onLog: ((String) -> Void)?
    var onWarning: ((PluginWarning) -> Void)?
    private(set) var described: [Described] = []
    /// Warnings about the description list itself (a kind that is none of `PluginKind`'s), made while loading.
    private(set) var describeWarnings: [String] = []
    // The per-call bookkeeping is written on every plugin call, from the engine thread only: no dynamic
    // exclusivity check (`@exclusivity(unchecked)`), as the daemon does for its own per-request state.
    @exclusivity(unchecked) var calls = 0
    @exclusivity(unchecked) var failures = 0
    /// Calls stopped by the budget, the wall clock or the memory cap (see `runawayLimit`).
    @exclusivity(unchecked) var runawayCalls = 0
    @exclusivity(unchecked) private var currentTurn: Int64 = -2
    @exclusivity(unchecked) private var instructionsThisTurn = 0

    var viewMetatable: Int32 = segue_noref()
    var ctxMetatable: Int32 = segue_noref()
    /// The prelude's `coordinator_of` (what the context's `__index` answers for `coordinator`). Its `view_methods`
    /// and `ctx_methods` are upvalues of the `__index` functions (`segue_pushindex`).
    var ctxCoordinator: Int32 = segue_noref()
    /// The prelude's `check_keys` and its set of animation option names (`segue.animate`'s key check).
    var checkKeys: Int32 = segue_noref()
    var animationOptionNames: Int32 = segue_noref()
    /// The prelude's dispatcher for interaction plugins.
    var interactionHook: Int32 = segue_noref()
    /// The prelude's `readonly_copy`, which makes `ctx.info` a read-only table.
    var infoHook: Int32 = segue_noref()
    /// The prelude's dispatcher for presentation plugins.
    var presentationHook: Int32 = segue_noref()
    /// A context handed to this state: its handle (what its proxy holds) and its proxy's registry reference.
    struct KnownContext {
        let key: ObjectIdentifier
        let handle: Int
        let context: TransitionContext
        let proxy: Int32
    }
    /// The contexts handed to this state and not forgotten yet: one per transition in flight with this plugin, so
    /// a few, searched linearly — a transition's first push and its forget hash nothing and allocate nothing.
    private(set) var knownContexts: [KnownContext] = []
    /// The context pushed last and its proxy's registry reference: every call of one transition pushes the same
    /// context, so it is found without hashing (cleared when that context is forgotten).
    @exclusivity(unchecked) private var lastContext: ObjectIdentifier?
    @exclusivity(unchecked) private var lastContextProxy: Int32 = segue_noref()
    var nextContextHandle = 1
    /// The context `context(at:)` found last, by handle: a transition's calls read one context many times, found
    /// without hashing (cleared when it is forgotten).
    @exclusivity(unchecked) private var recentHandle = 0
    @exclusivity(unchecked) private var recentContext: TransitionContext?
    /// The two views `view(at:)` found last (a plugin writes the same two or three views in turn): found without
    /// hashing the serial.
    @exclusivity(unchecked) private var recentViews: (View?, View?) = (nil, nil)
    /// The field names the engine's calls look up (`Key`), each a Lua string kept in the registry: pushed by
    /// reference, so no Swift string is converted or hashed per call.
    let keyRefs: [Int32]
    /// The descriptions of the plugin functions called lately, for the stall detector (`LuaActivity`).
    @exclusivity(unchecked) var activityCache = ActivityCache()
    /// The described callbacks (completion blocks, timers) by name and line (`activityNumber(_:at:)`).
    @exclusivity(unchecked) var callbackActivities: [(function: String?, line: Int, number: Int)] = []
    /// Unknown names this state has warned about (`kind\0name`), so each is reported once.
    var warnedNames: Set<String> = []
    /// The property animators the plugin made (`segue.property_animator`), by the number their table holds (kept
    /// for the state's life: the sandbox has no finalizers; at most `maxPropertyAnimators`).
    var propertyAnimators: [Int: PropertyAnimator] = [:]
    var nextAnimatorID = 1
    /// The prelude's `function(t) return pa_ids[t] end`: a property animator table's number.
    var animatorLookup: Int32 = segue_noref()
    /// A raise inside a property animator's animation block, reported by the call that ran the block.
    var blockFailure: LuaError?

    static let viewTag: Int32 = 0x5649_4557  // "VIEW"
    static let ctxTag: Int32 = 0x4354_5854  // "CTXT"

    /// A state for source given as text (tests, snippets): see `init(bytes:…)`.
    convenience init(
        source: String, file: String, chunkName: String, scene: Scene?, memoryLimit: Int, instructionBudget: Int,
        callTimeoutMs: Int = 0
    ) throws(LuaError) {
        try self.init(
            bytes: Array(source.utf8), file: file, chunkName: chunkName, scene: scene, memoryLimit: memoryLimit,
            instructionBudget: instructionBudget, callTimeoutMs: callTimeoutMs)
    }

    /// Builds the state, runs the prelude and the plugin's chunk — the file's bytes as they are on disk. Throws a
    /// message when any step fails.
    init(
        bytes source: [UInt8], file: String, chunkName: String, scene: Scene?, memoryLimit: Int, instructionBudget: Int,
        callTimeoutMs: Int = 0
    ) throws(LuaError) {
        guard
            let state = LuaState(memoryLimit: memoryLimit, instructionBudget: instructionBudget, callTimeoutMs: callTimeoutMs)
        else {
            throw LuaError("could not create a Lua state")
        }
        self.state = state
        self.file = file
        sceneAnchor = scene?.anchor
        let base = state.top
        keyRefs = Key.allCases.map { key in
            state.push(key.name)
            return state.ref()
        }
        // [prelude]
        if let error = state.loadTrusted(Prelude.source, chunkName: "=segue-prelude") { throw error }
        registerHostAPI()  // [prelude host]
        if let error = state.call(args: 1, results: 1, topLevel: true) { throw error }  // [describe]
        // [describe chunk]
        if let error = state.load(bytes: source, chunkName: chunkName) {
            state.setTop(base)
            throw error
        }
        if let error = state.call(args: 0, results: 1, topLevel: true) {  // [describe result]
            state.setTop(base)
            throw error
        }
        if let error = state.call(args: 1, results: 2, topLevel: true) {  // [list|nil message?]
            state.setTop(base)
            throw error
        }
        guard state.type(at: -2) == LUA_TTABLE else {
            let message = state.message(at: -1) ?? "the file did not return a plugin"
            state.setTop(base)
            throw LuaError(message)
        }
        let list = state.top - 1
        var index = 1
        while state.rawIndex(list, index) == LUA_TTABLE {  // [list msg item]
            let item = state.top
            let text = state.stringField(item, "kind") ?? PluginKind.animator.rawValue
            guard let kind = PluginKind(rawValue: text) else {
                // Refused where it comes in: said once, with the kinds there are (PluginHost.load warns).
                describeWarnings.append(PluginKind.unknown(text))
                state.pop()
                index += 1
                continue
            }
            state.rawField(item, "desc")  // [list msg item desc]
            let name = state.stringField(state.top, "name")
            nameFunctions(of: state.top)
            described.append(Described(kind: kind, ref: state.ref(), name: name))  // [list msg item]
            state.pop()
            index += 1
        }
        state.setTop(base)
    }

    // MARK: Calls into the plugin

    /// The field names the engine looks up in a plugin description on its call paths.
    enum Key: Int, CaseIterable {
        case duration, animate, ended, interruptibleAnimator

        var name: String {
            switch self {
            case .duration: "duration"
            case .animate: "animate"
            case .ended: "ended"
            case .interruptibleAnimator: "interruptible_animator"
            }
        }
    }

    /// Pushes field `key` of plugin description `ref`; returns its Lua type.
    @discardableResult
    func pushField(_ ref: Int32, _ key: String) -> Int32 {
        state.pushRef(ref)
        let type = state.rawField(-1, key)
        lua_rotate(state.L, -2, 1)  // swap: [field desc]
        state.pop()
        return type
    }

    /// Pushes plugin description `ref` and its field `key` above it (the key pushed by reference, the description
    /// left for the caller's reset of the top); returns the field's Lua type.
    @inline(__always)
    @discardableResult
    func pushField(_ ref: Int32, _ key: Key) -> Int32 { segue_pushfield(state.L, ref, keyRefs[key.rawValue]) }

    /// Calls the function on the stack (below `args` arguments) as one top-level plugin call. `function` names it for
    /// the stall detector's report (`LuaActivity`).
    func callPlugin(args: Int32, results: Int32, function: String? = nil) -> LuaError? {
        callPlugin(args: args, results: results, activity: activityNumber(function, at: -(args + 1)))
    }

    /// Calls the function on the stack (below `args` arguments) as one top-level plugin call, recorded for the stall
    /// detector as the described call `activity` (`activityNumber`).
    func callPlugin(args: Int32, results: Int32, activity: Int) -> LuaError? {
        calls += 1
        if runawayCalls >= PluginInstance.runawayLimit {
            // Quarantined: the call fails at once, as a failed call leaves the stack (function and arguments gone).
            state.pop(args + 1)
            failures += 1
            return LuaError(PluginInstance.quarantineMessage, kind: .disabled)
        }
        // One budget per call, and at most `turnBudgets` budgets per instant of the scene's clock (one frame, or
        // one request on a manual clock): a thousand completions that each stay just under the budget must not hold
        // the engine for a thousand budgets. The clock is read only when it matters (a weak reference's load costs
        // as much as a trivial call): before a call when this turn's count has reached the limit (a new instant
        // starts it over), and after a call that used instructions (which count for the instant it ran in). Calls
        // that used none change no count, so the count is the same as if the clock were read on every call.
        let budget = state.instructionBudget
        let limit = budget * PluginInstance.turnBudgets
        if budget > 0, instructionsThisTurn >= limit {
            startTurn(scene?.now ?? -1)
            if instructionsThisTurn >= limit {
                state.pop(args + 1)
                failures += 1
                runawayCalls += 1
                return LuaError(
                    "instruction budget exceeded (lua.instruction_budget): this plugin's calls used \(PluginInstance.turnBudgets) budgets in one frame",
                    kind: .budget)
            }
        }
        let previous = LuaActivity.shared.enter(activity)
        let error = state.call(args: args, results: results, topLevel: true)
        LuaActivity.shared.leave(restoring: previous)
        let used = state.lastCallInstructions
        if used > 0 {
            startTurn(scene?.now ?? -1)
            instructionsThisTurn += used
        }
        if let error {
            failures += 1
            if error.kind.isRunaway { runawayCalls += 1 }
        }
        return error
    }

    /// Starts counting a new instant of the scene's clock when `turn` is not the one counted.
    @inline(__always)
    private func startTurn(_ turn: Int64) {
        guard turn != currentTurn else { return }
        currentTurn = turn
        instructionsThisTurn = 0
    }

    /// Budgets one plugin state may spend in one instant of its scene's clock (4).
    static let turnBudgets = 4

    /// A state whose calls were stopped this many times (budget, wall clock or memory) gets no more calls: a timer
    /// chain that runs away on every frame would otherwise cost a full budget per frame forever. Reloading the
    /// plugin (or a new scene) starts over with a fresh state.
    static let runawayLimit = 3
    static let quarantineMessage =
        "plugin disabled in this scene: 3 of its calls were stopped (instruction budget, time or memory); save or reload it to try again"

    /// `animator_for(op)` of a delegate: an animator name, nil, or the fault.
    func callDelegate(_ ref: Int32, _ op: TransitionOperation, function: String = "animator_for", animator: String? = nil)
        -> Result<String?, AnimatorFault>
    {
        let base = state.top
        defer { state.setTop(base) }
        guard pushField(ref, function) == LUA_TFUNCTION else {
            if animator != nil { return .success(nil) }  // interaction_for is optional
            return .failure(AnimatorFault("the delegate has no \(function) function"))
        }
        state.newTable()
        let t = state.top
        func field(_ key: String, _ value: String?) {
            guard let value else { return }
            state.push(value)
            state.setRawField(t, key)
        }
        field("kind", op.kind.rawValue)
        field("container", op.container.id)
        field("from", op.from.id)
        field("to", op.to.id)
        field("direction", op.direction?.rawValue)
        for (key, value) in [("from_index", op.fromIndex), ("to_index", op.toIndex)] {
            guard let value else { continue }
            state.push(value)
            state.setRawField(t, key)
        }
        var args: Int32 = 1
        if let animator {
            state.push(animator)
            args = 2
        }
        if let error = callPlugin(args: args, results: 1, function: function) { return .failure(AnimatorFault("\(function): \(error.message)")) }
        switch state.type(at: -1) {
        case LUA_TNIL: return .success(nil)
        case LUA_TSTRING: return .success(state.string(at: -1))
        default: return .failure(AnimatorFault("\(function) must return a plugin name or nil, got \(state.typeName(at: -1))"))
        }
    }

    // MARK: Proxies

    func pushView(_ view: View?) {
        guard let view, view.isAlive else {
            state.pushNil()
            return
        }
        state.pushProxy(tag: PluginInstance.viewTag, handle: view.serial, metatable: viewMetatable)
    }

    func view(at i: Int32) -> View? {
        guard let serial = state.proxy(at: i, tag: PluginInstance.viewTag) else { return nil }
        if let view = recentView(serial) { return view }
        guard let scene else { return nil }
        return lookUpView(serial, in: scene)
    }

    /// `view(at:)` with the scene already loaded.
    func view(at i: Int32, in scene: Scene) -> View? {
        guard let serial = state.proxy(at: i, tag: PluginInstance.viewTag) else { return nil }
        if let view = recentView(serial) { return view }
        return lookUpView(serial, in: scene)
    }

    /// One of the two views found last, when it has `serial` and is alive. A view leaves its scene's table exactly
    /// when it is destroyed (`isAlive` false, never true again) and serials are not reused, so a kept live view is
    /// the one the scene's table answers; a kept dead one is dropped (the table has no view of its serial either).
    @inline(__always)
    private func recentView(_ serial: Int) -> View? {
        if let view = recentViews.0, view.serial == serial {
            if view.isAlive { return view }
            recentViews.0 = nil
        } else if let view = recentViews.1, view.serial == serial {
            if view.isAlive { return view }
            recentViews.1 = nil
        }
        return nil
    }

    private func lookUpView(_ serial: Int, in scene: Scene) -> View? {
        guard let view = scene.view(serial: serial) else { return nil }
        recentViews = (view, recentViews.0)
        return view
    }

    /// Pushes the proxy of `context` (the same proxy for every call of one transition: no allocation per call);
    /// returns true when it is new (the context was not known to this state).
    @discardableResult
    func pushContext(_ context: TransitionContext) -> Bool {
        let key = ObjectIdentifier(context)
        if key == lastContext {
            state.pushRef(lastContextProxy)
            return false
        }
        if let known = knownContexts.first(where: { $0.key == key }) {
            state.pushRef(known.proxy)
            lastContext = key
            lastContextProxy = known.proxy
            return false
        }
        let handle = nextContextHandle
        nextContextHandle += 1
        // Its user value slots cache the fields that cannot change (contextGet, segue_cache_field).
        state.pushProxy(tag: PluginInstance.ctxTag, handle: handle, metatable: ctxMetatable, userValues: Int32(SEGUE_CTX_CACHED))
        state.pushValue(-1)
        let proxy = state.ref()
        knownContexts.append(KnownContext(key: key, handle: handle, context: context, proxy: proxy))
        lastContext = key
        lastContextProxy = proxy
        return true
    }

    /// Whether `context` was handed to this state and not forgotten.
    func knows(_ context: TransitionContext) -> Bool {
        let key = ObjectIdentifier(context)
        return knownContexts.contains { $0.key == key }
    }

    func forgetContext(_ context: TransitionContext) { forgetContext(ObjectIdentifier(context)) }

    func forgetContext(_ key: ObjectIdentifier) {
        if key == lastContext {
            lastContext = nil
            lastContextProxy = segue_noref()
        }
        guard let index = knownContexts.firstIndex(where: { $0.key == key }) else { return }
        let known = knownContexts.remove(at: index)
        if known.handle == recentHandle {
            recentHandle = 0
            recentContext = nil
        }
        // A plugin may keep the proxy: its cached fields go, so every read is the dead-context error.
        state.pushRef(known.proxy)
        segue_uncache_fields(state.L, -1)
        state.pop()
        state.unref(known.proxy)
    }

    func context(at i: Int32) -> TransitionContext? {
        guard let handle = state.proxy(at: i, tag: PluginInstance.ctxTag) else { return nil }
        if handle == recentHandle { return recentContext }
        guard let context = knownContexts.first(where: { $0.handle == handle })?.context else { return nil }
        recentHandle = handle
        recentContext = context
        return context
    }

    /// Runs a completion or timer callback stored at `ref` (and releases it).
    func runCallback(_ ref: Int32, argument: Bool?, what: String) {
        state.pushRef(ref)
        state.unref(ref)
        var args: Int32 = 0
        if let argument {
            state.push(argument)
            args = 1
        }
        if let error = callPlugin(args: args, results: 0, function: what) {
            warnRaised(what, error)
        }
    }
}
