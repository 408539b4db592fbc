/// Which of a view's properties changed in a tick: a frame event's per-view set, one bit per `ViewProperty` (its
/// raw value). 64 bits: the table may grow to 64 properties (a test holds it there).
public struct ViewChanges: OptionSet, Sendable, Hashable {
    public let rawValue: UInt64
    public init(rawValue: UInt64) { self.rawValue = rawValue }

    /// The change of a property.
    @inlinable
    public init(_ property: ViewProperty) { rawValue = property.changeBit }

    public static let center = ViewChanges(.center)
    public static let bounds = ViewChanges(.bounds)
    public static let alpha = ViewChanges(.alpha)
    public static let transform = ViewChanges(.transform)
    public static let color = ViewChanges(.color)
    public static let cornerRadius = ViewChanges(.cornerRadius)
    public static let z = ViewChanges(.z)
    public static let hidden = ViewChanges(.hidden)
    public static let anchorPoint = ViewChanges(.anchorPoint)
    public static let position = ViewChanges(.position)
    public static let sublayerTransform = ViewChanges(.sublayerTransform)
    public static let doubleSided = ViewChanges(.doubleSided)
    /// Every property of the table.
    public static let all = ViewChanges(rawValue: ViewProperty.allCases.reduce(0) { $0 | $1.changeBit })
    /// The properties whose change changes the derived frame (`partOfFrame`: center, bounds, anchor point; position, which is center).
    public static let frame = ViewChanges(
        rawValue: ViewProperty.allCases.reduce(0) { $1.info.partOfFrame ? $0 | $1.changeBit : $0 })

    /// The properties of the table without an initial value (API 1's): a restored view reports all of them.
    static let alwaysRestored = ViewChanges(
        rawValue: ViewProperty.allCases.reduce(0) { $1.info.initial == nil && !$1.isGradient ? $0 | $1.changeBit : $0 })

    /// What a view put back wholesale (a journal's or a baseline's restore) reports: API 1's properties, as
    /// before, and a later one (`ViewPropertyInfo.initial`, or a gradient view's part) only when its presentation
    /// value differs, so frame events of scenes that never use the border, the shadow or a gradient read as before.
    static func restored(from old: ViewValues, to new: ViewValues) -> ViewChanges {
        var changes = alwaysRestored
        for property in ViewProperty.allCases where property.info.initial != nil || property.isGradient {
            if !old.get(property).elementsEqual(new.get(property)) { changes.insert(ViewChanges(property)) }
        }
        return changes
    }

    @inlinable
    public func contains(_ property: ViewProperty) -> Bool { rawValue & property.changeBit != 0 }
}
