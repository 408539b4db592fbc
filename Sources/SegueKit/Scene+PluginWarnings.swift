extension Scene {

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
