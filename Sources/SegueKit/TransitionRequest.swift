/// The options every transition request carries (the protocol's `animated`, `interactive`, `animator`,
/// `when_busy`, and the id a queued request was given).
struct TransitionRequest {
    var animated: Bool
    var interactive: Interactivity
    var animator: String?
    var whenBusy: WhenBusy?
    var id: String?
    /// The container kind's built-in animation and no interaction plugin, whatever the precedence would choose:
    /// the edge-swipe pop (`Scene.edgePan`), which UIKit drives with its own navigation slide.
    var builtIn = false
}
