/// What an interaction plugin's `gesture_began(g, scene_info)` sees of the scene: its root, its containers and its
/// presentations (docs/PLUGIN_API.md "Gesture-first interaction").
public struct SceneInfo: Sendable {
    /// One container: its kind, children (a custom container's items: what `container.select` chooses among),
    /// selected index (0-based) and, for a navigation container, its stack.
    public struct Container: Sendable {
        public var id: String
        public var kind: String
        public var children: [String]
        public var selected: Int?
        public var stack: [String]?
    }

    public var root: String?
    public var containers: [Container]
    /// `(presenting, presented)` pairs, in the order the view controllers were made.
    public var presented: [(presenting: String, presented: String)]
}

extension Scene {
    /// The scene as `gesture_began` sees it.
    public var sceneInfo: SceneInfo {
        var containers: [SceneInfo.Container] = []
        var presented: [(presenting: String, presented: String)] = []
        for vc in controllers.all {
            if let child = vc.presentedViewController { presented.append((vc.id, child.id)) }
            guard let c = vc as? ContainerViewController, !c.isModalHost else { continue }
            containers.append(SceneInfo.Container(
                // A custom container's children are its selected item only: the items are what select counts.
                id: c.id, kind: c.kind,
                children: (c.containerKind == .custom ? c.items : c.children).map(\.id), selected: c.selectedIndex,
                stack: c.containerKind == .navigation ? c.items.map(\.id) : nil))
        }
        return SceneInfo(root: root?.id, containers: containers, presented: presented)
    }
}
