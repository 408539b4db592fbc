/// One view of a frame event: its id, what changed, and its presentation values copied from the engine when the
/// frame was emitted. A value whose change is not in `changes` is not sent (its field here is not meaningful).
public struct FrameView: Sendable, Equatable {
    public let id: String
    public let changes: ViewChanges
    /// The layout frame (sent when the center or the bounds changed).
    public var frame = Rect(x: 0, y: 0, w: 0, h: 0)
    public var bounds = Rect(x: 0, y: 0, w: 0, h: 0)
    public var alpha = 0.0
    public var transform = Transform3D.identity
    public var color = Color.clear
    public var cornerRadius = 0.0
    public var z = 0.0
    public var hidden = false

    public init(id: String, changes: ViewChanges) {
        self.id = id
        self.changes = changes
    }

    /// Whether the frame is sent: it follows from the center and the bounds.
    public var sendsFrame: Bool { !changes.isDisjoint(with: [.center, .bounds]) }
}
