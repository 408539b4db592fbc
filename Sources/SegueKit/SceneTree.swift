/// scene.tree's result, typed: the view tree from the window and the view-controller tree from the root.
public struct SceneTree: Sendable, Equatable {
    public let views: ViewNode
    public let controllers: ControllerNode?
}
