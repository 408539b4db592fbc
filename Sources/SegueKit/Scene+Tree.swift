import SegueJSON

extension Scene {
    /// scene.tree: the view tree from the window, and the view-controller tree from the root.
    public func tree(presentation: Bool) -> JSONValue {
        .object(JSONObject([
            ("views", viewNode(window, presentation: presentation)),
            ("controllers", root.map { vcNode($0) } ?? .null),
        ]))
    }

    func viewNode(_ view: View, presentation: Bool) -> JSONValue {
        var node = JSONObject([("id", .string(view.id))])
        for (k, v) in Shapes.viewValues(view.model, hidden: view.hidden, z: view.z) { node[k] = v }
        if presentation {
            node["presentation"] = .object(Shapes.viewValues(view.presentation, hidden: view.hidden, z: view.z))
        }
        node["subviews"] = .array(view.subviews.map { viewNode($0, presentation: presentation) })
        return .object(node)
    }

    func vcNode(_ vc: ViewController, depth: Int = 0) -> JSONValue {
        var o = JSONObject([
            ("id", .string(vc.id)), ("kind", .string(vc.kind)), ("view", .string(vc.view.id)),
            ("appearance", .string(vc.appearance.rawValue)),
            ("children", .array(depth < Scene.maxViewDepth ? vc.children.map { vcNode($0, depth: depth + 1) } : [])),
        ])
        if let presented = vc.presentedViewController, depth < Scene.maxViewDepth {
            o["presented"] = vcNode(presented, depth: depth + 1)
        }
        return .object(o)
    }

    /// vc.get's result.
    public func json(of vc: ViewController) -> JSONValue {
        var o = JSONObject([
            ("vc", .string(vc.id)), ("kind", .string(vc.kind)), ("title", vc.title.map { .string($0) } ?? .null),
            ("parent", vc.parent.map { .string($0.id) } ?? .null),
            ("children", .array(vc.children.map { .string($0.id) })), ("view", .string(vc.view.id)),
            ("appearance", .string(vc.appearance.rawValue)),
        ])
        if let presented = vc.presentedViewController { o["presented"] = .string(presented.id) }
        if let presenting = vc.presentingViewController { o["presenting"] = .string(presenting.id) }
        if let style = vc.presentation?.style { o["presentation_style"] = .string(style.rawValue) }
        if !vc.preferredAnimators.isEmpty {
            o["animators"] = .object(JSONObject(vc.preferredAnimators.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        return .object(o)
    }

    /// container.get's result. Navigation adds `stack` (root first); paging adds `count`, `alive` and `page_of`.
    public func json(of container: ContainerViewController) -> JSONValue {
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
        case .paging:
            o["count"] = .number(Double(container.pageCount))
            o["reuse"] = .number(Double(container.reuse))
            o["alive"] = .array(container.alive.map { .string($0.id) })
            o["page_of"] = .object(JSONObject(container.alive.compactMap { vc in
                container.pageOf[vc.id].map { (vc.id, JSONValue.number(Double($0))) }
            }))
        }
        if !container.queue.isEmpty { o["queued"] = .array(container.queue.map { .string($0.id) }) }
        if let delegate = container.delegatePlugin { o["delegate"] = .string(delegate) }
        if !container.rules.isEmpty {
            o["rules"] = .array(container.rules.map { rule in
                var when = JSONObject()
                if let k = rule.kind { when["kind"] = .string(k) }
                if let f = rule.from { when["from"] = .string(f) }
                if let t = rule.to { when["to"] = .string(t) }
                if let d = rule.direction { when["direction"] = .string(d) }
                var r = JSONObject([("when", .object(when)), ("animator", .string(rule.animator))])
                if let i = rule.interaction { r["interaction"] = .string(i) }
                return .object(r)
            })
        }
        return .object(o)
    }

    /// transition.get for a request still waiting in its container's queue, or one that left it without a
    /// transition.
    public func queuedJSON(_ id: String) -> JSONValue? {
        if let (container, kind) = queuedRequest(id) {
            return .object(JSONObject([
                ("transition", .string(id)), ("scene", .string(self.id)), ("kind", .string(kind.rawValue)),
                ("container", .string(container.id)), ("state", "queued"), ("percent", 0), ("duration", 0),
                ("forced", false), ("failed_over", false), ("problems", []),
            ]))
        }
        guard let outcome = coordinator.queuedOutcomes[id] else { return nil }
        var o = JSONObject([
            ("transition", .string(id)), ("scene", .string(self.id)), ("kind", .string(outcome.kind.rawValue)),
            ("container", .string(outcome.container)), ("state", .string(outcome.state.rawValue)),
            ("percent", .number(outcome.state == .completed ? 1 : 0)), ("duration", 0), ("forced", false),
            ("failed_over", false), ("skipped", true),
        ])
        o["problems"] = .array(outcome.message.map { [.object(JSONObject([("code", "skipped"), ("message", .string($0))]))] } ?? [])
        return .object(o)
    }

    /// One line of scene.list.
    public var summary: JSONValue {
        .object(JSONObject([
            ("scene", .string(id)), ("size", Shapes.size(size)), ("clock", .string(clockMode.rawValue)),
            ("fps", .number(Double(fps))), ("time", .number(time)), ("root", root.map { .string($0.id) } ?? .null),
        ]))
    }
}
