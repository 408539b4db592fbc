/// Raises in plugin callbacks, kept on the transitions the plugin takes part in (`transition.get`'s `problems`).
extension TransitionLedger {
    /// Keeps a callback's raise on the transitions the plugin takes part in (as animator, interaction or
    /// presentation): the running ones, or those that end now; else the latest one it took part in.
    func noteRaise(of plugin: String, _ message: String, in scene: Scene) {
        let involved = transitionOrder.filter { t in
            t.animatorName == plugin || t.interactionName == plugin || presentationName(of: t, in: scene) == plugin
        }
        let current = involved.filter { !$0.isEnded || $0.endedAt == scene.now }
        for t in current.isEmpty ? Array(involved.suffix(1)) : current { t.noteRaise(message) }
    }

    private func presentationName(of t: Transition, in scene: Scene) -> String? {
        t.container.isModalHost ? modalRecord(of: t, in: scene)?.controller?.name : nil
    }
}
