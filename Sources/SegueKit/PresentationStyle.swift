/// UIModalPresentationStyle (docs/PROTOCOL.md "Presentation styles"). `automatic` resolves as UIKit resolves it
/// for a view controller of its own: a page sheet (custom when a presentation plugin is named).
public enum PresentationStyle: String, Sendable, CaseIterable {
    case fullScreen, custom, overFullScreen
    case automatic, pageSheet, formSheet, currentContext, overCurrentContext, popover

    /// A style that shows as a sheet (UISheetPresentationController): page and form sheets.
    public var isSheet: Bool { self == .pageSheet || self == .formSheet }

    /// Whether the presenting (context) view leaves the hierarchy when the presentation completes, and so gets
    /// disappear/appear calls: UIKit's fullScreen and currentContext ("the views beneath the presented content are
    /// removed"); the over-styles, sheets and popovers leave them (UIModalPresentationStyle documentation).
    public var removesPresenterView: Bool { self == .fullScreen || self == .currentContext }
}

/// The popover arrow directions (UIPopoverArrowDirection); `any` is all four.
public enum PopoverArrowDirection: String, Sendable, CaseIterable {
    case up, down, left, right, any
}
