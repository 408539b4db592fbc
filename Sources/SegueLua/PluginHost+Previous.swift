import SegueKit

/// `NAME@previous`: the last good version of a plugin's file before the loaded one, kept runnable so that a studio
/// (or a test) can play the two side by side. Only the one version before is kept; each runs in Lua states of its
/// own, apart from the loaded version's.
extension PluginHost {
    /// What a name ends with to ask for the version before the loaded one.
    public static let previousSuffix = "@previous"

    /// The loaded file that defines `name`, and the plugin name inside it: for `NAME@previous`, the version of
    /// NAME's file before the loaded one (-32001 naming `param` when there is none). Nil when no plugin is called
    /// `name`.
    func loadedFile(for name: String, param: String) throws(EngineError) -> (LoadedFile, String)? {
        guard name.hasSuffix(PluginHost.previousSuffix) else {
            guard let path = byName[name], let file = files[path] else { return nil }
            return (file, name)
        }
        let base = String(name.dropLast(PluginHost.previousSuffix.count))
        guard let path = byName[base] else { return nil }
        guard let old = previous[path], old.records.contains(where: { $0.name == base }) else {
            throw EngineError(.notFound, "plugin '\(base)' has no previous version: its file has loaded only once "
                + "since the daemon started (or the version before did not define '\(base)')", param: param, id: name)
        }
        return (old, base)
    }

    /// The load generation of the version `NAME@previous` runs (nil when there is none).
    public func previousGeneration(of name: String) -> Int? {
        guard let path = byName[name], let old = previous[path] else { return nil }
        return old.records.first { $0.name == name }?.generation
    }
}
