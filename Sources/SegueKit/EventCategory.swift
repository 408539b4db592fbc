/// The subscription category of an event type (docs/PROTOCOL.md "Event types").
public enum EventCategory: String, Sendable, CaseIterable {
    case lifecycle, transition, plugin, frame, log
    /// Scene-level changes (`scene.traits_changed`): in `*`, not in the default subscription.
    case scene
    /// Sheets (`sheet.detent_changed`, `sheet.dismiss_attempted`): in `*` and in the default subscription.
    case presentation
    /// `events.dropped`: sent to a slow reader whatever it subscribed to.
    case other
}
