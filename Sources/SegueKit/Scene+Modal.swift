extension Scene {
    // MARK: Modal presentation (TransitionLedger+Presentations: the ledger keeps the presentations)

    /// modal.present: `presented` over `presenting`, with `style`, an animator and an optional presentation plugin.
    public func present(_ presented: ViewController, from presenting: ViewController, style: PresentationStyle?,
                        presentation pluginName: String? = nil, animated: Bool = true, interactive: Interactivity = .none,
                        animator requested: String? = nil, sheet: SheetConfiguration? = nil,
                        popover: PopoverConfiguration? = nil, transitionStyle: ModalTransitionStyle? = nil)
        throws(EngineError) -> TransitionStart
    {
        try ledger.present(presented, from: presenting, style: style, presentation: pluginName, animated: animated,
                           interactive: interactive, animator: requested, sheet: sheet, popover: popover,
                           transitionStyle: transitionStyle, in: self)
    }

    /// sheet.set_detent: -32002 when `presented` is not a sheet at rest, -32602 for a detent it does not list.
    public func setDetent(_ presented: ViewController, _ detent: String, animated: Bool = true) throws(EngineError) {
        try ledger.setDetent(presented, detent, animated: animated, in: self)
    }

    /// gesture.pan with `sheet`: drags the sheet of `presented` (-32002 when it is not a sheet at rest).
    public func sheetPan(_ presented: ViewController, _ gesture: PanGesture) throws(EngineError) -> SheetPanOutcome {
        try ledger.sheetPan(presented, gesture, in: self)
    }

    /// The sheet presentation of `presented` (its detents and selected detent), or nil.
    public func presentationRecord(of presented: ViewController) -> Presentation? { presented.presentation }

    /// modal.dismiss: `presented` and everything presented above it; only the top one animates (UIKit).
    public func dismiss(_ presented: ViewController, animated: Bool = true, interactive: Interactivity = .none,
                        animator requested: String? = nil) throws(EngineError) -> TransitionStart
    {
        try ledger.dismiss(presented, animated: animated, interactive: interactive, animator: requested, in: self)
    }
}

/// vc.set and vc.create's presentation keys: nil leaves a value as it is.
public struct ViewControllerSettings: Sendable {
    public var title: String?
    public var color: Color?
    public var definesPresentationContext: Bool?
    public var providesPresentationContextTransitionStyle: Bool?
    /// `transition_style`: the view controller's modalTransitionStyle.
    public var modalTransitionStyle: ModalTransitionStyle?
    public var modalInPresentation: Bool?
    /// Some(nil) clears the preferred content size.
    public var preferredContentSize: Size??
    /// `preferred_transition`: Some(nil) clears it.
    public var preferredZoom: ZoomTransition??

    public init() {}

    public var isEmpty: Bool {
        title == nil && color == nil && definesPresentationContext == nil
            && providesPresentationContextTransitionStyle == nil && modalInPresentation == nil && preferredContentSize == nil
            && modalTransitionStyle == nil
            && preferredZoom == nil
    }
}

extension Scene {
    /// vc.set: applies every key given (title, view colour, the presentation flags, the preferred content size).
    /// A presented form sheet or popover takes its new preferred size at once.
    public func apply(_ settings: ViewControllerSettings, to vc: ViewController) {
        if let title = settings.title { vc.title = title }
        if let color = settings.color { set(vc.view, color: color) }
        if let v = settings.definesPresentationContext { vc.definesPresentationContext = v }
        if let v = settings.providesPresentationContextTransitionStyle { vc.providesPresentationContextTransitionStyle = v }
        if let v = settings.modalTransitionStyle { vc.modalTransitionStyle = v }
        if let v = settings.modalInPresentation { vc.isModalInPresentation = v }
        if let zoom = settings.preferredZoom { vc.preferredZoom = zoom }
        if let size = settings.preferredContentSize {
            vc.preferredContentSize = size
            if let record = vc.presentation, record.transition == nil,
                record.adaptiveStyle == .formSheet || record.adaptiveStyle == .popover
            {
                set(vc.view, frame: ledger.presentedFrame(record, bounds: window.model.bounds, in: self))
            }
        }
    }
}
