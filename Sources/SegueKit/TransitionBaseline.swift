/// The views a transition's animator can reach, as they were before it ran.
struct TransitionBaseline {
    let views: [CallJournal.ViewState]
    let nextViewSerial: Int
}
