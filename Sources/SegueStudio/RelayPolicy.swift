import SegueJSON

/// What the studio lets a page send to the daemon. The page speaks the daemon's own JSON-RPC (one request per
/// WebSocket message), but only the methods a studio needs to build scenes, run transitions and draw them, and
/// only on scenes it created itself (`studio-…` ids): it cannot stop the daemon, reload its config, or touch
/// another client's scene.
public struct RelayPolicy: Sendable {
    /// Methods passed through as they are. Not among them, on purpose: `daemon.stats` and `daemon.metrics` (harmless
    /// reads, but their counts are daemon-wide: other clients' requests, scenes and plugin failures).
    public static let methods: Set<String> = [
        "daemon.ping", "daemon.info", "plugins.list", "plugins.check",
        "scene.create", "scene.use", "scene.destroy", "scene.tree", "scene.set_root", "scene.resize",
        "clock.advance", "clock.step", "clock.now", "clock.set_speed",
        "vc.create", "vc.get", "vc.destroy",
        "container.create", "container.select", "container.get", "container.set_delegate",
        "nav.push", "nav.pop", "nav.pop_to_root", "nav.set", "modal.present", "modal.dismiss",
        "transition.get", "transition.list", "transition.update", "transition.pause", "transition.finish",
        "transition.cancel", "gesture.pan", "events.subscribe", "events.unsubscribe",
        "render.filmstrip", "render.timeline",
    ]
    /// What a scene the page creates must be called.
    public static let scenePrefix = "studio-"

    /// The scenes this page created (and has not destroyed). A scene.create is counted at once, and taken back if
    /// the daemon refuses it (`daemonSaid`): an id another client holds never becomes the page's.
    public private(set) var scenes: Set<String> = []
    /// scene.create requests whose answer has not come: the request's id and the scene it claimed.
    private var pendingCreates: [(id: JSONValue, scene: String)] = []

    public init() {}

    public enum Admission: Equatable, Sendable {
        /// Send this line to the daemon.
        case forward(String)
        /// Answer the page with this line instead (a JSON-RPC error response).
        case refuse(String)
    }

    /// Reads one message from the page.
    public mutating func admit(_ text: String) -> Admission {
        let message: JSONValue
        do throws(JSONParseError) {
            message = try JSONParser.parse(text)
        } catch {
            return .refuse(RelayPolicy.error(id: .null, code: -32700, "parse error: \(error)"))
        }
        guard case .object(let request) = message else {
            return .refuse(RelayPolicy.error(id: .null, code: -32600, "the studio relays one request object per message"))
        }
        let id = request["id"] ?? .null
        guard let method = request["method"]?.stringValue else {
            return .refuse(RelayPolicy.error(id: id, code: -32600, "a request needs a method"))
        }
        guard RelayPolicy.methods.contains(method) else {
            return .refuse(RelayPolicy.error(id: id, code: -32601, "the studio does not relay '\(method)'"))
        }
        let params = request["params"]?.objectValue
        if method == "scene.create" {
            guard let scene = params?["id"]?.stringValue, scene.hasPrefix(RelayPolicy.scenePrefix) else {
                return .refuse(RelayPolicy.error(id: id, code: -32602,
                                                 "a studio scene needs an id starting with '\(RelayPolicy.scenePrefix)'"))
            }
            // Its answer settles the claim, so it must have one (an id the daemon's answer can be matched by).
            guard let requestID = request["id"], requestID.stringValue != nil || requestID.doubleValue != nil else {
                return .refuse(RelayPolicy.error(id: id, code: -32600,
                                                 "scene.create through the studio needs a string or number id"))
            }
            if !scenes.contains(scene) { pendingCreates.append((requestID, scene)) }
            scenes.insert(scene)
        } else if let scene = params?["scene"] {
            guard let name = scene.stringValue, scenes.contains(name) else {
                return .refuse(RelayPolicy.error(id: id, code: -32602,
                                                 "the studio only drives scenes this page created"))
            }
            if method == "scene.destroy" { scenes.remove(name) }
        } else if method == "scene.use" || method == "scene.destroy" {
            return .refuse(RelayPolicy.error(id: id, code: -32602, "'\(method)' through the studio needs 'scene'"))
        }
        return .forward(text)
    }

    /// Forgets every scene (the daemon restarted: they are gone).
    public mutating func forgetScenes() {
        scenes.removeAll()
        pendingCreates.removeAll()
    }

    /// A line from the daemon, on its way to the page: the answer to a pending scene.create settles it — an error
    /// takes the scene back. Only the id at the head of a response is read (events and pictures are not parsed).
    public mutating func daemonSaid(_ line: String) {
        guard !pendingCreates.isEmpty else { return }
        let head = #"{"jsonrpc":"2.0","id":"#
        guard line.utf8.starts(with: head.utf8) else { return }
        var text = line
        let answer: (id: JSONValue, failed: Bool)? = text.withUTF8 { bytes in
            guard let (id, end) = try? JSONParser.parseValue(in: bytes, at: head.utf8.count, depth: 1) else {
                return nil
            }
            return (id, UnsafeBufferPointer(rebasing: bytes[end...]).starts(with: #","error""#.utf8))
        }
        guard let answer, let i = pendingCreates.firstIndex(where: { $0.id == answer.id }) else { return }
        let scene = pendingCreates.remove(at: i).scene
        if answer.failed { scenes.remove(scene) }
    }

    /// A JSON-RPC error response, as one line.
    public static func error(id: JSONValue, code: Int, _ message: String) -> String {
        JSONValue.object(JSONObject([
            ("jsonrpc", "2.0"), ("id", id),
            ("error", .object(JSONObject([("code", .number(Double(code))), ("message", .string(message))]))),
        ])).serialized()
    }

    /// A notification from the studio itself (`studio.daemon`, …), as one line.
    public static func notification(_ method: String, _ params: JSONObject) -> String {
        JSONValue.object(JSONObject([("jsonrpc", "2.0"), ("method", .string(method)), ("params", .object(params))]))
            .serialized()
    }
}
