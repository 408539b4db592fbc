import CLuaShim
import SegueKit

/// The primitives the prelude builds the `segue` API from. Every function checks its arguments and reports
/// misuse as a Lua error naming the function; none of them raises through Swift.
extension PluginInstance {
    func registerHostAPI() {
        state.newTable()
        let table = state.top
        // The instance is passed as a guaranteed reference: no reference counting per host call (any retain of the
        // instance takes the slow side-table path, since completion blocks hold it weakly). Safe: the closure lives
        // in `state`, which only this instance owns, and runs only inside a call it made.
        let me = Unmanaged.passUnretained(self)
        func host(_ fn: @escaping (PluginInstance, LuaState) -> HostResult) -> (LuaState) -> HostResult {
            { s in me._withUnsafeGuaranteedRef { fn($0, s) } }
        }
        func add(_ name: String, _ fn: @escaping (PluginInstance, LuaState) -> HostResult) {
            state.pushHostFunction(host(fn))
            state.setRawField(table, name)
        }
        // set_metatable(which, metatable, methods[, coordinator_of]): installs the metatable's `__index`, which
        // answers a method (`methods[key]`) and a context's cached constant fields in C (segue_pushindex), then
        // the property (view_get) or `coordinator` (the prelude's coordinator_of) or the field (ctx_get).
        add("set_metatable") { me, s in
            guard let which = s.string(at: 1), s.type(at: 2) == LUA_TTABLE, s.type(at: 3) == LUA_TTABLE else {
                return .error("set_metatable: bad arguments")
            }
            if which == "view" {
                s.pushIndexFunction(methods: 3, cached: false, host { me, s in me.viewGet(s, name: s.indexName) })
            } else {
                s.pushIndexFunction(methods: 3, cached: true, host { me, s in me.contextIndex(s, name: s.indexName) })
            }
            s.setRawField(2, "__index")
            s.pushValue(2)
            let ref = s.ref()
            if which == "view" {
                me.viewMetatable = ref
            } else {
                me.ctxMetatable = ref
                s.pushValue(4)
                me.ctxCoordinator = s.ref()
            }
            return .results(0)
        }
        registerInteractionAPI(table)
        registerNameAPI(table)
        registerPropertyAnimatorAPI(table)
        registerLayerAnimationAPI(table)
        add("view_get") { me, s in me.viewGet(s) }
        add("view_set") { me, s in me.viewSet(s) }
        add("view_same") { me, s in
            s.push(me.view(at: 1).map { a in me.view(at: 2).map { $0 === a } ?? false } ?? false)
            return .results(1)
        }
        add("view_add") { me, s in
            // The scene (a weak reference) loaded once for both lookups, the check and the add.
            guard let scene = me.scene, let parent = me.view(at: 1, in: scene) else { return .error(me.deadView("add")) }
            guard let child = me.view(at: 2, in: scene) else { return .error("view:add(view): the argument is not a live view") }
            guard scene.addSubviewIfAllowed(child, to: parent) else { return .error(me.cannotAdd(child, parent)) }
            return .results(0)
        }
        add("view_insert") { me, s in
            guard let parent = me.view(at: 1) else { return .error(me.deadView("insert")) }
            guard let child = me.view(at: 2) else { return .error("view:insert(view, index): the first argument is not a live view") }
            guard let index = s.number(at: 3), index.isFinite else { return .error("view:insert(view, index): index must be a number") }
            guard me.scene?.canAdd(child, to: parent) == true else { return .error(me.cannotAdd(child, parent)) }
            // Lua indices are 1-based.
            me.scene?.insertSubview(child, into: parent, at: Int(max(0, min(index - 1, 1e9))))
            return .results(0)
        }
        add("view_remove") { me, s in
            guard let view = me.view(at: 1) else { return .error(me.deadView("remove")) }
            me.scene?.removeFromSuperview(view)
            return .results(0)
        }
        add("view_front") { me, s in
            guard let view = me.view(at: 1) else { return .error(me.deadView("bring_to_front")) }
            me.scene?.bringToFront(view)
            return .results(0)
        }
        add("view_snapshot") { me, s in
            guard let view = me.view(at: 1), let scene = me.scene else { return .error(me.deadView("snapshot")) }
            var region: Rect?
            switch me.snapshotRequest(view, s) {
            case .whole: break
            case .region(let r): region = r
            case .refused(let message): return .error(message)
            }
            do throws(EngineError) {
                me.pushView(try me.makeSnapshot(of: view, region: region, in: scene))
                return .results(1)
            } catch {
                return .error("view:snapshot(): \(error.message)")
            }
        }
        add("new_view") { me, s in
            guard let scene = me.scene else { return .error("segue.view: no scene") }
            guard s.type(at: 1) == LUA_TTABLE else { return .error("segue.view expects a table") }
            do throws(EngineError) {
                let view = try scene.makeView(frame: .zero)
                me.pushView(view)
                let ud = s.top
                for (key, name) in PluginInstance.newViewOptions {
                    s.rawField(1, key)
                    defer { s.pop() }
                    if s.isNil(-1) { continue }
                    if let message = me.setProperty(view, name, at: s.top, in: scene) {
                        scene.destroyViewForPlugin(view)
                        return .error("segue.view: \(message)")
                    }
                }
                s.setTop(ud)
                return .results(1)
            } catch {
                return .error("segue.view: \(error.message)")
            }
        }
        add("new_gradient_view") { me, s in me.newGradientView(s) }
        add("ctx_get") { me, s in me.contextGet(s) }
        add("ctx_view") { me, s in
            guard let ctx = me.context(at: 1) else { return .error(me.deadContext) }
            switch UInt32(bitPattern: s.name(at: 2)) {
            case SEGUE_NAME_FROM.rawValue: me.pushView(ctx.view(forKey: "from"))
            case SEGUE_NAME_TO.rawValue: me.pushView(ctx.view(forKey: "to"))
            default: return .error("ctx:view(key): key must be \"from\" or \"to\"")
            }
            return .results(1)
        }
        add("ctx_vc") { me, s in
            guard let ctx = me.context(at: 1) else { return .error(me.deadContext) }
            let key = s.string(at: 2) ?? ""
            guard let vc = ctx.viewController(forKey: key) else { return .error("ctx:vc(key): key must be \"from\" or \"to\"") }
            me.pushViewController(vc, context: ctx)
            return .results(1)
        }
        add("ctx_frame") { me, s in
            guard let ctx = me.context(at: 1) else { return .error(me.deadContext) }
            let final = s.bool(at: 3)
            var vc: ViewController?
            if let key = s.string(at: 2) {
                vc = ctx.viewController(forKey: key)
            } else if s.type(at: 2) == LUA_TTABLE, let id = s.stringField(2, "id") {
                vc = [ctx.fromViewController, ctx.toViewController].first { $0.id == id }
            }
            guard let vc else {
                return .error("ctx:\(final ? "final" : "initial")_frame(key_or_vc): expected \"from\", \"to\" or a vc from ctx:vc()")
            }
            me.push(final ? ctx.finalFrame(for: vc) : ctx.initialFrame(for: vc))
            return .results(1)
        }
        add("ctx_complete") { me, s in
            guard let ctx = me.context(at: 1) else {
                // A complete after the transition ended (its context is gone): ignored, as a second complete is.
                guard s.proxy(at: 1, tag: PluginInstance.ctxTag) != nil else { return .error(me.deadContext) }
                me.warn(.completedTwice, "complete called more than once (after its transition ended); ignored")
                return .results(0)
            }
            guard s.type(at: 2) == LUA_TBOOLEAN else {
                return .error("ctx:complete(did_complete): did_complete must be a boolean, got \(s.typeName(at: 2))")
            }
            ctx.completeTransition(s.bool(at: 2))
            return .results(0)
        }
        add("set_key_check") { me, s in
            guard s.type(at: 1) == LUA_TFUNCTION, s.type(at: 2) == LUA_TTABLE else { return .error("set_key_check: bad arguments") }
            s.pushValue(1)
            me.checkKeys = s.ref()
            s.pushValue(2)
            me.animationOptionNames = s.ref()
            return .results(0)
        }
        add("animate") { me, s in me.animate(s) }
        add("keyframes") { me, s in me.keyframes(s) }
        add("keyframe") { me, s in
            guard let scene = me.scene else { return .error("segue.keyframes: no scene") }
            guard scene.isInAnimationBlock else { return .error("add(start, duration, fn): only inside segue.keyframes") }
            guard let start = s.number(at: 1), let duration = s.number(at: 2), start.isFinite, duration.isFinite,
                (0...1).contains(start), (0...1).contains(duration)
            else { return .error("add(rel_start, rel_duration, fn): rel_start and rel_duration must be numbers in 0…1") }
            guard s.type(at: 3) == LUA_TFUNCTION else { return .error("add(rel_start, rel_duration, fn): fn must be a function") }
            var failure: LuaError?
            scene.addKeyframe(start: start, duration: duration) {
                s.pushValue(3)
                failure = s.call(args: 0, results: 0, topLevel: false)
            }
            if let failure { return .error(failure.message) }
            return .results(0)
        }
        add("transition") { me, s in me.viewTransition(s) }
        add("after") { me, s in
            guard let scene = me.scene else { return .error("segue.after: no scene") }
            guard let seconds = s.number(at: 1), seconds.isFinite else { return .error("segue.after: seconds must be a number") }
            s.pushValue(2)
            let ref = s.ref()
            scene.after(seconds) { [weak me] in me?.runCallback(ref, argument: nil, what: "segue.after callback") }
            return .results(0)
        }
        add("now") { me, s in
            s.push(me.scene?.time ?? 0)
            return .results(1)
        }
        add("log") { me, s in
            if LuaActivity.testStallMilliseconds > 0, s.string(at: 1) == "segued:test-stall" { LuaActivity.testStall() }
            me.onLog?(LuaError.bounded(s.string(at: 1) ?? ""))
            return .results(0)
        }
    }

    func deadView(_ method: String) -> String { "view:\(method)(): the view no longer exists" }

    func cannotAdd(_ child: View, _ parent: View) -> String {
        child === parent || parent.isDescendant(of: child)
            ? "cannot add view \(child.id) inside itself"
            : "cannot add view \(child.id): the view tree would be deeper than \(Scene.maxViewDepth) levels"
    }
    var deadContext: String { "the transition context is no longer valid (its transition has ended)" }

    // MARK: Views

    func viewGet(_ s: LuaState) -> HostResult { viewGet(s, name: s.name(at: 2)) }

    /// A view's property `name` (the key at index 2 decoded by `segue_name_at`): one integer switch, no string.
    func viewGet(_ s: LuaState, name: Int32) -> HostResult {
        guard let view = view(at: 1) else { return .error("the view no longer exists") }
        switch UInt32(bitPattern: name) {
        case SEGUE_NAME_ID.rawValue: s.push(view.id)
        case SEGUE_NAME_FRAME.rawValue: push(view.model.frame)
        case SEGUE_NAME_SUPERVIEW.rawValue: pushView(view.superview)
        case SEGUE_NAME_MASK.rawValue: pushView(view.mask)
        case SEGUE_NAME_SUBVIEWS.rawValue:
            s.newTable(arrayCount: Int32(view.subviews.count))
            for (i, subview) in view.subviews.enumerated() {
                pushView(subview)
                lua_rawseti(s.L, -2, lua_Integer(i + 1))
            }
        case UInt32.max: return .results(0)  // the key is no string
        default:
            if let property = PluginInstance.property(name) { pushModel(property, of: view) } else { s.pushNil() }
        }
        return .results(1)
    }

    func viewSet(_ s: LuaState) -> HostResult {
        // The scene is loaded once (a weak load) for the lookup and the write.
        guard let scene, let view = view(at: 1, in: scene) else { return .error("the view no longer exists") }
        let name = s.name(at: 2)
        guard name >= 0 else { return .error("view properties are named by strings") }
        // One switch on the key: a name views do not have at all warns and is ignored (a method's name, which
        // views have, is the "no property" error).
        if let message = setProperty(view, name, at: 3, in: scene, unknownKey: { s.string(at: 2) ?? "" }) {
            return .error(message)
        }
        return .results(0)
    }

    /// Sets view property `name` (a `segue_name`) from the Lua value at `i`; returns an error message when the value
    /// does not fit. With `unknownKey` (the key as written), a key that is no name of a view at all
    /// (`NameKind.viewProperty`) is a warning, not an error.
    func setProperty(
        _ view: View, _ name: Int32, at i: Int32, in scene: Scene, unknownKey: (() -> String)? = nil
    ) -> String? {
        switch UInt32(bitPattern: name) {
        case SEGUE_NAME_FRAME.rawValue:
            guard let rect = rect(at: i) else { return "view.frame expects a rect {x=, y=, w=, h=}, got \(state.typeName(at: i))" }
            if let message = PluginInstance.negativeSize(rect, "view.frame") { return message }
            scene.set(view, frame: rect)
        case SEGUE_NAME_ID.rawValue: return "view.id is read-only"
        case SEGUE_NAME_SUPERVIEW.rawValue: return "view.superview is read-only"
        case SEGUE_NAME_SUBVIEWS.rawValue: return "view.subviews is read-only"
        case SEGUE_NAME_MASK.rawValue:
            // CALayer.mask: a view (nil removes it), checked by the scene; a refused one changes nothing.
            if state.type(at: i) == LUA_TNIL { return scene.setMask(view, nil) }
            guard let mask = self.view(at: i, in: scene) else {
                return state.proxy(at: i, tag: PluginInstance.viewTag) != nil
                    ? "view.mask expects a live view, got a destroyed view (the write did not happen)"
                    : "view.mask expects a view or nil, got \(describe(at: i)) (the write did not happen)"
            }
            return scene.setMask(view, mask)
        default:
            if let property = PluginInstance.property(name) { return setProperty(view, property, at: i, in: scene) }
            // Every other name (a method's, or none of a view's) comes here: made a Swift string only now.
            let key = unknownKey?() ?? PluginInstance.name(name)
            if unknownKey != nil, !PluginInstance.NameKind.viewProperty.names.contains(key) {
                self.warnUnknown(.viewProperty, key, consequence: "; ignored")
                return nil
            }
            return "views have no property '\(key)'"
        }
        return nil
    }

    /// The error for a model rect with a negative width or height (nil when both are ≥ 0). Only what a plugin
    /// writes is checked: presentation values may still cross zero while a spring overshoots.
    static func negativeSize(_ rect: Rect, _ property: String) -> String? {
        func text(_ v: Double) -> String { v == v.rounded() && v.magnitude < 1e15 ? String(Int(v)) : String(v) }
        if rect.w < 0 { return "\(property).w must be ≥ 0, got \(text(rect.w)) (the write did not happen)" }
        if rect.h < 0 { return "\(property).h must be ≥ 0, got \(text(rect.h)) (the write did not happen)" }
        return nil
    }

    /// The text of a `segue_name`.
    static func name(_ name: Int32) -> String {
        guard let text = segue_name_text(name) else { return "" }
        return String(cString: text)
    }

    func rect(at i: Int32) -> Rect? {
        guard state.type(at: i) == LUA_TTABLE else { return nil }
        var v: (Double, Double, Double, Double) = (0, 0, 0, 0)
        let ok = withUnsafeMutableBytes(of: &v) { segue_rectfields(state.L, i, $0.baseAddress?.assumingMemoryBound(to: Double.self)) }
        guard ok != 0, v.0.isFinite, v.1.isFinite, v.2.isFinite, v.3.isFinite else { return nil }
        return Rect(x: v.0, y: v.1, w: v.2, h: v.3)
    }

    /// The transform at `i` ("identity", `{m = {16 numbers}}` or `{a, b, c, d, tx, ty}`), read in one shim call.
    func transform(at i: Int32) -> Transform3D? {
        var v: (Double, Double, Double, Double, Double, Double, Double, Double,
                Double, Double, Double, Double, Double, Double, Double, Double) =
            (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        let kind = withUnsafeMutableBytes(of: &v) {
            segue_transformfields(state.L, i, $0.baseAddress?.assumingMemoryBound(to: Double.self))
        }
        switch UInt32(bitPattern: kind) {
        case SEGUE_TRANSFORM_IDENTITY.rawValue:
            return .identity
        case SEGUE_TRANSFORM_AFFINE.rawValue:
            return Transform3D(a: v.0, b: v.1, c: v.2, d: v.3, tx: v.4, ty: v.5)
        case SEGUE_TRANSFORM_MATRIX.rawValue:
            return Transform3D(values: [v.0, v.1, v.2, v.3, v.4, v.5, v.6, v.7,
                                        v.8, v.9, v.10, v.11, v.12, v.13, v.14, v.15])
        default:
            return nil
        }
    }

    func push(_ r: Rect) {
        var v = (r.x, r.y, r.w, r.h)
        withUnsafeBytes(of: &v) { segue_pushrect(state.L, $0.baseAddress?.assumingMemoryBound(to: Double.self)) }
    }

    func pushPoint(_ p: Point) {
        state.newTable(fieldCount: 2)
        state.push(p.x); state.setRawField(-2, "x")
        state.push(p.y); state.setRawField(-2, "y")
    }

    func push(_ t: Transform3D) {
        if t.isAffine {
            let a = t.affine
            var v = (a.a, a.b, a.c, a.d, a.tx, a.ty)
            withUnsafeBytes(of: &v) { segue_pushaffine(state.L, $0.baseAddress?.assumingMemoryBound(to: Double.self)) }
        } else {
            state.newTable(fieldCount: 1)
            state.newTable(arrayCount: 16)
            for (k, v) in t.values.enumerated() {
                state.push(v)
                lua_rawseti(state.L, -2, lua_Integer(k + 1))
            }
            state.setRawField(-2, "m")
        }
    }

    // MARK: Context

    func pushViewController(_ vc: ViewController, context: TransitionContext) {
        state.newTable(fieldCount: 4)
        state.push(vc.id); state.setRawField(-2, "id")
        if let title = vc.title { state.push(title); state.setRawField(-2, "title") }
        let index = vc === context.fromViewController ? context.fromIndex : (vc === context.toViewController ? context.toIndex : nil)
        if let index { state.push(index); state.setRawField(-2, "index") }
        pushView(vc.view); state.setRawField(-2, "view")
    }

    /// The context's `__index` for a key that is no method and no cached field: `coordinator` (a new coordinator
    /// table, as the prelude's coordinator_of makes it), else the field (ctx_get).
    func contextIndex(_ s: LuaState, name: Int32) -> HostResult {
        if name == Int32(bitPattern: SEGUE_NAME_COORDINATOR.rawValue) {
            s.setTop(1)
            s.pushRef(ctxCoordinator)
            s.pushValue(1)
            if let error = s.call(args: 1, results: 1, topLevel: false) { return .error(error.message) }
            return .results(1)
        }
        if name == 0, s.string(at: 2) == "info" { return contextInfo(s) }
        return contextGet(s, name: name)
    }

    func contextGet(_ s: LuaState) -> HostResult { contextGet(s, name: s.name(at: 2)) }

    /// Field `name` (a `segue_name`) of the context at index 1. The fields that cannot change during the context's
    /// life (`SEGUE_CTX_CACHED`: id, kind, animated, from_index, to_index, direction — lets of the transition and
    /// the context) are cached in the proxy, so `__index` answers them in C from then on; `forgetContext` drops
    /// them with the context. Not `container`: its view can die while the context lives (a plugin may have put it
    /// in a view that is destroyed; a modal container view goes before `ended`), and only Swift sees that.
    func contextGet(_ s: LuaState, name: Int32) -> HostResult {
        guard let ctx = context(at: 1) else { return .error(deadContext) }
        switch UInt32(bitPattern: name) {
        case SEGUE_NAME_ID.rawValue: s.push(ctx.transition.id)
        case SEGUE_NAME_KIND.rawValue: s.push(ctx.kind.rawValue)
        case SEGUE_NAME_ANIMATED.rawValue: s.push(ctx.isAnimated)
        case SEGUE_NAME_FROM_INDEX.rawValue: if let i = ctx.fromIndex { s.push(i) } else { s.pushNil() }
        case SEGUE_NAME_TO_INDEX.rawValue: if let i = ctx.toIndex { s.push(i) } else { s.pushNil() }
        case SEGUE_NAME_DIRECTION.rawValue: if let d = ctx.direction { s.push(d.rawValue) } else { s.pushNil() }
        case SEGUE_NAME_CONTAINER.rawValue: pushView(ctx.containerView)
        case SEGUE_NAME_DURATION.rawValue: s.push(ctx.duration)
        case SEGUE_NAME_INTERACTIVE.rawValue: s.push(ctx.isInteractive)
        case SEGUE_NAME_CANCELLED.rawValue: s.push(ctx.transitionWasCancelled)
        case SEGUE_NAME_PRESENTATION_STYLE.rawValue:
            if let style = ctx.presentationStyle { s.push(style.rawValue) } else { s.pushNil() }
        default: s.pushNil()
        }
        // Kept in the proxy only for the names up to SEGUE_CTX_CACHED (the shim ignores the others).
        segue_cache_field(s.L, 1, name)
        return .results(1)
    }

    // MARK: Animations

    /// segue.animate(opts, animations, completion), called by the prelude's `segue.animate` with its three arguments.
    /// Arguments of the wrong type change nothing and answer the message, which the prelude raises at its caller's
    /// level (`error(message, 2)`, so the position is the plugin's line, as when the prelude checked them itself).
    func animate(_ s: LuaState) -> HostResult {
        if let message = animateArgumentError(s) {
            s.push(message)
            return .results(1)
        }
        // The options' types and values and the key check in one pass over the table.
        var scan = OptionScan()
        let allKnown = withUnsafeMutableBytes(of: &scan.types) { t in
            withUnsafeMutableBytes(of: &scan.values) { v in
                segue_scananimation_checked(s.L, 1, animationOptionNames, t.baseAddress?.assumingMemoryBound(to: Int32.self),
                                            v.baseAddress?.assumingMemoryBound(to: Double.self))
            }
        } != 0
        if !allKnown {
            // An unknown key (or one that is not a string): the prelude's check_keys warns as it always has, and the
            // options are read after it, as before.
            s.pushRef(checkKeys)
            s.pushValue(1)
            s.pushRef(animationOptionNames)
            s.push(NameKind.animationOption.rawValue)
            if let error = s.call(args: 3, results: 0, topLevel: false) { return .error(error.message) }
        }
        guard let scene else { return .error("segue.animate: no scene") }
        let options: AnimationOptions
        switch animationOptions(at: 1, scanned: allKnown ? scan : nil) {
        case .success(let o): options = o
        case .failure(let e): return .error("segue.animate: \(e.message)")
        }
        let completion = completionCallback(at: 3, what: "animation completion")
        scene.beginAnimations(options, completion: completion)
        s.pushValue(2)
        let error = s.call(args: 0, results: 0, topLevel: false)
        scene.commitAnimations()
        if let error { return .error(error.message) }
        return .results(0)
    }

    /// The prelude's checks of `segue.animate`'s argument types, with its messages (nil when they are right).
    func animateArgumentError(_ s: LuaState) -> String? {
        if s.type(at: 1) != LUA_TTABLE { return "segue.animate: opts must be a table, got \(s.luaTypeName(at: 1))" }
        if s.type(at: 2) != LUA_TFUNCTION {
            return "segue.animate: animations must be a function, got \(s.luaTypeName(at: 2))"
        }
        let completion = s.type(at: 3)
        if completion > LUA_TNIL && completion != LUA_TFUNCTION {
            return "segue.animate: completion must be a function or nil, got \(s.luaTypeName(at: 3))"
        }
        return nil
    }

    /// segue.keyframes(opts, function(add) … end, completion): the prelude has checked the argument types.
    func keyframes(_ s: LuaState) -> HostResult {
        guard let scene else { return .error("segue.keyframes: no scene") }
        let options: AnimationOptions
        // UIKit runs animateKeyframes with options 0 on ease-in-ease-out over the whole block.
        switch animationOptions(at: 1, defaultTiming: .curve(.easeInOut)) {
        case .success(let o): options = o
        case .failure(let e): return .error("segue.keyframes: \(e.message)")
        }
        var mode = CalculationMode.linear
        switch s.rawField(1, "calculation_mode") {
        case LUA_TNIL: s.pop()
        case LUA_TSTRING:
            let text = s.string(at: -1) ?? ""
            s.pop()
            guard let m = CalculationMode(rawValue: text) else {
                let names = CalculationMode.allCases.map(\.rawValue).joined(separator: ", ")
                return .error("segue.keyframes: calculation_mode must be one of \(names), got '\(text)'")
            }
            mode = m
        default:
            let type = s.typeName(at: -1)
            s.pop()
            return .error("segue.keyframes: calculation_mode must be a string, got \(type)")
        }
        let completion = completionCallback(at: 4, what: "keyframes completion")
        scene.beginKeyframes(options, calculationMode: mode, completion: completion)
        s.pushValue(2)  // the keyframes function
        s.pushValue(3)  // add
        let error = s.call(args: 1, results: 0, topLevel: false)
        scene.commitAnimations()
        if let error { return .error(error.message) }
        return .results(0)
    }

    /// segue.transition(from_view, to_view, {duration, options}, completion).
    func viewTransition(_ s: LuaState) -> HostResult {
        guard let scene else { return .error("segue.transition: no scene") }
        guard let from = view(at: 1) else { return .error("segue.transition: from_view is not a live view") }
        guard let to = view(at: 2) else { return .error("segue.transition: to_view is not a live view") }
        guard s.type(at: 3) == LUA_TTABLE else { return .error("segue.transition: the third argument must be {duration, options}") }
        let duration = state.numberField(3, "duration") ?? 0.25
        guard duration.isFinite, duration >= 0 else { return .error("segue.transition: duration must be a number ≥ 0") }
        let name = state.stringField(3, "options") ?? ""
        guard let style = ViewTransitionStyle(rawValue: name) else {
            let names = ViewTransitionStyle.allCases.map(\.rawValue).joined(separator: ", ")
            return .error("segue.transition: options must be one of \(names); got '\(name)'")
        }
        let completion = completionCallback(at: 4, what: "transition completion")
        do throws(EngineError) {
            try scene.transitionViews(from: from, to: to, duration: duration, style: style, completion: completion)
        } catch {
            return .error("segue.transition: \(error.message)")
        }
        return .results(0)
    }

    /// The Lua function at `index` (if it is one) as a completion block: kept in the registry until it runs once.
    func completionCallback(at index: Int32, what: String) -> ((Bool) -> Void)? {
        guard state.type(at: index) == LUA_TFUNCTION else { return nil }
        state.pushValue(index)
        let ref = state.ref()
        return { [weak self] finished in self?.runCallback(ref, argument: finished, what: what) }
    }

    /// The `curve` field of the options table at `i` as written (`'ease_in'`, `{0.2, 0, 0.2, 1}`), nil when absent.
    func curveDescription(at i: Int32) -> String? {
        defer { state.pop() }
        switch state.rawField(i, SEGUE_KEY_CURVE) {
        case LUA_TNIL:
            return nil
        case LUA_TSTRING:
            return "'\(state.string(at: -1) ?? "")'"
        case LUA_TTABLE:
            let t = state.top
            var parts: [String] = []
            for k in 1...4 {
                state.rawIndex(t, k)
                parts.append(state.number(at: -1).map { n in
                    n == n.rounded() && abs(n) < 1e15 ? String(Int(n)) : String(n)
                } ?? "?")
                state.pop()
            }
            return "{" + parts.joined(separator: ", ") + "}"
        default:
            return "(a \(state.typeName(at: -1)))"
        }
    }

    /// `spring = "system"`: UIKit's system curve (`Spring.system`), which runs its own 0.5 s whatever the block's
    /// duration (as UIKit ignores the duration for its private curve); another name is a warning and the block runs
    /// with its default timing.
    func systemSpring(at i: Int32, options: AnimationOptions, durationGiven: Bool) -> Result<AnimationOptions, LuaError> {
        var options = options
        _ = state.rawField(i, SEGUE_KEY_SPRING)
        let name = state.string(at: -1) ?? ""
        state.pop()
        guard name == "system" else {
            let message = PluginInstance.unknownName("spring", name, in: ["system"])
            warn(.unknownOption, message + "; a spring is \"system\" or a table, and the default timing is used")
            return .success(options)
        }
        if durationGiven, options.duration != Spring.systemDuration {
            warn(.unknownOption, "spring \"system\" runs UIKit's 0.5 s: duration \(options.duration) is ignored")
        }
        options.duration = Spring.systemDuration
        options.timing = .system
        if let ignored = curveDescription(at: i) {
            warn(.unknownOption, "both spring and curve given: the spring wins and curve \(ignored) is ignored")
        }
        return .success(options)
    }

    /// The curve `segue_curve_code` numbers (`CubicBezier.named` of the same name; `PerCallPathTests` holds them
    /// equal), nil for 0.
    static func namedCurve(code: Double) -> CubicBezier? {
        switch code {
        case 1: .linear
        case 2: .easeIn
        case 3: .easeOut
        case 4: .easeInOut
        case 5: .caDefault
        default: nil
        }
    }

    /// The six plain options' types and values as `segue_scananimation` reads them.
    struct OptionScan {
        var types: (Int32, Int32, Int32, Int32, Int32, Int32) = (0, 0, 0, 0, 0, 0)
        var values: (Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0)
    }

    /// The options table at `i` as `AnimationOptions`. `scanned`: its six plain options already read (by
    /// `segue_scananimation_checked`), else they are read here.
    func animationOptions(
        at i: Int32, scanned: OptionScan? = nil, defaultTiming: Timing = .curve(.easeInOut), defaultDuration: Double = 0.2
    ) -> Result<AnimationOptions, LuaError> {
        // The six options' types (and numbers) in one shim call; the spring and the curve are read again only
        // when given.
        var scan = scanned ?? OptionScan()
        if scanned == nil {
            withUnsafeMutableBytes(of: &scan.types) { t in
                withUnsafeMutableBytes(of: &scan.values) { v in
                    segue_scananimation(state.L, i, t.baseAddress?.assumingMemoryBound(to: Int32.self),
                                        v.baseAddress?.assumingMemoryBound(to: Double.self))
                }
            }
        }
        let types = scan.types, values = scan.values
        let duration = types.0 == LUA_TNUMBER ? values.0 : defaultDuration
        guard duration.isFinite, duration >= 0 else { return .failure(LuaError("duration must be a number ≥ 0")) }
        let delay = types.1 == LUA_TNUMBER ? values.1 : 0
        guard delay.isFinite, delay >= 0 else { return .failure(LuaError("delay must be a number ≥ 0")) }
        var options = AnimationOptions(duration: min(duration, 3600), delay: min(delay, 3600), timing: defaultTiming)
        switch types.2 {
        case LUA_TNIL:
            break
        case LUA_TNUMBER:
            let count = values.2
            guard count.isFinite, count >= 0, count <= 1e6 else {
                return .failure(LuaError("repeat_count must be a number in 0…1e6"))
            }
            options.repeatCount = count
        default:
            return .failure(LuaError("repeat_count must be a number"))
        }
        switch types.3 {
        case LUA_TNIL: break
        case LUA_TBOOLEAN: options.autoreverses = values.3 != 0
        default: return .failure(LuaError("autoreverse must be a boolean"))
        }
        if types.4 == LUA_TSTRING { return systemSpring(at: i, options: options, durationGiven: types.0 == LUA_TNUMBER) }
        if types.5 == LUA_TNIL && types.4 != LUA_TTABLE { return .success(options) }
        // A curve named exactly as one of the protocol's (the shim compared its bytes in the scan): no second read
        // of the field and no String made of it. Any other string goes the long way below, warning included.
        if types.5 == LUA_TSTRING && types.4 != LUA_TTABLE, let curve = PluginInstance.namedCurve(code: values.5) {
            options.timing = .curve(curve)
            return .success(options)
        }
        if state.rawField(i, SEGUE_KEY_SPRING) == LUA_TTABLE {
            let spring = state.top
            defer { state.pop() }
            if let stiffness = state.numberField(spring, SEGUE_KEY_STIFFNESS) {
                let mass = state.numberField(spring, SEGUE_KEY_MASS) ?? 1
                let damping = state.numberField(spring, SEGUE_KEY_DAMPING) ?? 10
                let velocity = state.numberField(spring, SEGUE_KEY_VELOCITY) ?? 0
                guard let physical = Spring.physical(mass: mass, stiffness: stiffness, damping: damping, velocity: velocity)
                else { return .failure(LuaError("spring: mass, stiffness and damping must be positive numbers")) }
                options.timing = .spring(physical.spring)
                options.duration = min(physical.duration, 3600)
            } else {
                let damping = state.numberField(spring, SEGUE_KEY_DAMPING) ?? 0.5
                let velocity = state.numberField(spring, SEGUE_KEY_VELOCITY) ?? 0
                guard damping > 0 else { return .failure(LuaError("spring.damping must be > 0 (a damping ratio)")) }
                guard let uikit = Spring(dampingRatio: damping, initialVelocity: velocity, duration: options.duration)
                else { return .failure(LuaError("spring: damping and velocity must be finite numbers")) }
                // UIKit's ratio form has no overdamped spring (Framer's converter clamps the same way).
                if damping > Spring.ratioFormMaxDamping {
                    warn(.other, "spring.damping \(damping) is over 1 (UIKit's damping ratio "
                        + "form has no overdamped spring): clamped to 1")
                }
                options.timing = .spring(uikit)
            }
            // As in UIKit, a spring animation has no curve: a curve given beside it is ignored, and said so.
            if let ignored = curveDescription(at: i) {
                warn(.unknownOption, "both spring and curve given: the spring wins and curve \(ignored) is ignored")
            }
            return .success(options)
        }
        state.pop()
        switch state.rawField(i, SEGUE_KEY_CURVE) {
        case LUA_TNIL:
            state.pop()
        case LUA_TSTRING:
            let name = state.string(at: -1) ?? ""
            state.pop()
            if let curve = CubicBezier.named(name) {
                options.timing = .curve(curve)
            } else {
                // A warning, not an error: the block runs with its default curve.
                warnUnknown(.curve, name, consequence: "; the default curve is used")
            }
        case LUA_TTABLE:
            let t = state.top
            var v: [Double] = []
            for k in 1...4 {
                state.rawIndex(t, k)
                if let n = state.number(at: -1) { v.append(n) }
                state.pop()
            }
            state.pop()
            guard v.count == 4 else { return .failure(LuaError("a curve table needs four numbers {x1, y1, x2, y2}")) }
            let curve = CubicBezier(v[0], v[1], v[2], v[3])
            guard curve.isValid else { return .failure(LuaError("curve x1 and x2 must lie in 0…1")) }
            options.timing = .curve(curve)
        default:
            state.pop()
            return .failure(LuaError("curve must be a name or {x1, y1, x2, y2}"))
        }
        return .success(options)
    }
}
