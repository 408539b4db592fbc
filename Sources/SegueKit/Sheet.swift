/// A sheet detent (UISheetPresentationController.Detent): `medium`, `large` or a custom height.
public enum SheetDetent: Sendable, Equatable {
    case medium, large
    case custom(id: String, height: Double)

    public var id: String {
        switch self {
        case .medium: "medium"
        case .large: "large"
        case .custom(let id, _): id
        }
    }
}

/// `modal.present`'s `sheet`: the detents, the selected one, the grabber, the largest undimmed detent and
/// prefersEdgeAttachedInCompactHeight.
public struct SheetConfiguration: Sendable, Equatable {
    public var detents: [SheetDetent]
    public var selected: String?
    public var grabber: Bool
    public var largestUndimmed: String?
    public var prefersEdgeAttached: Bool

    public init(detents: [SheetDetent] = [.large], selected: String? = nil, grabber: Bool = false,
                largestUndimmed: String? = nil, prefersEdgeAttached: Bool = false)
    {
        self.detents = detents
        self.selected = selected
        self.grabber = grabber
        self.largestUndimmed = largestUndimmed
        self.prefersEdgeAttached = prefersEdgeAttached
    }

    /// Checks the detents: a known `selected` and `largest_undimmed`, no repeated id, no negative height.
    public func validated() throws(EngineError) -> SheetConfiguration {
        guard !detents.isEmpty else { throw .invalidParams("sheet.detents", "'sheet.detents' must list at least one detent") }
        var seen = Set<String>()
        for d in detents {
            guard seen.insert(d.id).inserted else { throw .invalidParams("sheet.detents", "detent '\(d.id)' is listed twice") }
            if case .custom(_, let h) = d, !(h.isFinite && h > 0) {
                throw .invalidParams("sheet.detents", "custom detent '\(d.id)' needs a height > 0, got \(h)")
            }
        }
        let ids = detents.map(\.id)
        if let selected, !seen.contains(selected) {
            throw .invalidParams("sheet.selected", "'sheet.selected' must be one of the detents: \(ids.joined(separator: ", "))")
        }
        if let largestUndimmed, !seen.contains(largestUndimmed) {
            throw .invalidParams("sheet.largest_undimmed",
                                 "'sheet.largest_undimmed' must be one of the detents: \(ids.joined(separator: ", "))")
        }
        return self
    }
}

/// A popover's anchor (UIPopoverPresentationController): the source view, a rect in its coordinates (default
/// its bounds), the permitted arrow directions and the preferred content size.
public struct PopoverConfiguration {
    public var sourceView: View
    public var sourceRect: Rect?
    public var permittedArrowDirections: Set<PopoverArrowDirection>
    public var preferredSize: Size?

    public init(sourceView: View, sourceRect: Rect? = nil, permittedArrowDirections: Set<PopoverArrowDirection> = [.any],
                preferredSize: Size? = nil)
    {
        self.sourceView = sourceView
        self.sourceRect = sourceRect
        self.permittedArrowDirections = permittedArrowDirections
        self.preferredSize = preferredSize
    }
}

/// The numbers of segued's sheets and popovers (docs/PROTOCOL.md "Presentation styles": UIKit publishes none of
/// them; each is segued's choice, with the reason there).
public enum SheetMetrics {
    /// The gap above a large sheet in a compact scene (pt): the presenter's top edge shows above it.
    public static let topInset = 10.0
    /// The medium detent: half the container's height (UIKit: "approximately half the height of the screen").
    public static let mediumFraction = 0.5
    /// A regular page sheet: this wide at most, with `regularMargin` above and below.
    public static let pageSheetWidth = 704.0
    public static let regularMargin = 20.0
    /// A form sheet's size when the presented view controller has no preferred content size (540 × 620).
    public static let formSheetSize = Size(w: 540, h: 620)
    /// The presenter behind a full-height compact page sheet: scaled by (width − 2 × inset) / width, rounded.
    public static let presenterInset = 16.0
    public static let presenterCornerRadius = 10.0
    /// The sheet's own corner radius.
    public static let sheetCornerRadius = 10.0
    /// The dimming view's alpha over a detent larger than `largest_undimmed` (black).
    public static let dimmingAlpha = 0.4
    /// WWDC 2018 "Designing Fluid Interfaces": projected distance = velocity / 1000 × rate / (1 − rate).
    public static let decelerationRate = 0.998
    /// A popover's arrow (pt), its margin from the container's edges, its default size.
    public static let arrowHeight = 13.0
    public static let popoverMargin = 10.0
    public static let popoverSize = Size(w: 320, h: 480)
    /// Sheet animations outside a transition (set_detent, snapping after a drag): 0.5 s, ease out.
    public static let snapDuration = 0.5
    /// The grabber (prefersGrabberVisible): 36 × 5 pt, corners of 2.5 pt, 5 pt below the sheet's top edge, a
    /// translucent grey (UIKit's light tertiary label colour, #3c3c43 at 30 %). UIKit documents none of these: they
    /// are what iOS 15–18 screenshots measure, segued's choice.
    public static let grabberSize = Size(w: 36, h: 5)
    public static let grabberTop = 5.0
    public static let grabberColor = Color(r: 60 / 255, g: 60 / 255, b: 67 / 255, a: 0.3)

    /// Where a release with `velocity` (pt/s) carries a value, by the published deceleration rule.
    public static func projection(velocity: Double, rate: Double = decelerationRate) -> Double {
        velocity / 1000 * rate / (1 - rate)
    }
}
