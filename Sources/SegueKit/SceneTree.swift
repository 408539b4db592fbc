/// scene.tree's result, typed: the view tree from the window and the view-controller tree from the root.
public struct SceneTree: Sendable, Equatable {
    public let views: ViewNode
    public let controllers: ControllerNode?
    /// The mask views (CALayer.mask) of the views in `views`, each with its own subtree, in tree order: they have no
    /// superview, so they are not in `views`; a client draws them from here. Empty when no view has a mask.
    public var masks: [ViewNode] = []
}
