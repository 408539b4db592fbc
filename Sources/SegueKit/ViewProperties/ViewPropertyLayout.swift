/// The view-property table's hot fields (`ViewProperty.info`), laid out flat once for the per-frame paths and the
/// Lua host's writes: a property's kind, where its values are stored, its model range and whether it animates,
/// read by raw value without building its `ViewPropertyInfo`.
///
/// The frame paths (`FrameViews.pack`, SegueDaemon's `EventEncoder.writeFrame`) run per changed property of every
/// changed view of every tick. Read through `info` there, the entry was built per property (its getter is not
/// inlined into another module) and each read sat in a closure whose captured counters Swift checked for exclusive
/// access at run time: with a frame subscriber that was more than half of a frame's instructions
/// (`scripts/instructions`, daemon.frame.subscribed); a plugin's `view.alpha = x` built it several times per write. The storage is made once and never freed, so copies of this
/// value are plain pointers: no reference counting.
public struct ViewPropertyLayout: @unchecked Sendable {
    /// Each property's value kind, by raw value.
    public let kinds: UnsafePointer<ViewValueKind>
    /// Where each property's values are: the channel offset, or `ViewPropertyLayout.zPosition` /
    /// `ViewPropertyLayout.hiddenFlag` for the ones kept on the view.
    public let storage: UnsafePointer<Int>
    /// Each property's model range, by raw value.
    public let ranges: UnsafePointer<ModelRange>
    /// Each property's protocol (and Lua) name, by raw value.
    public let names: UnsafePointer<String>
    /// The properties that animate inside a block (`ViewProperty.animates`).
    public let animates: UInt64
    /// The properties frame events carry under their own names (`FrameViews.sent`).
    public let sent: UInt64
    /// The properties that are part of the derived frame (`ViewChanges.frame`).
    public let frame: UInt64

    public static let zPosition = -1
    public static let hiddenFlag = -2
    /// A gradient view's part (`ViewPropertyInfo.Storage.gradient`).
    public static let gradient = -3
    /// The properties kept in `ViewValues.gradient`.
    public let gradientParts: UInt64

    /// The one layout, made from the table.
    public static let shared = ViewPropertyLayout()

    private init() {
        let all = ViewProperty.allCases
        let kinds = UnsafeMutablePointer<ViewValueKind>.allocate(capacity: all.count)
        let storage = UnsafeMutablePointer<Int>.allocate(capacity: all.count)
        let ranges = UnsafeMutablePointer<ModelRange>.allocate(capacity: all.count)
        let names = UnsafeMutablePointer<String>.allocate(capacity: all.count)
        var sent: UInt64 = 0, frame: UInt64 = 0, animates: UInt64 = 0, gradientParts: UInt64 = 0
        for property in all {
            let info = property.info
            (kinds + property.rawValue).initialize(to: info.kind)
            let place: Int
            switch info.storage {
            case .channels(let offset): place = offset
            case .zPosition: place = ViewPropertyLayout.zPosition
            case .hiddenFlag: place = ViewPropertyLayout.hiddenFlag
            case .gradient:
                place = ViewPropertyLayout.gradient
                gradientParts |= property.changeBit
            }
            (storage + property.rawValue).initialize(to: place)
            (ranges + property.rawValue).initialize(to: info.range)
            (names + property.rawValue).initialize(to: info.name)
            if info.interpolation != .none { animates |= property.changeBit }
            if info.sentInFrames { sent |= property.changeBit }
            if info.partOfFrame { frame |= property.changeBit }
        }
        self.kinds = UnsafePointer(kinds)
        self.storage = UnsafePointer(storage)
        self.ranges = UnsafePointer(ranges)
        self.names = UnsafePointer(names)
        self.animates = animates
        self.sent = sent
        self.frame = frame
        self.gradientParts = gradientParts
    }
}
