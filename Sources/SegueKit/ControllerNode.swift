/// A view controller in scene.tree: its children and the one it presents, to `Scene.maxViewDepth` levels.
public struct ControllerNode: Sendable, Equatable {
    public let id: String
    public let kind: String
    /// The id of its view.
    public let view: String
    public let appearance: Appearance
    public let children: [ControllerNode]
    /// The presented view controller's node, held in an array (a struct cannot hold an optional of itself).
    private let presentedNode: [ControllerNode]

    public var presented: ControllerNode? { presentedNode.first }

    init(id: String, kind: String, view: String, appearance: Appearance, children: [ControllerNode],
         presented: ControllerNode?) {
        self.id = id
        self.kind = kind
        self.view = view
        self.appearance = appearance
        self.children = children
        presentedNode = presented.map { [$0] } ?? []
    }
}
