import SegueKit
import SegueLua

extension PluginEvent {
    /// The event's typed payload (the plugin host names its events by their protocol type).
    var payload: EngineEvent.Payload {
        switch kind {
        case .loaded: .pluginLoaded(name: name, file: file)
        case .unloaded: .pluginUnloaded(name: name, file: file)
        case .failed: .pluginFailed(name: name, file: file, error: message ?? "")
        case .warning: .pluginWarning(name: name, file: file, message: message ?? "", line: line, code: code)
        }
    }
}
