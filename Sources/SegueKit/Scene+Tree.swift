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

    func vcNode(_ vc: ViewController) -> JSONValue {
        .object(JSONObject([
            ("id", .string(vc.id)), ("kind", .string(vc.kind)), ("view", .string(vc.view.id)),
            ("appearance", .string(vc.appearance.rawValue)), ("children", .array(vc.children.map { vcNode($0) })),
        ]))
    }

    /// vc.get's result.
    public func json(of vc: ViewController) -> JSONValue {
        var o = JSONObject([
            ("vc", .string(vc.id)), ("kind", .string(vc.kind)), ("title", vc.title.map { .string($0) } ?? .null),
            ("parent", vc.parent.map { .string($0.id) } ?? .null),
            ("children", .array(vc.children.map { .string($0.id) })), ("view", .string(vc.view.id)),
            ("appearance", .string(vc.appearance.rawValue)),
        ])
        if !vc.preferredAnimators.isEmpty {
            o["animators"] = .object(JSONObject(vc.preferredAnimators.sorted { $0.key < $1.key }.map { ($0.key, .string($0.value)) }))
        }
        return .object(o)
    }

    /// container.get's result.
    public func json(of container: ContainerViewController) -> JSONValue {
        .object(JSONObject([
            ("container", .string(container.id)), ("kind", .string(container.kind)),
            ("children", .array(container.items.map { .string($0.id) })),
            ("selected", container.selectedIndex.map { .number(Double($0)) } ?? .null),
            ("transition", container.activeTransition.map { .string($0.id) } ?? .null),
        ]))
    }

    /// One line of scene.list.
    public var summary: JSONValue {
        .object(JSONObject([
            ("scene", .string(id)), ("size", Shapes.size(size)), ("clock", .string(clockMode.rawValue)),
            ("fps", .number(Double(fps))), ("time", .number(time)), ("root", root.map { .string($0.id) } ?? .null),
        ]))
    }
}
