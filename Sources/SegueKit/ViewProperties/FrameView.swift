/// One view of a frame event: its id, what changed, and its presentation values copied from the engine when the
/// frame was emitted. A value whose change is not in `changes` is not sent (its field here is not meaningful).
public struct FrameView: Sendable, Equatable {
    public let id: String
    public let changes: ViewChanges
    /// The layout frame (sent when a property that is `partOfFrame` changed: the center or the bounds).
    public var frame = Rect(x: 0, y: 0, w: 0, h: 0)
    /// The presentation values kept in channels (`ViewProperty.info.storage`).
    public var values = ViewValues(channels: [])
    public var z = 0.0
    public var hidden = false

    public init(id: String, changes: ViewChanges) {
        self.id = id
        self.changes = changes
    }

    /// Whether the frame is sent: it follows from the properties that are part of it.
    public var sendsFrame: Bool { !changes.isDisjoint(with: .frame) }

    /// The values of `property` (a transform's 16, a flag's 1 or 0).
    public func value(of property: ViewProperty) -> ArraySlice<Double> {
        values.value(of: property, z: z, hidden: hidden)
    }

    /// Sets the values of `property` (the setter's side of `value(of:)`).
    public mutating func set(_ property: ViewProperty, _ new: some Collection<Double>) {
        switch property.info.storage {
        case .channels: values.set(property, new)
        case .zPosition: z = new.first ?? 0
        case .hiddenFlag: hidden = (new.first ?? 0) != 0
        case .gradient:
            if values.gradient == nil { values.gradient = GradientValues() }
            values.gradient?.set(property, new)
        }
    }
}
