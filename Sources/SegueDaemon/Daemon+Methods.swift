#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueJSON
import SegueKit
import SegueLua

typealias MethodHandler = @Sendable (Daemon, Params, ClientConnection) throws(RPCError) -> MethodResult

extension Daemon {
    /// The table the request path looks methods up in (by number, from the name's bytes).
    static let methodTable = MethodTable(methods.mapValues(\.handler))

    /// Every method, by name. Each reads and checks all its parameters before it changes anything, so a request
    /// applies whole or not at all.
    static let methods: [String: MethodEntry] = [
        "daemon.ping": MethodEntry(
            "Answers \"pong\": the cheapest round trip.",
            result: .literal("pong")
        ) { _, p, _ throws(RPCError) in
            try p.finish()
            return "pong"
        },
        "daemon.info": MethodEntry(
            "The daemon's version, API, Lua version, pid, uptime, socket, plugins folders, counts and config.",
            result: .ref("daemon_info")
        ) { d, p, _ throws(RPCError) in
            try p.finish()
            return d.info
        },
        "daemon.stats": MethodEntry(
            "Counters (requests, errors by code, transitions, frames, dropped events) and latency percentiles.",
            result: .ref("daemon_stats")
        ) { d, p, _ throws(RPCError) in
            try p.finish()
            return d.statsJSON
        },
        "daemon.metrics": MethodEntry(
            "The counters, gauges and request latency histograms in OpenMetrics text (segued_ prefix), as {text}.",
            result: .object([.required("text", .string)])
        ) { d, p, _ throws(RPCError) in
            try p.finish()
            return .object(JSONObject([("text", .string(d.metricsText))]))
        },
        "daemon.reload": MethodEntry(
            "Re-reads the config file and rescans the plugins folder, as SIGHUP does.",
            result: .ref("reload_result"), errors: [.invalidState]
        ) { d, p, _ throws(RPCError) in
            try p.finish()
            return try d.reload().json
        },
        "daemon.shutdown": MethodEntry(
            "Stops gracefully, as SIGTERM does: running transitions complete, then the socket goes.",
            result: .object([.required("stopping", .boolean)])
        ) { d, p, _ throws(RPCError) in
            try p.finish()
            d.onShutdownRequest?()
            return .object(JSONObject([("stopping", true)]))
        },
        "rpc.discover": MethodEntry(
            "This daemon's methods as an OpenRPC 1.x document, made from the method table.",
            result: .ref("openrpc")
        ) { _, p, _ throws(RPCError) in
            try p.finish()
            return Daemon.openRPCDocument
        },
        "plugins.list": MethodEntry(
            "Every plugin file and what it defines, loaded or not.",
            result: .array(.ref("plugin"))
        ) { d, p, _ throws(RPCError) in
            try p.finish()
            return .array(d.plugins.records.map(\.json))
        },
        "plugins.reload": MethodEntry(
            "Reloads one plugin (by name) or the whole folder.",
            params: [.optional("name", .string, "a plugin name; all when left out")],
            result: .ref("plugin_summary"), errors: [.notFound]
        ) { d, p, _ throws(RPCError) in try d.pluginsReload(p) },
        "plugins.check": MethodEntry(
            "Runs an animator through the standard battery in private manual scenes; problems have stable codes.",
            params: SchemaShape.Field.checkParams,
            result: .ref("check_report"), errors: [.notFound]
        ) { d, p, _ throws(RPCError) in try d.pluginsCheck(p) },
        "scene.create": MethodEntry(
            "Creates a scene and makes it the connection's current scene.",
            params: [
                .optional("id", .id),
                .required("size", .ref("size")),
                .required("clock", .oneOf(["manual", "realtime"])),
                .optional("fps", .integer, "1…1000; default engine.fps"),
                .optional("speed", .number, "0 < speed ≤ 100; default 1"),
                .optional("traits", .ref("traits"), "size classes instead of the size rule"),
            ],
            result: .object([
                .required("scene", .id),
                .required("size", .ref("size")),
                .required("clock", .oneOf(["manual", "realtime"])),
                .required("fps", .integer),
            ]),
            errors: [.limitExceeded]
        ) { d, p, c throws(RPCError) in try d.sceneCreate(p, c) },
        "scene.use": MethodEntry(
            "Makes a scene the connection's current scene.",
            params: [.required("scene", .id)],
            result: .object([.required("scene", .id)]), errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let id = try p.requiredID("scene")
            try p.finish()
            guard d.scenes[id] != nil else { throw .notFound("scene", id, param: "scene") }
            c.currentScene = id
            return .object(JSONObject([("scene", .string(id))]))
        },
        "scene.list": MethodEntry(
            "Every scene, in creation order: size, clock, time, root.",
            result: .array(.ref("scene_summary"))
        ) { d, p, _ throws(RPCError) in
            try p.finish()
            return .array(d.scenes.inOrder.map(\.summary))
        },
        "scene.destroy": MethodEntry(
            "Destroys a scene; its running transitions are force-completed and reported first.",
            params: [.scene],
            result: .object([.required("scene", .id), .required("destroyed", .boolean)]), errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            try p.finish()
            d.scenes.destroy(scene)
            d.plugins.forget(scene: scene)
            for connection in d.connections.values where connection.currentScene == scene.id {
                connection.currentScene = nil
            }
            return .object(JSONObject([("scene", .string(scene.id)), ("destroyed", true)]))
        },
        "scene.tree": MethodEntry(
            "The view tree and the view-controller tree, with presentation values when asked.",
            params: [.scene, .optional("presentation", .boolean, "add each view's on-screen values")],
            result: .object([.required("views", .ref("view_node")), .required("controllers", .ref("vc_node")),
                              .optional("masks", .array(.ref("view_node")))]),
            errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            let presentation = try p.bool("presentation") ?? false
            try p.finish()
            return scene.treeJSON(presentation: presentation)
        },
        "scene.set_root": MethodEntry(
            "Makes a view controller the scene's root; it and its visible descendants appear.",
            params: [.scene, .required("vc", .id)],
            result: .object([.required("scene", .id), .required("root", .id)]), errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            let vc = try d.viewController(p, scene, key: "vc")
            try p.finish()
            do throws(EngineError) { try scene.setRoot(vc) } catch { throw RPCError(error) }
            return .object(JSONObject([("scene", .string(scene.id)), ("root", .string(vc.id))]))
        },
        "clock.advance": MethodEntry(
            "Moves a manual clock forward by ms: whole frames (1/fps), then a final partial step.",
            params: [.scene, .required("ms", .number, "0…3600000")],
            result: .object([.required("time", .number)]), errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            guard p.has("ms") else { throw .invalidParams("ms", "missing parameter 'ms'") }
            let ms = try p.number("ms", in: 0...3_600_000) ?? 0
            try p.finish()
            try d.requireManual(scene)
            scene.advance(by: Int64((ms * 1e6).rounded()), progress: d.onProgress)
            return .object(JSONObject([("time", .number(scene.time))]))
        },
        "clock.step": MethodEntry(
            "Moves a manual clock forward by whole frames.",
            params: [.scene, .optional("frames", .integer, "0…1000000; default 1")],
            result: .object([.required("time", .number)]), errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            let frames = try p.int("frames", in: 0...1_000_000) ?? 1
            try p.finish()
            try d.requireManual(scene)
            scene.step(frames: frames, progress: d.onProgress)
            return .object(JSONObject([("time", .number(scene.time))]))
        },
        "clock.now": MethodEntry(
            "The scene's clock, in seconds.",
            params: [.scene],
            result: .object([.required("time", .number)]), errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            try p.finish()
            return .object(JSONObject([("time", .number(scene.time))]))
        },
        "clock.set_speed": MethodEntry(
            "Slow motion and fast-forward: the scene's clock runs at speed × real time.",
            params: [.scene, .required("speed", .number, "0 < speed ≤ 100")],
            result: .object([.required("speed", .number)]), errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            guard let speed = try p.number("speed", in: 0...100), speed > 0 else {
                throw .invalidParams("speed", "'speed' must be a number with 0 < speed ≤ 100")
            }
            try p.finish()
            scene.speed = speed
            return .object(JSONObject([("speed", .number(speed))]))
        },
        "vc.create": MethodEntry(
            "Creates a view controller and its view (`<vc>.view`).",
            params: [
                .scene,
                .optional("id", .id),
                .optional("title", .string),
                .optional("color", .ref("color")),
                .optional("animators", .ref("vc_animators"), "this view controller's own preferred animators"),
            ] + SchemaShape.Field.vcPresentationKeys,
            result: .object([.required("vc", .id), .required("view", .id)]), errors: [.notFound, .limitExceeded]
        ) { d, p, c throws(RPCError) in try d.vcCreate(p, c) },
        "vc.set": MethodEntry(
            "Sets a view controller's title, colour, presentation-context flags, modal_in_presentation and preferred content size.",
            params: [.scene, .required("vc", .id), .optional("title", .string), .optional("color", .ref("color"))]
                + SchemaShape.Field.vcPresentationKeys,
            result: .ref("vc"), errors: [.notFound]
        ) { d, p, c throws(RPCError) in try d.vcSet(p, c) },
        "sheet.set_detent": MethodEntry(
            "Moves a presented sheet to one of its detents (animated by default); sheet.detent_changed when it changes.",
            params: [.scene, .required("presented", .id), .required("detent", .string, "one of the sheet's detent ids"),
                     .optional("animated", .boolean)],
            result: .object([.required("presented", .id), .required("detent", .string), .required("frame", .ref("rect"))]),
            errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in try d.sheetSetDetent(p, c) },
        "vc.get": MethodEntry(
            "A view controller: parent, children, view, appearance, presentation.",
            params: [.scene, .required("vc", .id)],
            result: .ref("vc"), errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            let vc = try d.viewController(p, scene, key: "vc")
            try p.finish()
            return scene.json(of: vc)
        },
        "container.create": MethodEntry(
            "Creates a container view controller: custom, tab, navigation, paging or split.",
            params: SchemaShape.Field.containerParams,
            result: .object([.required("container", .id), .required("view", .id)]), errors: [.notFound, .limitExceeded]
        ) { d, p, c throws(RPCError) in try d.containerCreate(p, c) },
        "container.select": MethodEntry(
            "Selects a child by index or id; starts a transition unless it is already selected.",
            params: [
                .scene,
                .required("container", .id),
                .optional("index", .integer, "the child (page) index; or give vc"),
                .optional("vc", .id),
            ] + SchemaShape.Field.startOptions,
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.containerSelect(p, c) }
        ),
        "nav.push": MethodEntry(
            "Pushes a view controller onto a navigation container.",
            params: [.scene, .required("container", .id), .required("vc", .id), SchemaShape.Field.preferredTransition]
                + SchemaShape.Field.startOptions,
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.navPush(p, c) }
        ),
        "nav.pop": MethodEntry(
            "Pops the top view controller of a navigation container (not its root).",
            params: [.scene, .required("container", .id)] + SchemaShape.Field.startOptions,
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.navPop(p, c, toRoot: false) }
        ),
        "nav.pop_to_root": MethodEntry(
            "Pops a navigation container to its root.",
            params: [.scene, .required("container", .id)] + SchemaShape.Field.startOptions,
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.navPop(p, c, toRoot: true) }
        ),
        "split.set_column": MethodEntry(
            "Puts a view controller in a split view's column (setViewController(_:for:)); collapsed, the secondary is pushed.",
            params: [
                .scene,
                .required("container", .id),
                .required("column", .oneOf(SplitColumn.allCases.map(\.rawValue))),
                .required("vc", .id),
            ] + SchemaShape.Field.startOptions,
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.splitSetColumn(p, c) }
        ),
        "split.show_column": MethodEntry(
            "Changes a split view's display mode so that the column is shown (show(_:)).",
            params: [.scene, .required("container", .id), .required("column", .oneOf(SplitColumn.allCases.map(\.rawValue)))]
                + SchemaShape.Field.startOptions,
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.splitShowColumn(p, c, show: true) }
        ),
        "split.hide_column": MethodEntry(
            "Changes a split view's display mode so that the column is hidden (hide(_:)); not the secondary.",
            params: [.scene, .required("container", .id), .required("column", .oneOf(SplitColumn.allCases.map(\.rawValue)))]
                + SchemaShape.Field.startOptions,
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.splitShowColumn(p, c, show: false) }
        ),
        "split.set_display_mode": MethodEntry(
            "Sets a split view's preferred display mode; a transition when the mode in effect changes.",
            params: [
                .scene,
                .required("container", .id),
                .required("display_mode", .oneOf(SplitDisplayMode.allCases.map(\.rawValue))),
            ] + SchemaShape.Field.startOptions,
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.splitSetDisplayMode(p, c) }
        ),
        "nav.set": MethodEntry(
            "Replaces a navigation stack (root first); animates when the top changes.",
            params: [
                .scene,
                .required("container", .id),
                .required("vcs", .array(.id), "view controller ids, root first"),
            ] + SchemaShape.Field.startOptions,
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.navSet(p, c) }
        ),
        "container.set_delegate": MethodEntry(
            "Sets a container's transitioning delegate plugin and rules (replacing both).",
            params: [
                .scene,
                .required("container", .id),
                .optional("delegate", .string, "a delegate plugin"),
                .optional("rules", .array(.ref("rule"))),
            ],
            result: .ref("container"), errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            let container = try d.container(p, scene)
            let delegate = try p.string("delegate")
            let rules = try d.rules(p)
            try p.finish()
            if let delegate, !d.plugins.hasPlugin(named: delegate, kind: .delegate) {
                throw .notFound("delegate plugin", delegate, param: "delegate")
            }
            scene.setDelegate(of: container, plugin: delegate, rules: rules ?? [])
            return scene.json(of: container)
        },
        "scene.resize": MethodEntry(
            "Resizes a scene: a layout pass; presentation controllers get their layout call; size classes follow.",
            params: [.scene, .required("size", .ref("size")), .optional("traits", .ref("traits"), "default: from the size"),
                     .optional("duration", .number, "a size transition's seconds, 0…60; default 0")],
            result: .object([.required("scene", .id), .required("size", .ref("size"))]), errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            guard let size = try p.size("size") else { throw .invalidParams("size", "missing parameter 'size' ({w, h})") }
            let traits = try d.traitOverride(p)
            let duration = try p.number("duration", in: 0...60) ?? 0
            try p.finish()
            do throws(EngineError) { try scene.resize(to: size, traits: traits, duration: duration) } catch { throw RPCError(error) }
            return .object(JSONObject([("scene", .string(scene.id)), ("size", ValueJSON.size(size))]))
        },
        "vc.destroy": MethodEntry(
            "Destroys a view controller that is in no container and not presented.",
            params: [.scene, .required("vc", .id)],
            result: .object([.required("vc", .id), .required("destroyed", .boolean)]),
            errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            let vc = try d.viewController(p, scene, key: "vc")
            try p.finish()
            do throws(EngineError) { try scene.destroyViewController(vc) } catch { throw RPCError(error, param: "vc") }
            return .object(JSONObject([("vc", .string(vc.id)), ("destroyed", true)]))
        },
        "container.get": MethodEntry(
            "A container: kind, children, selected index; stack (navigation); count, alive, page_of (paging).",
            params: [.scene, .required("container", .id)],
            result: .ref("container"), errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            let container = try d.container(p, scene)
            try p.finish()
            return scene.json(of: container)
        },
        "render.filmstrip": MethodEntry(
            "Sampled frames of a transition side by side, as SVG (a finished one is replayed from its timeline).",
            params: SchemaShape.Field.renderParams + [
                .optional("frames", .integer, "1…600; default 8"), .optional("labels", .boolean, "default true"),
            ],
            result: .object([
                .required("svg", .string),
                .required("width", .number),
                .required("height", .number),
                .required("frames", .array(.object([
                    .required("index", .integer), .required("time", .number), .required("x", .number),
                    .required("y", .number), .required("w", .number), .required("h", .number),
                    .optional("ahead", .boolean, "a running transition's frame not reached yet: drawn ahead"),
                ]))),
                .required("transition", .ref("transition")),
                .renderEvents,
            ]),
            errors: [.notFound, .invalidState, .pluginError]
        ) { d, p, c throws(RPCError) in try d.renderFilmstrip(p, c) },
        "render.timeline": MethodEntry(
            "Property curves of a transition over time, as SVG.",
            params: SchemaShape.Field.renderParams + [
                .optional("properties", .array(.string), "e.g. [\"frame.x\", \"alpha\"]"),
            ],
            result: .object([
                .required("svg", .string),
                .required("properties", .array(.string)),
                .required("views", .array(.id)),
                .required("transition", .ref("transition")),
                .renderEvents,
            ]),
            errors: [.notFound, .invalidState, .pluginError]
        ) { d, p, c throws(RPCError) in try d.renderTimeline(p, c) },
        "render.frames": MethodEntry(
            "A transition as a movie's frames: one SVG of the whole scene per 1/fps (seguectl movie encodes them).",
            params: SchemaShape.Field.renderParams + [
                .optional("fps", .integer, "1…120; default 30"), .optional("labels", .boolean, "default true"),
            ],
            result: .object([
                .required("fps", .integer),
                .required("width", .integer),
                .required("height", .integer),
                .required("span", .number),
                .required("frames", .array(.object([
                    .required("index", .integer), .required("time", .number), .required("svg", .string),
                ]))),
                .required("transition", .ref("transition")),
                .renderEvents,
            ]),
            errors: [.notFound, .invalidState, .pluginError, .limitExceeded]
        ) { d, p, c throws(RPCError) in try d.renderFrames(p, c) },
        "transition.get": MethodEntry(
            "A transition (running, ended or queued).",
            params: [.scene, .required("transition", .id)],
            result: .ref("transition"), errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            let id = try p.requiredID("transition")
            try p.finish()
            if let transition = scene.transition(id) { return scene.json(of: transition) }
            if let queued = scene.queuedJSON(id) { return queued }
            throw .notFound("transition", id, param: "transition")
        },
        "transition.list": MethodEntry(
            "The scene's transitions (recent ones kept), or only the running ones.",
            params: [.scene, .optional("active", .boolean, "only those not ended")],
            result: .array(.ref("transition")), errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            let scene = try d.scene(p, c)
            let active = try p.bool("active") ?? false
            try p.finish()
            return .array(scene.transitions.filter { !active || !$0.isEnded }.map { scene.json(of: $0) })
        },
        "transition.wait": MethodEntry(
            "Answers when the transition ends, or after timeout_ms of wall time; later requests go on meanwhile.",
            params: [.scene, .required("transition", .id), .optional("timeout_ms", .integer, "0…86400000")],
            result: .object([.required("ended", .boolean), .required("state", .string)]), errors: [.notFound]
        ) { d, p, c throws(RPCError) in try d.transitionWait(p, c) },
        "transition.update": MethodEntry(
            "Sets an interactive transition's percent.",
            params: [.scene, .required("transition", .id), .required("percent", .number, "0…1")],
            result: .ref("interactive_state"), errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in try d.transitionUpdate(p, c) },
        "transition.pause": MethodEntry(
            "Turns a running transition interactive at its current percent.",
            params: [.scene, .required("transition", .id)],
            result: .ref("interactive_state"), errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in try d.transitionPause(p, c) },
        "transition.finish": MethodEntry(
            "Runs an interactive transition forward to its end.",
            params: SchemaShape.Field.endParams,
            result: .ref("interactive_state"), errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in try d.transitionEnd(p, c, cancel: false) },
        "transition.cancel": MethodEntry(
            "Runs an interactive transition back to its start; everything it animated returns.",
            params: SchemaShape.Field.endParams,
            result: .ref("interactive_state"), errors: [.notFound, .invalidState]
        ) { d, p, c throws(RPCError) in try d.transitionEnd(p, c, cancel: true) },
        "gesture.pan": MethodEntry(
            "A pan sample, routed to the transition's interaction plugin; a began with start starts the transition, "
                + "a began with interaction asks that plugin's gesture_began what to start.",
            params: SchemaShape.Field.gestureParams + [
                .optional("translation", .ref("point"), "points; default {x: 0, y: 0}"),
                .optional("velocity", .ref("point"), "points per second; default {x: 0, y: 0}"),
                .optional("sheet", .id, "a presented sheet to drag (instead of transition/start)"),
                .optional("edge", .oneOf(Daemon.swipeEdges), "an edge swipe: pops the navigation controller without a plugin"),
                .optional("container", .id, "with edge: the navigation controller (default the frontmost)"),
            ],
            result: .ref("gesture_result"), errors: [.notFound, .invalidState, .pluginError]
        ) { d, p, c throws(RPCError) in try d.gesturePan(p, c) },
        "gesture.pinch": MethodEntry(
            "A pinch sample (UIPinchGestureRecognizer's scale and velocity), routed as gesture.pan's.",
            params: SchemaShape.Field.gestureParams + [
                .optional("scale", .number, "> 0; default 1"),
                .optional("velocity", .number, "scale per second; default 0"),
            ],
            result: .ref("gesture_result"), errors: [.notFound, .invalidState, .pluginError]
        ) { d, p, c throws(RPCError) in try d.gesture(p, c, kind: .pinch) },
        "gesture.rotate": MethodEntry(
            "A rotation sample (UIRotationGestureRecognizer's rotation and velocity), routed as gesture.pan's.",
            params: SchemaShape.Field.gestureParams + [
                .optional("rotation", .number, "radians; default 0"),
                .optional("velocity", .number, "radians per second; default 0"),
            ],
            result: .ref("gesture_result"), errors: [.notFound, .invalidState, .pluginError]
        ) { d, p, c throws(RPCError) in try d.gesture(p, c, kind: .rotate) },
        "modal.present": MethodEntry(
            "Presents a view controller from another in a presentation style (sheets, popovers, contexts), with a presentation plugin.",
            params: [
                .scene,
                .required("presenting", .id),
                .required("presented", .id),
                .optional("style", .oneOf(PresentationStyle.allCases.map(\.rawValue)), "default: engine.modal_default_style (fullScreen)"),
                .optional("sheet", .ref("sheet"), "pageSheet, formSheet, automatic, popover: detents and dimming"),
                .optional("popover", .ref("popover"), "style popover: the source and the arrow directions"),
                .optional("presentation", .string, "a presentation plugin"),
                .optional("animated", .boolean),
                .optional("interactive", .ref("interactive")),
                .optional("animator", .string),
                .optional("transition_style", .oneOf(ModalTransitionStyle.allCases.map(\.rawValue)),
                          "the built-in animation when no animator is chosen (UIModalTransitionStyle)"),
                SchemaShape.Field.preferredTransition,
            ],
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.modalPresent(p, c) }
        ),
        "modal.dismiss": MethodEntry(
            "Dismisses a presented view controller.",
            params: [
                .scene,
                .required("presented", .id),
                .optional("animated", .boolean),
                .optional("interactive", .ref("interactive")),
                .optional("animator", .string),
            ],
            result: .ref("transition_start"), errors: [.notFound, .invalidState, .pluginError],
            starting: { d, p, c throws(RPCError) in try d.modalDismiss(p, c) }
        ),
        "events.subscribe": MethodEntry(
            "Subscribes this connection to a scene's events (and the daemon's scene-less ones) by category or type.",
            params: [
                .optional("scene", .id, "default: the current scene; none: scene-less events only"),
                .optional("types", .array(.string),
                          "lifecycle, transition, plugin, frame, log, scene, presentation, * or event types; default lifecycle, transition, plugin, log, presentation"),
            ],
            result: .object([
                .required("subscription", .integer),
                .required("scene", .either([.id, .null])),
                .required("types", .array(.string)),
            ]),
            errors: [.notFound, .limitExceeded]
        ) { d, p, c throws(RPCError) in try d.subscribe(p, c) },
        "events.unsubscribe": MethodEntry(
            "Ends one of this connection's subscriptions.",
            params: [.required("subscription", .integer)],
            result: .object([.required("subscription", .integer), .required("unsubscribed", .boolean)]),
            errors: [.notFound]
        ) { d, p, c throws(RPCError) in
            guard let id = try p.int("subscription", in: 1...Int(Int32.max)) else {
                throw .invalidParams("subscription", "missing parameter 'subscription'")
            }
            try p.finish()
            guard d.events.unsubscribe(id, of: c) else {
                throw RPCError(code: -32001, message: "no subscription \(id) on this connection", kind: "not_found",
                               param: "subscription", id: String(id))
            }
            return .object(JSONObject([("subscription", .number(Double(id))), ("unsubscribed", true)]))
        },
    ]

    var info: JSONValue {
        .object(JSONObject([
            ("version", .string(Daemon.version)), ("api", 1), ("lua", .string(PluginHost.luaVersion)),
            ("pid", .number(Double(getpid()))), ("uptime", .number(uptime)), ("socket", .string(config.socketPath)),
            ("plugins_dir", .string(config.pluginsDir)),
            ("plugins_dirs", .array(plugins.directories.map { .string($0) })), ("clock_modes", ["manual", "realtime"]),
            ("scenes", .number(Double(scenes.count))), ("connections", .number(Double(connections.count))),
            ("state", .string(state.rawValue)), ("config", configInfo),
        ]))
    }

    var statsJSON: JSONValue {
        var latency = JSONObject()
        // Method numbers follow name order, so the table comes out sorted by name.
        let stats = dispatcher.stats
        for (number, m) in stats.methods.enumerated() where m.count > 0 {
            let method = Daemon.methodTable.names[number]
            let sorted = m.samples.sorted()
            latency[method] = .object(JSONObject([
                ("count", .number(Double(m.count))), ("p50_us", .number(RequestStats.percentile(sorted, 0.5))),
                ("p99_us", .number(RequestStats.percentile(sorted, 0.99))),
                ("p999_us", .number(RequestStats.percentile(sorted, 0.999))),
            ]))
        }
        var errors = JSONObject()
        for (code, count) in stats.errorCounts.sorted(by: { $0.code < $1.code }) {
            errors[String(code)] = .number(Double(count))
        }
        return .object(JSONObject([
            ("requests", .number(Double(stats.requests))), ("errors", .object(errors)),
            ("transitions", .object(JSONObject([
                ("started", .number(Double(counters.transitionsStarted))),
                ("completed", .number(Double(counters.transitionsCompleted))),
                ("cancelled", .number(Double(counters.transitionsCancelled))),
                ("failed_over", .number(Double(counters.transitionsFailedOver))),
                ("watchdog", .number(Double(counters.transitionsWatchdog))),
            ]))),
            ("frames", .number(Double(scenes.framesEvaluated))), ("events_dropped", .number(Double(events.eventsDropped))),
            ("latency", .object(latency)),
        ]))
    }

    /// `when_busy`: reject, queue or interrupt.
    func whenBusy(_ p: Params) throws(RPCError) -> WhenBusy? {
        try p.oneOf("when_busy", ["reject", "queue", "interrupt"]).flatMap(WhenBusy.init(rawValue:))
    }

    /// `interactive`: false, true (percent driven) or an interaction plugin's name.
    func interactivity(_ p: Params) throws(RPCError) -> Interactivity {
        guard p.has("interactive"), let value = p.object["interactive"] else { return .none }
        if let b = value.boolValue { return b ? .percent : .none }
        if let name = value.stringValue, Scene.isValidID(name) { return .plugin(name) }
        throw .invalidParams("interactive", "'interactive' must be true, false or an interaction plugin's name")
    }

    /// `rules: [{when: {kind?, from?, to?, direction?}, animator, interaction?}]`.
    func rules(_ p: Params) throws(RPCError) -> [TransitionRule]? {
        guard let array = try p.array("rules") else { return nil }
        guard array.count <= 256 else { throw .invalidParams("rules", "at most 256 rules") }
        var rules: [TransitionRule] = []
        for (i, value) in array.enumerated() {
            guard case .object(let o) = value else { throw .invalidParams("rules", "rules[\(i)] must be an object") }
            for key in o.keys where !["when", "animator", "interaction"].contains(key) {
                throw .invalidParams("rules", "rules[\(i)] has an unknown key '\(key)' (when, animator, interaction)")
            }
            guard let animator = o["animator"]?.stringValue else {
                throw .invalidParams("rules", "rules[\(i)].animator must be an animator name")
            }
            var rule = TransitionRule(animator: animator)
            if let interaction = o["interaction"] {
                guard let name = interaction.stringValue else { throw .invalidParams("rules", "rules[\(i)].interaction must be a name") }
                rule.interaction = name
            }
            if let when = o["when"] {
                guard case .object(let w) = when else { throw .invalidParams("rules", "rules[\(i)].when must be an object") }
                for (key, v) in w {
                    guard let text = v.stringValue else { throw .invalidParams("rules", "rules[\(i)].when.\(key) must be a string") }
                    switch key {
                    case "kind":
                        guard let kind = TransitionKind(rawValue: text) else {
                            throw .invalidParams("rules", "rules[\(i)].when.kind must be one of \(TransitionKind.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
                        }
                        rule.kind = kind
                    case "from": rule.from = text
                    case "to": rule.to = text
                    case "direction":
                        guard let direction = TransitionDirection(rawValue: text) else {
                            throw .invalidParams("rules", "rules[\(i)].when.direction must be one of \(TransitionDirection.allCases.map(\.rawValue).joined(separator: ", ")), got '\(text)'")
                        }
                        rule.direction = direction
                    default:
                        throw .invalidParams("rules", "rules[\(i)].when has an unknown key '\(key)' (kind, from, to, direction)")
                    }
                }
            }
            rules.append(rule)
        }
        return rules
    }

    /// The options every transition-starting method shares.
    struct StartOptions {
        let animated: Bool
        let animator: String?
        let whenBusy: WhenBusy?
        let interactive: Interactivity
    }

    /// Reads the shared options (`animated`, `interactive`, `animator`, `when_busy`, `info`), checks that nothing
    /// else was given, starts the transition with `start` (carrying `info`) and returns its result.
    func startTransition(_ p: Params, _ scene: Scene, _ start: (StartOptions) throws(EngineError) -> TransitionStart)
        throws(RPCError) -> TransitionStart
    {
        let animated = try p.bool("animated") ?? true
        let options = StartOptions(animated: animated, animator: try p.string("animator"), whenBusy: try whenBusy(p),
                                   interactive: try interactivity(p))
        let info = try transitionInfo(p)
        try p.finish()
        do throws(EngineError) {
            return try scene.withTransitionInfo(info) { () throws(EngineError) in try start(options) }
        } catch {
            // A busy container, a pop of a root: the container is the parameter at fault.
            throw RPCError(error, param: error.code == .invalidState ? "container" : nil)
        }
    }

    func splitColumn(_ p: Params) throws(RPCError) -> SplitColumn {
        guard let name = try p.oneOf("column", SplitColumn.allCases.map(\.rawValue)), let column = SplitColumn(rawValue: name)
        else { throw .invalidParams("column", "missing parameter 'column' (primary, supplementary or secondary)") }
        return column
    }

    func splitSetColumn(_ p: Params, _ c: ClientConnection) throws(RPCError) -> TransitionStart {
        let scene = try scene(p, c)
        let container = try container(p, scene)
        let column = try splitColumn(p)
        let vc = try viewController(p, scene, key: "vc")
        return try startTransition(p, scene) { o throws(EngineError) in
            try scene.setColumn(container, column, to: vc, animated: o.animated, interactive: o.interactive,
                                animator: o.animator, whenBusy: o.whenBusy)
        }
    }

    func splitShowColumn(_ p: Params, _ c: ClientConnection, show: Bool) throws(RPCError) -> TransitionStart {
        let scene = try scene(p, c)
        let container = try container(p, scene)
        let column = try splitColumn(p)
        return try startTransition(p, scene) { o throws(EngineError) in
            try scene.showColumn(container, column, show: show, animated: o.animated, interactive: o.interactive,
                                 animator: o.animator, whenBusy: o.whenBusy)
        }
    }

    func splitSetDisplayMode(_ p: Params, _ c: ClientConnection) throws(RPCError) -> TransitionStart {
        let scene = try scene(p, c)
        let container = try container(p, scene)
        guard let name = try p.oneOf("display_mode", SplitDisplayMode.allCases.map(\.rawValue)),
            let mode = SplitDisplayMode(rawValue: name)
        else { throw .invalidParams("display_mode", "missing parameter 'display_mode'") }
        return try startTransition(p, scene) { o throws(EngineError) in
            try scene.setDisplayMode(container, mode, animated: o.animated, interactive: o.interactive,
                                     animator: o.animator, whenBusy: o.whenBusy)
        }
    }

    /// `traits` of scene.create and scene.resize: `{horizontal?, vertical?}`, each "compact" or "regular".
    func traitOverride(_ p: Params) throws(RPCError) -> TraitOverride {
        guard let object = try p.objectValue("traits") else { return TraitOverride() }
        var override = TraitOverride()
        let allowed = SizeClass.allCases.map(\.rawValue).joined(separator: " or ")
        for (key, value) in object {
            guard let text = value.stringValue, let sizeClass = SizeClass(rawValue: text) else {
                throw .invalidParams("traits", "traits.\(key) must be \(allowed)")
            }
            switch key {
            case "horizontal": override.horizontal = sizeClass
            case "vertical": override.vertical = sizeClass
            default: throw .invalidParams("traits", "traits has an unknown key '\(key)' (horizontal, vertical)")
            }
        }
        return override
    }

    func navPush(_ p: Params, _ c: ClientConnection) throws(RPCError) -> TransitionStart {
        let scene = try scene(p, c)
        let nav = try container(p, scene)
        let vc = try viewController(p, scene, key: "vc")
        let zoom = try preferredTransition(p, scene)
        return try withPreferredTransition(zoom, on: vc, scene) { () throws(RPCError) in
            try startTransition(p, scene) { o throws(EngineError) in
                try scene.push(nav, vc, animated: o.animated, interactive: o.interactive, animator: o.animator, whenBusy: o.whenBusy)
            }
        }
    }

    func navPop(_ p: Params, _ c: ClientConnection, toRoot: Bool) throws(RPCError) -> TransitionStart {
        let scene = try scene(p, c)
        let nav = try container(p, scene)
        return try startTransition(p, scene) { o throws(EngineError) in
            try scene.pop(nav, toRoot: toRoot, animated: o.animated, interactive: o.interactive, animator: o.animator, whenBusy: o.whenBusy)
        }
    }

    func navSet(_ p: Params, _ c: ClientConnection) throws(RPCError) -> TransitionStart {
        let scene = try scene(p, c)
        let nav = try container(p, scene)
        guard let array = try p.array("vcs") else { throw .invalidParams("vcs", "missing parameter 'vcs' (view controller ids, root first)") }
        var vcs: [ViewController] = []
        for (i, value) in array.enumerated() {
            guard let id = value.stringValue else { throw .invalidParams("vcs", "vcs[\(i)] must be a view controller id") }
            guard let vc = scene.viewController(id) else { throw .notFound("view controller", id, param: "vcs") }
            vcs.append(vc)
        }
        return try startTransition(p, scene) { o throws(EngineError) in
            try scene.setStack(nav, vcs, animated: o.animated, interactive: o.interactive, animator: o.animator, whenBusy: o.whenBusy)
        }
    }

    func requireManual(_ scene: Scene) throws(RPCError) {
        guard scene.clockMode == .manual else {
            throw .invalidState("scene '\(scene.id)' has a realtime clock; clock.advance and clock.step need a manual one",
                                param: "scene", id: scene.id)
        }
    }

    func viewController(_ p: Params, _ scene: Scene, key: String) throws(RPCError) -> ViewController {
        let id = try p.requiredID(key)
        guard let vc = scene.viewController(id) else { throw .notFound("view controller", id, param: key) }
        return vc
    }

    func container(_ p: Params, _ scene: Scene) throws(RPCError) -> ContainerViewController {
        let id = try p.requiredID("container")
        guard let container = scene.container(id) else {
            if scene.viewController(id) != nil {
                throw .invalidParams("container", "'\(id)' is a view controller, not a container")
            }
            throw .notFound("container", id, param: "container")
        }
        return container
    }

    func sceneCreate(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let requested = try p.id("id")
        guard let size = try p.size("size") else { throw .invalidParams("size", "missing parameter 'size' ({w, h})") }
        guard let clockName = try p.oneOf("clock", ["manual", "realtime"]) else {
            throw .invalidParams("clock", "missing parameter 'clock' (\"manual\" or \"realtime\")")
        }
        let fps = try p.int("fps", in: 1...1000)
        let speed = try p.number("speed", in: 0...100)
        if let speed, speed <= 0 { throw .invalidParams("speed", "'speed' must be > 0") }
        let traits = try traitOverride(p)
        try p.finish()
        let scene = try scenes.create(id: requested, size: size, clock: clockName == "manual" ? .manual : .realtime,
                                      fps: fps, speed: speed ?? 1, config: config.engine,
                                      limit: config.limits.maxScenes, traits: traits)
        scene.sink = SceneFrameRelay(shared: sceneEvents)
        scene.animatorProvider = plugins
        c.currentScene = scene.id
        scenes.add(scene, daemon: self)
        let id = scene.id
        return .object(JSONObject([
            ("scene", .string(id)), ("size", ValueJSON.size(size)), ("clock", .string(clockName)),
            ("fps", .number(Double(scene.fps))),
        ]))
    }

    func vcCreate(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        let id = try p.id("id")
        let title = try p.string("title")
        let color = try p.color("color")
        var animators: [String: String] = [:]
        if let object = try p.objectValue("animators") {
            for (kind, value) in object {
                guard ["select", "push", "pop", "present", "dismiss"].contains(kind) else {
                    throw .invalidParams("animators", "'animators' keys are select, push, pop, present, dismiss; got '\(kind)'")
                }
                guard let name = value.stringValue else { throw .invalidParams("animators", "'animators.\(kind)' must be a plugin name") }
                animators[kind] = name
            }
        }
        var settings = try viewControllerSettings(p, scene)
        settings.title = nil
        settings.color = nil
        try p.finish()
        do throws(EngineError) {
            let vc = try scene.createViewController(id: id, title: title, color: color, animators: animators)
            scene.apply(settings, to: vc)
            return .object(JSONObject([("vc", .string(vc.id)), ("view", .string(vc.view.id))]))
        } catch {
            throw RPCError(error, limit: scene.config.maxViewsPerScene)  // the only limit making a view can pass
        }
    }

    func containerCreate(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        let id = try p.id("id")
        guard let kindName = try p.oneOf("kind", ContainerKind.allCases.map(\.rawValue)),
            let kind = ContainerKind(rawValue: kindName)
        else { throw .invalidParams("kind", "missing parameter 'kind' (custom, tab, navigation, paging or split)") }
        var items: [ViewController] = []
        for (i, value) in (try p.array("children") ?? []).enumerated() {
            guard let childID = value.stringValue else { throw .invalidParams("children", "children[\(i)] must be a view controller id") }
            guard let vc = scene.viewController(childID) else { throw .notFound("view controller", childID, param: "children") }
            items.append(vc)
        }
        if let rootID = try p.id("root") {
            guard kind == .navigation else { throw .invalidParams("root", "'root' applies to navigation containers only") }
            guard items.isEmpty else { throw .invalidParams("root", "give either 'root' or 'children' (the stack), not both") }
            guard let vc = scene.viewController(rootID) else { throw .notFound("view controller", rootID, param: "root") }
            items = [vc]
        }
        var count = 0
        var reuse = 3
        var template = PageTemplate()
        if kind == .paging {
            guard let n = try p.int("count", in: 0...1_000_000) else {
                throw .invalidParams("count", "a paging container needs 'count' (the number of pages)")
            }
            count = n
            reuse = try p.int("reuse", in: 2...1000) ?? 3
            if let t = try p.objectValue("template") {
                for (key, value) in t {
                    switch key {
                    case "title_prefix":
                        guard let prefix = value.stringValue, prefix.utf8.count <= 256 else {
                            throw .invalidParams("template", "template.title_prefix must be a string of at most 256 bytes")
                        }
                        template.titlePrefix = prefix
                    case "colors":
                        guard case .array(let list) = value, list.count <= 256 else {
                            throw .invalidParams("template", "template.colors must be an array of at most 256 colors")
                        }
                        var colors: [Color] = []
                        for (i, entry) in list.enumerated() {
                            guard let text = entry.stringValue, let color = Color(hex: text) else {
                                throw .invalidParams("template", "template.colors[\(i)] must be \"#rrggbb\" or \"#rrggbbaa\"")
                            }
                            colors.append(color)
                        }
                        template.colors = colors
                    default:
                        throw .invalidParams("template", "template has an unknown key '\(key)' (title_prefix, colors)")
                    }
                }
            }
        } else {
            for key in ["count", "reuse", "template"] where p.has(key) {
                throw .invalidParams(key, "'\(key)' applies to paging containers only")
            }
        }
        var split = SplitConfiguration()
        if kind == .split {
            if let name = try p.oneOf("style", SplitStyle.allCases.map(\.rawValue)) { split.style = SplitStyle(rawValue: name) }
            if let name = try p.oneOf("display_mode", SplitDisplayMode.allCases.map(\.rawValue)),
                let mode = SplitDisplayMode(rawValue: name)
            {
                split.displayMode = mode
            }
        } else {
            for key in ["style", "display_mode"] where p.has(key) {
                throw .invalidParams(key, "'\(key)' applies to split containers only")
            }
        }
        let delegate = try p.string("delegate")
        if let delegate, !plugins.hasPlugin(named: delegate, kind: .delegate) {
            throw .notFound("delegate plugin", delegate, param: "delegate")
        }
        let rules = try self.rules(p) ?? []
        let whenBusy = try self.whenBusy(p) ?? .reject
        let title = try p.string("title")
        try p.finish()
        do throws(EngineError) {
            let container = try scene.createContainer(
                id: id, kind: kind, items: items, whenBusy: whenBusy, title: title, pageCount: count, reuse: reuse,
                template: template, split: split)
            scene.setDelegate(of: container, plugin: delegate, rules: rules)
            return .object(JSONObject([("container", .string(container.id)), ("view", .string(container.view.id))]))
        } catch {
            throw RPCError(error, limit: scene.config.maxViewsPerScene)
        }
    }

    func containerSelect(_ p: Params, _ c: ClientConnection) throws(RPCError) -> TransitionStart {
        let scene = try scene(p, c)
        let container = try container(p, scene)
        var index = try p.int("index", in: 0...Int(Int32.max))
        if let vcID = try p.id("vc") {
            guard index == nil else { throw .invalidParams("vc", "give either 'index' or 'vc', not both") }
            if let paging = container.paging {
                guard let page = paging.pageOf[vcID], paging.alive.contains(where: { $0.id == vcID }) else {
                    if scene.viewController(vcID) == nil { throw .notFound("view controller", vcID, param: "vc") }
                    throw .invalidParams("vc", "'\(vcID)' is not one of paging container '\(container.id)''s view controllers")
                }
                index = page
            } else {
                guard let i = container.items.firstIndex(where: { $0.id == vcID }) else {
                    if scene.viewController(vcID) == nil { throw .notFound("view controller", vcID, param: "vc") }
                    throw .invalidParams("vc", "'\(vcID)' is not one of container '\(container.id)''s children")
                }
                index = i
            }
        }
        guard let index else { throw .invalidParams("index", "missing parameter 'index' (or 'vc')") }
        return try startTransition(p, scene) { o throws(EngineError) in
            try scene.select(container, index: index, animated: o.animated, interactive: o.interactive, animator: o.animator, whenBusy: o.whenBusy)
        }
    }

    func subscribe(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let sceneID = try p.id("scene") ?? c.currentScene
        if let sceneID, scenes[sceneID] == nil { throw .notFound("scene", sceneID, param: "scene") }
        var types: Set<String> = ["lifecycle", "transition", "plugin", "log", "presentation"]
        if let array = try p.array("types") {
            types = []
            let categories: Set<String> = ["lifecycle", "transition", "plugin", "frame", "log", "scene", "presentation", "*"]
            for (i, value) in array.enumerated() {
                guard let s = value.stringValue, categories.contains(s) || s.contains(".") || s == "frame" else {
                    throw .invalidParams("types", "types[\(i)] must be one of lifecycle, transition, plugin, frame, log, scene, presentation, * or an event type")
                }
                types.insert(s)
            }
        }
        try p.finish()
        guard c.subscriptions.count < config.limits.maxSubscriptions else {
            throw .limit("this connection has \(config.limits.maxSubscriptions) subscriptions (limits.max_subscriptions)",
                         limit: config.limits.maxSubscriptions)
        }
        let id = events.subscribe(c, scene: sceneID, types: types)
        return .object(JSONObject([
            ("subscription", .number(Double(id))), ("scene", sceneID.map { .string($0) } ?? .null),
            ("types", .array(types.sorted().map { .string($0) })),
        ]))
    }
}
