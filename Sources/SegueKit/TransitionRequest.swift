/// The options every transition request carries (the protocol's `animated`, `interactive`, `animator`,
/// `when_busy`, and the id a queued request was given).
struct TransitionRequest {
    var animated: Bool
    var interactive: Interactivity
    var animator: String?
    var whenBusy: WhenBusy?
    var id: String?
}
