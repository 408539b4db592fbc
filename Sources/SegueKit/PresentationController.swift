/// A presentation controller (UIPresentationController): a presentation plugin.
public protocol PresentationController: AnyObject {
    var name: String { get }
    /// `removes_presenter_view` (shouldRemovePresentersView).
    var removesPresenterView: Bool { get }
    /// `frame_of_presented_view(pc)`: nil means the whole container.
    func frameOfPresentedView(_ presentation: Presentation) throws(AnimatorFault) -> Rect?
    /// will_begin, did_end, dismissal_will_begin, dismissal_did_end and layout (`completed` for the did_ends).
    func call(_ hook: String, _ presentation: Presentation, completed: Bool?) throws(AnimatorFault)
    /// The presentation is over: forget what was kept for it.
    func presentationEnded(_ presentation: Presentation)
    /// `adaptive_style(pc, traits)` (adaptivePresentationStyle(for:)): the style to show as in these size
    /// classes; nil keeps the presentation's own.
    func adaptiveStyle(_ presentation: Presentation, traits: Traits) throws(AnimatorFault) -> PresentationStyle?
    /// `will_transition_to_size(pc, size)` (viewWillTransition(to:with:)); `pc.coordinator:alongside` animates
    /// over `duration`.
    func willTransition(_ presentation: Presentation, to size: Size, duration: Double) throws(AnimatorFault)
}

extension PresentationController {
    public func adaptiveStyle(_ presentation: Presentation, traits: Traits) throws(AnimatorFault) -> PresentationStyle? { nil }
    public func willTransition(_ presentation: Presentation, to size: Size, duration: Double) throws(AnimatorFault) {}
}
