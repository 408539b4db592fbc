import SegueJSON

/// Something that happened in a scene (or in the daemon): a lifecycle callback, a transition's progress, a frame.
public struct EngineEvent: Sendable {
    /// The scene, or nil for daemon-wide events (plugins).
    public let scene: String?
    /// Increases by one per event of a scene (per daemon for scene-less events), before any filtering.
    public let seq: Int
    public let type: String
    /// The scene clock in seconds.
    public let time: Double
    public let fields: JSONObject

    public init(scene: String?, seq: Int, type: String, time: Double, fields: JSONObject) {
        self.scene = scene
        self.seq = seq
        self.type = type
        self.time = time
        self.fields = fields
    }

    /// The subscription category: `lifecycle`, `transition`, `plugin`, `frame`, `log` or `other`.
    public var category: String { EngineEvent.category(of: type) }

    /// The subscription category of an event type.
    public static func category(of type: String) -> String {
        if type.hasPrefix("vc.") { return "lifecycle" }
        if type.hasPrefix("transition.") { return "transition" }
        if type.hasPrefix("plugin.") { return "plugin" }
        if type == "frame" { return "frame" }
        if type == "log" { return "log" }
        return "other"
    }

    /// The event's `params` object as the protocol sends it.
    public var params: JSONObject {
        var object = JSONObject()
        object["seq"] = .number(Double(seq))
        if let scene { object["scene"] = .string(scene) }
        object["type"] = .string(type)
        object["time"] = .number(time)
        for (k, v) in fields { object[k] = v }
        return object
    }
}

/// Where a scene sends its events.
public protocol EventSink: AnyObject {
    func emit(_ event: EngineEvent)
    /// Whether any listener wants events of `type` from `scene`; a scene skips building costly events (frames)
    /// nobody wants. Sequence numbers advance either way.
    func isListening(to type: String, in scene: String) -> Bool
}

extension EventSink {
    public func isListening(to type: String, in scene: String) -> Bool { true }
}
