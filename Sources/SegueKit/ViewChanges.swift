/// Which of a view's presentation values changed in a tick: a frame event's per-view set.
public struct ViewChanges: OptionSet, Sendable, Hashable {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// The center moved (the frame changed).
    public static let center = ViewChanges(rawValue: 1 << 0)
    public static let bounds = ViewChanges(rawValue: 1 << 1)
    public static let alpha = ViewChanges(rawValue: 1 << 2)
    public static let transform = ViewChanges(rawValue: 1 << 3)
    public static let color = ViewChanges(rawValue: 1 << 4)
    public static let cornerRadius = ViewChanges(rawValue: 1 << 5)
    public static let z = ViewChanges(rawValue: 1 << 6)
    public static let hidden = ViewChanges(rawValue: 1 << 7)
    public static let all = ViewChanges(rawValue: 0xFF)

    /// The change of an animatable property.
    public init(_ property: AnimatableProperty) { rawValue = 1 << UInt8(property.rawValue) }
}
