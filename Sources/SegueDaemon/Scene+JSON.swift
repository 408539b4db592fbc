import SegueJSON
import SegueKit

/// The results the scene's methods answer with, encoded from the engine's typed values.
extension Scene {
    /// scene.tree's result.
    func treeJSON(presentation: Bool) -> JSONValue {
        let tree = tree(presentation: presentation)
        var o = JSONObject([
            ("views", Scene.json(of: tree.views)),
            ("controllers", tree.controllers.map { Scene.json(of: $0) } ?? .null),
        ])
        // Only when a view has a mask: the tree of a scene without masks reads as before.
        if !tree.masks.isEmpty { o["masks"] = .array(tree.masks.map { Scene.json(of: $0) }) }
        return .object(o)
    }

    static func json(of node: ViewNode) -> JSONValue {
        var o = JSONObject([("id", .string(node.id))])
        for (k, v) in ValueJSON.viewValues(node.model, hidden: node.hidden, z: node.z) { o[k] = v }
        // CALayer.mask: only when set, as every layer property is left out at its default.
        if let mask = node.mask { o["mask"] = .string(mask) }
        if let presentation = node.presentation {
            o["presentation"] = .object(ValueJSON.viewValues(presentation, hidden: node.hidden, z: node.z))
        }
        o["subviews"] = .array(node.subviews.map { json(of: $0) })
        return .object(o)
    }

    static func json(of node: ControllerNode) -> JSONValue {
        var o = JSONObject([
            ("id", .string(node.id)), ("kind", .string(node.kind)), ("view", .string(node.view)),
            ("appearance", .string(node.appearance.rawValue)), ("children", .array(node.children.map { json(of: $0) })),
        ])
        if let presented = node.presented { o["presented"] = json(of: presented) }
        return .object(o)
    }

    /// vc.get's result.
    func json(of vc: ViewController) -> JSONValue {
        var o = JSONObject([
            ("vc", .string(vc.id)), ("kind", .string(vc.kind)), ("title", vc.title.map { .string($0) } ?? .null),
            ("parent", vc.parent.map { .string($0.id) } ?? .null),
            ("children", .array(vc.children.map { .string($0.id) })), ("view", .string(vc.view.id)),
            ("appearance", .string(vc.appearance.rawValue)),
        ])
        if let presented = vc.presentedViewController { o["presented"] = .string(presented.id) }
        if let presenting = vc.presentingViewController { o["presenting"] = .string(presenting.id) }
        if let record = vc.presentation {
            o["presentation_style"] = .string(record.style.rawValue)
            if record.adaptiveStyle != record.style { o["adaptive_style"] = .string(record.adaptiveStyle.rawValue) }
            if record.isSheet {
                let detents = record.sheet?.detents ?? [.large]
                o["sheet"] = .object(JSONObject([
                    ("detents", .array(detents.map { .string($0.id) })),
                    ("selected", record.selectedDetent.map { .string($0) } ?? .null),
                    ("grabber", .bool(record.sheet?.grabber ?? false)),
                ]))
            }
            if record.adaptiveStyle == .popover {
                o["popover"] = .object(JSONObject([
                    ("arrow_direction", record.arrowDirection.map { .string($0.rawValue) } ?? .null),
                    ("frame", ValueJSON.rect(vc.view.model.frame)),
                ]))
            }
        }
        // Only when set, so that vc.get of a view controller that uses none of them reads as it always did.
        if vc.definesPresentationContext { o["defines_presentation_context"] = true }
        if vc.providesPresentationContextTransitionStyle { o["provides_presentation_context_transition_style"] = true }
        if vc.isModalInPresentation { o["modal_in_presentation"] = true }
        if let style = vc.modalTransitionStyle { o["transition_style"] = .string(style.rawValue) }
        if let size = vc.preferredContentSize { o["preferred_content_size"] = ValueJSON.size(size) }
        if let zoom = vc.preferredZoom {
            var z = JSONObject([("source_view", .string(zoom.sourceView))])
            if let r = zoom.sourceRect { z["source_rect"] = ValueJSON.rect(r) }
            o["preferred_transition"] = .object(JSONObject([("zoom", .object(z))]))
        }
        if !vc.preferredAnimators.isEmpty {
            o["animators"] = .object(JSONObject(
                vc.preferredAnimators.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        return .object(o)
    }

    /// container.get's result. Navigation adds `stack` (root first); paging adds `count`, `alive` and `page_of`.
    func json(of container: ContainerViewController) -> JSONValue {
        var o = JSONObject([
            ("container", .string(container.id)), ("kind", .string(container.kind)),
            ("children", .array(container.children.map { .string($0.id) })),
            ("selected", container.selectedIndex.map { .number(Double($0)) } ?? .null),
            ("transition", container.activeTransition.map { .string($0.id) } ?? .null),
            ("when_busy", .string(container.whenBusy.rawValue)),
        ])
        switch container.containerKind {
        case .custom, .tab:
            o["items"] = .array(container.items.map { .string($0.id) })
        case .navigation:
            o["stack"] = .array(container.items.map { .string($0.id) })
        case .split:
            guard let split = container.split else { break }
            var columns = JSONObject([("primary", .string(split.primary.id))])
            if let supplementary = split.supplementary { columns["supplementary"] = .string(supplementary.id) }
            columns["secondary"] = .string(split.secondary.id)
            o["columns"] = .object(columns)
            o["style"] = .string(split.style.rawValue)
            o["display_mode"] = .string(split.displayMode.rawValue)
            o["preferred_display_mode"] = .string(split.preferredDisplayMode.rawValue)
            o["collapsed"] = .bool(split.isCollapsed)
            o["navigation"] = split.collapsedNavigation.map { .string($0.id) } ?? .null
        case .paging:
            guard let paging = container.paging else { break }
            o["count"] = .number(Double(paging.pageCount))
            o["reuse"] = .number(Double(paging.reuse))
            o["alive"] = .array(paging.alive.map { .string($0.id) })
            o["page_of"] = .object(JSONObject(paging.alive.compactMap { vc in
                paging.pageOf[vc.id].map { (vc.id, JSONValue.number(Double($0))) }
            }))
        }
        let queued = container.queuedIDs
        if !queued.isEmpty { o["queued"] = .array(queued.map { .string($0) }) }
        if let delegate = container.delegatePlugin { o["delegate"] = .string(delegate) }
        if !container.rules.isEmpty {
            o["rules"] = .array(container.rules.map { rule in
                var when = JSONObject()
                if let k = rule.kind { when["kind"] = .string(k.rawValue) }
                if let f = rule.from { when["from"] = .string(f) }
                if let t = rule.to { when["to"] = .string(t) }
                if let d = rule.direction { when["direction"] = .string(d.rawValue) }
                var r = JSONObject([("when", .object(when)), ("animator", .string(rule.animator))])
                if let i = rule.interaction { r["interaction"] = .string(i) }
                return .object(r)
            })
        }
        return .object(o)
    }

    /// transition.get's result.
    func json(of t: Transition) -> JSONValue {
        var o = JSONObject([
            ("transition", .string(t.id)), ("scene", .string(id)), ("kind", .string(t.kind.rawValue)),
            ("from", .string(t.from.id)), ("to", .string(t.to.id)),
        ])
        if let i = t.fromIndex { o["from_index"] = .number(Double(i)) }
        if let i = t.toIndex { o["to_index"] = .number(Double(i)) }
        if let d = t.direction { o["direction"] = .string(d.rawValue) }
        if t.container.isModalHost {
            o["container"] = .null
            o["presentation_style"] = presentationStyle(of: t).map { .string($0.rawValue) } ?? .null
        } else {
            o["container"] = .string(t.container.id)
        }
        o["interactive"] = .bool(t.startedInteractive)
        if let name = t.interactionName { o["interaction"] = .string(name) }
        o["animator"] = .string(t.animatorName)
        o["state"] = .string(t.state.rawValue)
        o["percent"] = .number(percent(of: t))
        o["duration"] = .number(t.duration)
        o["started_at"] = .number(Double(t.startedAt) / 1e9)
        if let end = t.endedAt { o["ended_at"] = .number(Double(end) / 1e9) }
        o["forced"] = .bool(t.forced)
        o["failed_over"] = .bool(t.failedOver)
        if let info = t.info { o["info"] = Daemon.json(info) }
        // The transition's own problems, then the raises in its plugins' callbacks (first 16 distinct, counted).
        o["problems"] = .array(t.problems.map {
            .object(JSONObject([("code", .string($0.code.rawValue)), ("message", .string($0.message))]))
        } + t.raises.map {
            .object(JSONObject([
                ("code", "raised_in_callback"), ("message", .string($0.message)), ("count", .number(Double($0.count))),
            ]))
        })
        return .object(o)
    }

    /// transition.get for a request still waiting in its container's queue, or one that left it without a
    /// transition.
    func queuedJSON(_ id: String) -> JSONValue? {
        if let (container, kind) = queuedRequest(id) {
            return .object(JSONObject([
                ("transition", .string(id)), ("scene", .string(self.id)), ("kind", .string(kind.rawValue)),
                ("container", .string(container.id)), ("state", "queued"), ("percent", 0), ("duration", 0),
                ("forced", false), ("failed_over", false), ("problems", []),
            ]))
        }
        guard let outcome = queuedOutcome(id) else { return nil }
        var o = JSONObject([
            ("transition", .string(id)), ("scene", .string(self.id)), ("kind", .string(outcome.kind.rawValue)),
            ("container", .string(outcome.container)), ("state", .string(outcome.state.rawValue)),
            ("percent", .number(outcome.state == .completed ? 1 : 0)), ("duration", 0), ("forced", false),
            ("failed_over", false), ("skipped", true),
        ])
        o["problems"] = .array(outcome.message.map {
            [.object(JSONObject([("code", "skipped"), ("message", .string($0))]))]
        } ?? [])
        return .object(o)
    }

    /// One line of scene.list.
    var summary: JSONValue {
        .object(JSONObject([
            ("scene", .string(id)), ("size", ValueJSON.size(size)), ("clock", .string(clockMode.rawValue)),
            ("fps", .number(Double(fps))), ("time", .number(time)), ("root", root.map { .string($0.id) } ?? .null),
        ]))
    }
}
