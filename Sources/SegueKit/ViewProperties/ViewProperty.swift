/// A view property. **The table**: each property is a case here and one entry in `info` below — its protocol and
/// Lua names, value kind, model range, how it interpolates, where it is stored, how frame events send it — and
/// every edge reads that entry: the Lua host's names and accessors (SegueLua), frame events and `scene.tree`
/// (FrameViews, SegueDaemon's encoders, protocol shapes and OpenRPC), the LuaLS definitions
/// (`plugins/types/segue.lua`, held to the table by a test). How it is drawn is SegueRender's `SceneDrawing`, whose
/// exhaustive switch over the cases makes a new one fail to compile until it is drawn. docs/DESIGN.md "View
/// properties" says how to add one.
///
/// The raw value is the property's change flag (its bit in `ViewChanges`); frame events send the changed
/// properties in that order. New properties go at the end.
public enum ViewProperty: Int, Sendable, CaseIterable {
    case center, bounds, alpha, transform, color, cornerRadius, z, hidden
    /// Core Animation's layer geometry (issue 26): CALayer.anchorPoint, .position (the same stored point as
    /// `center`), .sublayerTransform, .doubleSided.
    case anchorPoint, position, sublayerTransform, doubleSided
    // The layer's look (issue 26): CALayer's border, shadow and masksToBounds.
    case borderWidth, borderColor, shadowColor, shadowOpacity, shadowRadius, shadowOffset, clipsToBounds
    /// A gradient view's CAGradientLayer (issue 26: `segue.gradient_view`): .colors, .locations, .startPoint,
    /// .endPoint, .type — kept beside the channels (`ViewValues.gradient`), absent from every other view.
    case colors, locations, startPoint, endPoint, gradientType

    /// The property's entry in the table (inlinable: the hot paths of other modules read one field of it, and the
    /// optimizer then keeps just that field's switch).
    @inlinable
    public var info: ViewPropertyInfo {
        switch self {
        case .center:
            ViewPropertyInfo(name: "center", kind: .point, storage: .channels(0), range: .finite,
                             sentInFrames: false, partOfFrame: true)
        case .bounds:
            ViewPropertyInfo(name: "bounds", kind: .rect, storage: .channels(2), range: .finite, partOfFrame: true)
        case .alpha:
            // CALayer.opacity: "Values outside that range are clamped to the minimum or maximum."
            ViewPropertyInfo(name: "alpha", kind: .number, storage: .channels(6), range: .clamped(0, 1))
        case .transform:
            ViewPropertyInfo(name: "transform", kind: .transform, storage: .channels(7), range: .finite,
                             interpolation: .affineDecomposition)
        case .color:
            ViewPropertyInfo(name: "color", kind: .color, storage: .channels(23), range: .finite)
        case .cornerRadius:
            ViewPropertyInfo(name: "corner_radius", kind: .number, storage: .channels(27), range: .atLeast(0), unit: "pt")
        case .z:
            ViewPropertyInfo(name: "z", kind: .number, storage: .zPosition, range: .finite, interpolation: .none,
                             summary: "drawing order among siblings")
        case .hidden:
            ViewPropertyInfo(name: "hidden", kind: .boolean, storage: .hiddenFlag, range: .finite, interpolation: .none)
        case .anchorPoint:
            // CALayer.anchorPoint: unit coordinates of the bounds, animatable; the frame is placed so that this
            // point of the bounds sits at `position`.
            ViewPropertyInfo(name: "anchor_point", kind: .point, storage: .channels(28), range: .finite,
                             partOfFrame: true, summary: "unit coordinates, default {x=0.5, y=0.5}", initial: [0.5, 0.5])
        case .position:
            // CALayer.position is UIView.center: one stored point, two names (a write of either is a write of
            // `center`; frame events carry it in the frame, as `center`).
            ViewPropertyInfo(name: "position", kind: .point, storage: .channels(0), range: .finite,
                             sentInFrames: false, partOfFrame: true, summary: "the same point as center")
        case .sublayerTransform:
            ViewPropertyInfo(name: "sublayer_transform", kind: .transform, storage: .channels(30), range: .finite,
                             interpolation: .affineDecomposition, summary: "applied to the subviews, about the anchor point",
                             initial: [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1])
        case .doubleSided:
            // CALayer.doubleSided is not animatable.
            ViewPropertyInfo(name: "double_sided", kind: .boolean, storage: .channels(46), range: .finite,
                             interpolation: .none, summary: "false: the back is not drawn", initial: [1])
        // CALayer's documented defaults (developer.apple.com/documentation/quartzcore/calayer): borderWidth 0,
        // borderColor opaque black, shadowColor opaque black, shadowOpacity 0 ("must be in the range 0.0
        // (transparent) to 1.0 (opaque)"), shadowRadius 3, shadowOffset (0, -3), masksToBounds false.
        case .borderWidth:
            ViewPropertyInfo(name: "border_width", kind: .number, storage: .channels(47), range: .atLeast(0),
                             unit: "pt", initial: [0])
        case .borderColor:
            ViewPropertyInfo(name: "border_color", kind: .color, storage: .channels(48), range: .finite,
                             initial: [0, 0, 0, 1])
        case .shadowColor:
            ViewPropertyInfo(name: "shadow_color", kind: .color, storage: .channels(52), range: .finite,
                             initial: [0, 0, 0, 1])
        case .shadowOpacity:
            ViewPropertyInfo(name: "shadow_opacity", kind: .number, storage: .channels(56), range: .within(0, 1),
                             initial: [0])
        case .shadowRadius:
            ViewPropertyInfo(name: "shadow_radius", kind: .number, storage: .channels(57), range: .atLeast(0),
                             unit: "pt", initial: [3])
        case .shadowOffset:
            ViewPropertyInfo(name: "shadow_offset", kind: .size, storage: .channels(58), range: .finite,
                             initial: [0, -3])
        case .clipsToBounds:
            ViewPropertyInfo(name: "clips_to_bounds", kind: .boolean, storage: .channels(60), range: .finite,
                             interpolation: .none, summary: "subviews clipped to the bounds (masksToBounds)",
                             initial: [0])
        // CAGradientLayer (developer.apple.com/documentation/quartzcore/cagradientlayer): colors and locations
        // "animatable", startPoint and endPoint "animatable", in the unit coordinate space; type is not animatable.
        case .colors:
            ViewPropertyInfo(name: "colors", kind: .colorList, storage: .gradient, range: .finite,
                             summary: "gradient views: the gradient's colours, at least one")
        case .locations:
            ViewPropertyInfo(name: "locations", kind: .numberList, storage: .gradient, range: .within(0, 1),
                             summary: "gradient views: each colour's stop, ascending in 0…1; nil = evenly spaced")
        case .startPoint:
            ViewPropertyInfo(name: "start_point", kind: .point, storage: .gradient, range: .finite,
                             summary: "gradient views: unit coordinates, default {x=0.5, y=0}")
        case .endPoint:
            ViewPropertyInfo(name: "end_point", kind: .point, storage: .gradient, range: .finite,
                             summary: "gradient views: unit coordinates, default {x=0.5, y=1}")
        case .gradientType:
            ViewPropertyInfo(name: "type", kind: .gradientType, storage: .gradient, range: .finite,
                             interpolation: .none, summary: "gradient views: \"axial\", \"radial\" or \"conic\"")
        }
    }

    /// How many channels of `ViewValues.channels` the properties stored there use (the end of the last one).
    public static let channelCount = 61

    /// The order `scene.tree`'s view node, `segue.view{}` and the LuaLS class list the properties in (after the
    /// derived `frame`): API 1's order, then every later property in declaration order.
    public static let listed: [ViewProperty] = {
        let api1: [ViewProperty] = [.bounds, .center, .alpha, .transform, .hidden, .color, .cornerRadius, .z]
        return api1 + allCases.filter { !api1.contains($0) }
    }()

    /// Where the property's channels start in `ViewValues.channels` (0 for one kept on the view itself).
    /// (These four read the table's flat layout, `ViewPropertyLayout`: `info` builds the whole entry, strings and
    /// all, per read — some 70 times in a dt-slide select.)
    @inlinable
    public var offset: Int { max(0, ViewPropertyLayout.shared.storage[rawValue]) }

    /// How many channels (values) the property has (0 for a gradient's list: see `ViewValues.get`).
    @inlinable
    public var count: Int { ViewPropertyLayout.shared.kinds[rawValue].count }

    /// Whether the property is a part of a gradient view's values (`ViewValues.gradient`): read from the flat
    /// layout, not `info` (building the entry allocates its `initial` list in a debug build, per read).
    @inlinable
    public var isGradient: Bool { ViewPropertyLayout.shared.storage[rawValue] == ViewPropertyLayout.gradient }

    /// The protocol's (and Lua's) name for the property.
    public var name: String { ViewPropertyLayout.shared.names[rawValue] }

    /// Whether setting the property inside an animation block animates it.
    @inlinable
    public var animates: Bool { ViewPropertyLayout.shared.animates & changeBit != 0 }

    /// The property's change flag.
    @inlinable
    public var changeBit: UInt64 { 1 << UInt64(rawValue) }

    /// The property whose values a write of this one sets: `center` for `position` (one stored point, two
    /// names), else itself.
    @inlinable
    public var stored: ViewProperty { self == .position ? .center : self }

    /// The property whose protocol / Lua name is `name`.
    public static func named(_ name: String) -> ViewProperty? { allCases.first { $0.name == name } }
}

/// One entry of the view-property table (`ViewProperty.info`).
public struct ViewPropertyInfo: Sendable, Equatable {
    /// Where the model and presentation values live.
    public enum Storage: Sendable, Equatable {
        /// `kind.count` channels of `ViewValues.channels` from this offset (model and presentation alike).
        case channels(Int)
        /// `View.z`: set at once; changes the drawing order, so it is part of the tree's structure.
        case zPosition
        /// `View.hidden`: set at once; part of the tree's structure.
        case hiddenFlag
        /// A part of `ViewValues.gradient` (`GradientValues.values(of:)`): only gradient views have it, and a list's
        /// length is the view's own.
        case gradient
    }

    /// How an animation moves the property from one value to the next.
    public enum Interpolation: Sendable, Equatable {
        /// Channel by channel along a straight line (or the spring's curve).
        case componentwise
        /// A 2-D affine transform by decomposition (translation, scale, rotation, shear), as Core Animation does;
        /// 3-D ones component by component.
        case affineDecomposition
        /// Not animated: set at once, also inside an animation block (like UIKit's non-animatable properties).
        case none
    }

    /// The protocol's name: frame events, `scene.tree`, the view node of OpenRPC, and the Lua property.
    public let name: String
    /// The name a plugin reads and writes (`view.corner_radius`): the protocol's name.
    public var luaName: String { name }
    public let kind: ViewValueKind
    public let storage: Storage
    /// The model values a write may set: outside it a write is refused, or clamped when the range says so.
    /// Presentation values are reported raw (an overshooting spring shows in frame events as CA's presentation
    /// layer shows it); drawing clamps.
    public let range: ModelRange
    public let interpolation: Interpolation
    /// Whether frame events carry the property under its own name (`center` does not: the frame carries it).
    public let sentInFrames: Bool
    /// Whether a change of the property changes the derived `frame` (frame events send `frame` first when so).
    public let partOfFrame: Bool
    /// What the LuaLS definitions say after the type, when the range does not say it all.
    public let summary: String?
    /// The unit of a number (`pt`; "" for a ratio), as plots label it.
    public let unit: String
    /// A new view's value, for the properties added after API 1 (nil for API 1's, whose start values
    /// `ViewValues.init(frame:)` sets). `scene.tree` and a transition's start record leave such a property out while
    /// it is at this value, so the tree of a scene that does not use it reads as before.
    public let initial: [Double]?

    public init(name: String, kind: ViewValueKind, storage: Storage, range: ModelRange,
                interpolation: Interpolation = .componentwise, sentInFrames: Bool = true, partOfFrame: Bool = false,
                summary: String? = nil, unit: String = "", initial: [Double]? = nil)
    {
        self.unit = unit
        self.initial = initial
        self.name = name
        self.kind = kind
        self.storage = storage
        self.range = range
        self.interpolation = interpolation
        self.sentInFrames = sentInFrames
        self.partOfFrame = partOfFrame
        self.summary = summary
    }

    /// The LuaLS definitions' comment after the type: the summary, else what the range says.
    public var luaComment: String? { summary ?? range.description }
}

/// The shape of a property's value: how many channels it has, how Lua and JSON write it.
public enum ViewValueKind: Sendable, Equatable {
    /// One number.
    case number
    /// `{x, y}`.
    case point
    /// `{w, h}` (a CGSize: the shadow's offset).
    case size
    /// `{x, y, w, h}`.
    case rect
    /// A 4×4 matrix, row-major (16 values); sent as `{a, b, c, d, tx, ty}` when 2-D affine, else `{m: [16]}`.
    case transform
    /// Red, green, blue, alpha in 0…1; written `"#rrggbb"` or `"#rrggbbaa"`.
    case color
    /// A flag (1 or 0 where it is a number).
    case boolean
    /// A list of colours (4 values each), written `{"#rrggbb", …}`: a gradient's `colors`.
    case colorList
    /// A list of numbers, or nil (no values): a gradient's `locations`.
    case numberList
    /// CAGradientLayer.type: `"axial"`, `"radial"` or `"conic"` (its `GradientType.code`).
    case gradientType

    /// How many values (0 for a list: its length is the view's own).
    @inlinable
    public var count: Int {
        switch self {
        case .colorList, .numberList: 0
        case .number, .boolean, .gradientType: 1
        case .point, .size: 2
        case .rect, .color: 4
        case .transform: 16
        }
    }

    /// The type in the LuaLS definitions.
    public var luaType: String {
        switch self {
        case .number: "number"
        case .point: "segue.Point"
        case .size: "segue.Size"
        case .rect: "segue.Rect"
        case .transform: "segue.Transform|\"identity\""
        case .color: "segue.Color"
        case .boolean: "boolean"
        case .colorList: "segue.Color[]"
        case .numberList: "number[]|nil"
        case .gradientType: "\"axial\"|\"radial\"|\"conic\""
        }
    }

    /// What a Lua or JSON write must give (said in the error when it gives something else).
    public var expected: String {
        switch self {
        case .number: "a number"
        case .point: "a point {x=, y=}"
        case .size: "a size {w=, h=}"
        case .rect: "a rect {x=, y=, w=, h=}"
        case .transform: "a transform from segue.transform.* ({a,b,c,d,tx,ty} or {m={16 numbers}})"
        case .color: "\"#rrggbb\" or \"#rrggbbaa\""
        case .boolean: "a boolean"
        case .colorList: "a list of colours {\"#rrggbb\" or \"#rrggbbaa\", …}"
        case .numberList: "a list of numbers or nil"
        case .gradientType: "\"axial\", \"radial\" or \"conic\""
        }
    }
}

/// The model values a property may take. Every number must be finite; `clamped` and `atLeast` apply to a
/// one-number property.
public enum ModelRange: Sendable, Equatable {
    /// Any finite value.
    case finite
    /// Clamped into `lower…upper` (a write outside is not refused: UIKit's alpha).
    case clamped(Double, Double)
    /// At least `lower`: a write below it is refused.
    case atLeast(Double)
    /// Within `lower…upper`: a write outside is refused (CALayer.shadowOpacity "must be in the range 0.0 to 1.0").
    case within(Double, Double)

    /// The values to store for a write of `values`, or nil when the write is refused.
    @inlinable
    public func admit(_ value: Double) -> Double? {
        switch self {
        case .finite: return value.isFinite ? value : nil
        case .clamped(let lower, let upper): return value.isFinite ? min(max(value, lower), upper) : nil
        case .atLeast(let lower): return value.isFinite && value >= lower ? value : nil
        case .within(let lower, let upper): return value.isFinite && value >= lower && value <= upper ? value : nil
        }
    }

    /// A presentation value pulled into the range, as a picture draws it (events carry it raw: a spring may overshoot).
    public func pinned(_ value: Double) -> Double {
        switch self {
        case .finite: value
        case .clamped(let lower, let upper), .within(let lower, let upper): min(max(value, lower), upper)
        case .atLeast(let lower): max(value, lower)
        }
    }

    /// How the range reads in docs and messages (nil for any finite value).
    public var description: String? {
        switch self {
        case .finite: nil
        case .clamped(let lower, let upper): "clamped to \(ModelRange.text(lower))…\(ModelRange.text(upper))"
        case .atLeast(let lower): "≥ \(ModelRange.text(lower))"
        case .within(let lower, let upper): "in \(ModelRange.text(lower))…\(ModelRange.text(upper))"
        }
    }

    public static func text(_ v: Double) -> String { v == v.rounded() && abs(v) < 1e15 ? String(Int(v)) : String(v) }
}
