/// A view in scene.tree: its model values, its presentation values when asked for, and its subviews.
public struct ViewNode: Sendable, Equatable {
    public let id: String
    public let model: ViewValues
    /// Set when the tree was asked for with presentation values.
    public let presentation: ViewValues?
    public let hidden: Bool
    public let z: Double
    /// The id of the view's mask view (CALayer.mask), nil when it has none.
    public let mask: String?
    public let subviews: [ViewNode]
}
