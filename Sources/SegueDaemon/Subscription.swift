import SegueKit

/// An events.subscribe: which scene (nil: all) and which types.
struct Subscription {
    let id: Int
    unowned let connection: ClientConnection
    let scene: String?
    /// Categories (`lifecycle`, `transition`, `plugin`, `frame`, `log`, `scene`) or exact event types as asked for;
    /// `*` is everything. A type no event has is kept (and echoed) but matches nothing.
    let types: Set<String>
    /// `types` resolved to the event kinds they name.
    let kinds: EventKinds

    init(id: Int, connection: ClientConnection, scene: String?, types: Set<String>) {
        self.id = id
        self.connection = connection
        self.scene = scene
        self.types = types
        var kinds = EventKinds()
        for type in types {
            if type == "*" {
                kinds = .all
            } else if let category = EventCategory(rawValue: type), category != .other {
                kinds.formUnion(EventKinds(category))
            } else if let kind = EngineEvent.Kind(name: type) {
                kinds.insert(EventKinds(kind))
            }
        }
        self.kinds = kinds
    }

    func wants(_ kind: EngineEvent.Kind, scene eventScene: String?) -> Bool {
        if let scene, let eventScene, scene != eventScene { return false }
        return kinds.contains(kind)
    }
}
