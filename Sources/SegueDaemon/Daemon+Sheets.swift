import SegueJSON
import SegueKit

/// modal.present's `sheet` and `popover`, sheet.set_detent, gesture.pan's `sheet`, vc.set (docs/PROTOCOL.md
/// "Presentation styles", "Sheets", "Popovers").
extension Daemon {
    /// `sheet: {detents?, selected?, grabber?, largest_undimmed?, prefers_edge_attached?}`.
    func sheetConfiguration(_ p: Params) throws(RPCError) -> SheetConfiguration? {
        guard let o = try p.objectValue("sheet") else { return nil }
        let known: Set<String> = ["detents", "selected", "grabber", "largest_undimmed", "prefers_edge_attached"]
        for key in o.keys where !known.contains(key) {
            throw .invalidParams("sheet.\(key)", "unknown key 'sheet.\(key)' (sheet keys: \(known.sorted().joined(separator: ", ")))")
        }
        var sheet = SheetConfiguration()
        if let value = o["detents"], !value.isNull {
            guard let list = value.arrayValue else { throw .invalidParams("sheet.detents", "'sheet.detents' must be an array") }
            var detents: [SheetDetent] = []
            for (i, item) in list.enumerated() {
                if let name = item.stringValue {
                    switch name {
                    case "medium": detents.append(.medium)
                    case "large": detents.append(.large)
                    default:
                        throw .invalidParams("sheet.detents",
                                             "sheet.detents[\(i)] must be \"medium\", \"large\" or {id, height}, got \"\(name)\"")
                    }
                } else if let d = item.objectValue {
                    guard let id = d["id"]?.stringValue, Scene.isValidID(id), id != "medium", id != "large",
                        let height = d["height"]?.doubleValue, d.keys.count == 2
                    else {
                        throw .invalidParams("sheet.detents",
                                             "sheet.detents[\(i)] must be \"medium\", \"large\" or {id, height} (an id other than medium/large, a height in pt)")
                    }
                    guard height.isFinite, height > 0, height <= 100_000 else {
                        throw .invalidParams("sheet.detents", "sheet.detents[\(i)] ('\(id)') needs a height > 0, got \(height)")
                    }
                    detents.append(.custom(id: id, height: height))
                } else {
                    throw .invalidParams("sheet.detents", "sheet.detents[\(i)] must be \"medium\", \"large\" or {id, height}")
                }
            }
            sheet.detents = detents
        }
        func text(_ key: String) throws(RPCError) -> String? {
            guard let v = o[key], !v.isNull else { return nil }
            guard let s = v.stringValue else { throw .invalidParams("sheet.\(key)", "'sheet.\(key)' must be a detent id") }
            return s
        }
        func flag(_ key: String) throws(RPCError) -> Bool? {
            guard let v = o[key], !v.isNull else { return nil }
            guard let b = v.boolValue else { throw .invalidParams("sheet.\(key)", "'sheet.\(key)' must be a boolean") }
            return b
        }
        sheet.selected = try text("selected")
        sheet.largestUndimmed = try text("largest_undimmed")
        sheet.grabber = try flag("grabber") ?? false
        sheet.prefersEdgeAttached = try flag("prefers_edge_attached") ?? false
        do throws(EngineError) { return try sheet.validated() } catch { throw RPCError(error) }
    }

    /// `popover: {source_view, source_rect?, permitted_arrow_directions?, preferred_size?}`.
    func popoverConfiguration(_ p: Params, _ scene: Scene) throws(RPCError) -> PopoverConfiguration? {
        guard let o = try p.objectValue("popover") else { return nil }
        let known: Set<String> = ["source_view", "source_rect", "permitted_arrow_directions", "preferred_size"]
        for key in o.keys where !known.contains(key) {
            throw .invalidParams("popover.\(key)", "unknown key 'popover.\(key)' (popover keys: \(known.sorted().joined(separator: ", ")))")
        }
        guard let sourceID = o["source_view"]?.stringValue else {
            throw .invalidParams("popover.source_view", "a popover needs 'popover.source_view' (a view id)")
        }
        guard let source = scene.view(sourceID) else { throw .notFound("view", sourceID, param: "popover.source_view") }
        var popover = PopoverConfiguration(sourceView: source)
        if let v = o["source_rect"], !v.isNull {
            guard let r = ValueJSON.parseRect(v), [r.x, r.y, r.w, r.h].allSatisfy({ $0.isFinite && abs($0) <= 1e7 }), r.w >= 0, r.h >= 0
            else { throw .invalidParams("popover.source_rect", "'popover.source_rect' must be {x, y, w, h} with w, h ≥ 0") }
            popover.sourceRect = r
        }
        if let v = o["permitted_arrow_directions"], !v.isNull {
            let allowed = PopoverArrowDirection.allCases.map(\.rawValue)
            guard let list = v.arrayValue, !list.isEmpty else {
                throw .invalidParams("popover.permitted_arrow_directions",
                                     "'popover.permitted_arrow_directions' must be a non-empty array of \(allowed.joined(separator: ", "))")
            }
            var set = Set<PopoverArrowDirection>()
            for item in list {
                guard let name = item.stringValue, let d = PopoverArrowDirection(rawValue: name) else {
                    throw .invalidParams("popover.permitted_arrow_directions",
                                         "'popover.permitted_arrow_directions' items must be one of \(allowed.joined(separator: ", "))")
                }
                set.insert(d)
            }
            popover.permittedArrowDirections = set
        }
        if let v = o["preferred_size"], !v.isNull {
            guard let s = ValueJSON.parseSize(v), s.w > 0, s.h > 0, s.w <= 100_000, s.h <= 100_000 else {
                throw .invalidParams("popover.preferred_size", "'popover.preferred_size' must be {w, h} with 0 < w, h ≤ 100000")
            }
            popover.preferredSize = s
        }
        return popover
    }

    /// vc.set / vc.create's keys beyond id.
    func viewControllerSettings(_ p: Params, _ scene: Scene) throws(RPCError) -> ViewControllerSettings {
        var s = ViewControllerSettings()
        s.title = try p.string("title")
        s.color = try p.color("color")
        s.definesPresentationContext = try p.bool("defines_presentation_context")
        s.providesPresentationContextTransitionStyle = try p.bool("provides_presentation_context_transition_style")
        s.modalInPresentation = try p.bool("modal_in_presentation")
        s.modalTransitionStyle = try p.oneOf("transition_style", ModalTransitionStyle.allCases.map(\.rawValue))
            .flatMap(ModalTransitionStyle.init(rawValue:))
        if let size = try p.size("preferred_content_size") { s.preferredContentSize = .some(size) }
        s.preferredZoom = try preferredTransition(p, scene)
        return s
    }

    func vcSet(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        let vc = try viewController(p, scene, key: "vc")
        let settings = try viewControllerSettings(p, scene)
        try p.finish()
        scene.apply(settings, to: vc)
        return scene.json(of: vc)
    }

    func sheetSetDetent(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        let presented = try viewController(p, scene, key: "presented")
        let detent = try p.requiredString("detent")
        let animated = try p.bool("animated") ?? true
        try p.finish()
        do throws(EngineError) { try scene.setDetent(presented, detent, animated: animated) } catch {
            throw RPCError(error, param: "presented")
        }
        return sheetJSON(scene, presented)
    }

    /// gesture.pan with `sheet`: drags a sheet (no transition until a release dismisses it).
    func sheetPan(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        let presented = try viewController(p, scene, key: "sheet")
        guard let name = try p.oneOf("phase", PanGesture.Phase.allCases.map(\.rawValue)),
            let phase = PanGesture.Phase(rawValue: name)
        else {
            throw .invalidParams("phase", "missing parameter 'phase' (began, changed, ended, cancelled)")
        }
        let translation = try point(p, "translation") ?? Point(x: 0, y: 0)
        let velocity = try point(p, "velocity") ?? Point(x: 0, y: 0)
        if p.has("transition") || p.has("start") {
            throw .invalidParams("sheet", "give 'sheet' without 'transition' or 'start'")
        }
        try p.finish()
        let outcome: SheetPanOutcome
        do throws(EngineError) {
            outcome = try scene.sheetPan(presented, PanGesture(phase: phase, translation: translation, velocity: velocity))
        } catch {
            throw RPCError(error, param: "sheet")
        }
        var o = JSONObject([
            ("presented", .string(presented.id)), ("detent", .string(outcome.detent)), ("height", .number(outcome.height)),
            ("refused", .bool(outcome.refused)),
        ])
        o["transition"] = outcome.dismissing.map { .string($0.id) } ?? .null
        return .object(o)
    }

    /// sheet.set_detent's result: the presented view controller, its detent and frame.
    func sheetJSON(_ scene: Scene, _ presented: ViewController) -> JSONValue {
        .object(JSONObject([
            ("presented", .string(presented.id)),
            ("detent", presented.presentation?.selectedDetent.map { .string($0) } ?? .null),
            ("frame", ValueJSON.rect(presented.view.model.frame)),
        ]))
    }
}
