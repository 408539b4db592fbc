import SegueKit
import SegueLua

extension PluginEvent {
    /// The event's typed payload (the plugin host names its events by their protocol type).
    var payload: EngineEvent.Payload {
        switch type {
        case "plugin.loaded": .pluginLoaded(name: name, file: file)
        case "plugin.unloaded": .pluginUnloaded(name: name, file: file)
        case "plugin.failed": .pluginFailed(name: name, file: file, error: message ?? "")
        default: .pluginWarning(name: name, file: file, message: message ?? "", line: line, code: code)
        }
    }
}
