extension Scene {
    /// Keeps a callback's raise on the transitions the plugin takes part in (as animator, interaction or
    /// presentation): the running ones, or those that end now; else the latest one it took part in.
    func noteRaise(of plugin: String, _ message: String) {
        let involved = transitions.filter { t in
            t.animatorName == plugin || t.interactionName == plugin || presentationName(of: t) == plugin
        }
        let current = involved.filter { !$0.isEnded || $0.endedAt == now }
        for t in current.isEmpty ? Array(involved.suffix(1)) : current { t.noteRaise(message) }
    }

    private func presentationName(of t: Transition) -> String? {
        t.container.isModalHost ? ledger.modalRecord(of: t, in: self)?.controller?.name : nil
    }
}

extension Scene {
    /// A plugin callback raised and the host went on: `plugin.warning` with code `raised_in_callback`, the message
    /// said once ("ended raised: …"), and the file and line the error names.
    public func warnRaised(_ plugin: String, _ what: String, _ message: String, then consequence: String = "") {
        let place = PluginWarning.location(in: message)
        warn(plugin, PluginWarning(code: .raisedInCallback, message: PluginWarning.raised(what, message) + consequence,
                                   file: place?.file, line: place?.line))
    }
}
