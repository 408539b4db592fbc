/// The views a transition's animator can reach, as they were before it ran.
struct TransitionBaseline {
    let views: [SceneJournal.ViewState]
    let nextViewSerial: Int
}
