import SegueKit

extension PluginHost {
    /// One kept answer of `described`: the plugin `name` of `kind` in the state of the scene `scene` is the
    /// description `ref` in `instance`.
    struct Resolution {
        let scene: ObjectIdentifier
        let name: String
        let kind: PluginKind
        let instance: PluginInstance
        let ref: Int32
    }
}
