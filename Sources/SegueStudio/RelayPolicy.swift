import SegueJSON
import SegueVersion

/// What the studio lets a page send to the daemon. The page speaks the daemon's own JSON-RPC (one request per
/// WebSocket message), but only the methods a studio needs to build scenes, run transitions and draw them, and
/// only on scenes it created itself (`studio-…` ids): it cannot stop the daemon, reload its config, or touch
/// another client's scene. What is relayed goes to the daemon as the page's bytes, unchanged; a message the daemon
/// would read as more than one line (a raw CR or LF) is refused, so what the relay checked is what the daemon runs.
public struct RelayPolicy: Sendable {
    /// Every daemon method and what the studio does with it: the one place each method, old or new, gets a decision.
    /// A method not listed here is refused.
    public static let rules: [String: RelayRule] = [
        "daemon.ping": .sceneless,
        "daemon.info": .studio,
        "daemon.stats": .refuse("the daemon's counters are its operator's"),
        "daemon.metrics": .refuse("its counts are daemon-wide: other clients' requests, scenes and plugin failures"),
        "daemon.reload": .refuse("reloading the daemon's config is its operator's"),
        "daemon.shutdown": .refuse("stopping the daemon is its operator's"),
        "rpc.discover": .refuse("a page needs no method list"),
        "plugins.list": .sceneless,
        "plugins.reload": .refuse("the daemon reloads plugins itself when their files change"),
        "plugins.check": .sceneless,
        "scene.create": .creates(["id"]),
        "scene.use": .relay(needsScene: true),
        "scene.list": .refuse("it lists every client's scenes"),
        "scene.destroy": .relay(needsScene: true, releases: true),
        "scene.tree": .relay(),
        "scene.set_root": .relay(),
        "scene.resize": .relay(),
        "clock.advance": .relay(),
        "clock.step": .relay(),
        "clock.now": .relay(),
        "clock.set_speed": .relay(),
        "vc.create": .relay(),
        "vc.get": .relay(),
        "vc.destroy": .relay(),
        "container.create": .relay(),
        "container.select": .relay(),
        "container.get": .relay(),
        "container.set_delegate": .relay(),
        "nav.push": .relay(),
        "nav.pop": .relay(),
        "nav.pop_to_root": .relay(),
        "nav.set": .relay(),
        "modal.present": .relay(),
        "modal.dismiss": .relay(),
        "split.set_column": .relay(),
        "split.show_column": .relay(),
        "split.hide_column": .relay(),
        "split.set_display_mode": .relay(),
        "transition.get": .relay(),
        "transition.list": .relay(),
        "transition.wait": .refuse("its answer can wait a day on the page's daemon connection; poll transition.get"),
        "transition.update": .relay(),
        "transition.pause": .relay(),
        "transition.finish": .relay(),
        "transition.cancel": .relay(),
        // `start` runs a transition-starting method: its own params.scene names a scene too.
        "gesture.pan": .relay([["scene"], ["start", "params", "scene"]]),
        // As gesture.pan; with `interaction` the daemon runs what the plugin chose in the gesture's own scene.
        "gesture.pinch": .relay([["scene"], ["start", "params", "scene"]]),
        "gesture.rotate": .relay([["scene"], ["start", "params", "scene"]]),
        "events.subscribe": .relay(),
        "events.unsubscribe": .sceneless,
        "render.filmstrip": .relay(),
        "render.timeline": .relay(),
        "vc.set": .relay(),
        "sheet.set_detent": .relay(),
        "render.frames": .relay(),
    ]

    /// The methods passed to the daemon.
    public static var methods: Set<String> { Set(rules.filter { $0.value.route == .relayed }.keys) }

    /// What a scene the page creates must be called.
    public static let scenePrefix = "studio-"

    /// The scenes this page owns: created through it, confirmed by the daemon's answer, and not destroyed.
    public private(set) var scenes: Set<String> = []
    /// scene.create requests whose answer has not come: the request's id and the scene it claims. A claimed scene
    /// is not the page's yet: requests naming it are refused until the answer settles the claim.
    private var pendingCreates: [(id: JSONValue, scene: String)] = []
    /// Requests passed to the daemon and not answered yet, by their id (`JSONValue.serialized()`), with how many
    /// carry it. A scene.create's id must not be one of them, and no request may share a pending create's id, so the
    /// answer carrying that id is the create's own.
    private var unanswered: [String: Int] = [:]

    public init() {}

    public enum Admission: Equatable, Sendable {
        /// Send this line to the daemon.
        case forward(String)
        /// Answer the page with this line instead (a JSON-RPC error response).
        case refuse(String)
        /// Answer the page with this line (a response the studio makes itself).
        case answer(String)
        /// Nothing to send anywhere (a notification the studio answers itself).
        case drop
    }

    /// A refusal, as it is built before its id is known.
    private struct Refusal: Error {
        let code: Int
        let message: String
        var param: String?
    }

    /// Reads one message from the page.
    public mutating func admit(_ text: String) -> Admission {
        let bytes = Array(text.utf8)
        let message: JSONValue
        do throws(JSONParseError) {
            message = try JSONParser.parse(bytes: bytes)
        } catch {
            message = .null
            if !RelayPolicy.hasLineBreak(bytes) {
                return .refuse(RelayPolicy.error(idText: "null", code: -32700, "parse error: \(error)"))
            }
        }
        // The id as the page wrote it, so that an answer from the studio carries `9007199254740993` and not the
        // double nearest to it.
        let idText = message.objectValue == nil ? "null" : RelayPolicy.idText(bytes) ?? "null"
        // A raw line break is whitespace to JSON but ends a line for the daemon: the text after it would be read
        // as another request, one this policy never saw. Refused whatever else the message holds.
        if RelayPolicy.hasLineBreak(bytes) {
            return .refuse(RelayPolicy.error(idText: idText, code: -32600, "raw line break in message",
                                             data: JSONObject([("kind", "invalid_request")])))
        }
        guard case .object(let request) = message else {
            return .refuse(RelayPolicy.error(idText: "null", code: -32600, "the studio relays one request object per message"))
        }
        do throws(Refusal) {
            return try admit(request, idText: idText, text: text)
        } catch {
            var data = JSONObject([("kind", .string(RelayPolicy.kind(error.code)))])
            if let param = error.param { data["param"] = .string(param) }
            return .refuse(RelayPolicy.error(idText: idText, code: error.code, error.message, data: data))
        }
    }

    private mutating func admit(_ request: JSONObject, idText: String, text: String) throws(Refusal) -> Admission {
        let id = request["id"]
        guard let method = request["method"]?.stringValue else {
            throw Refusal(code: -32600, message: "a request needs a method")
        }
        if let id {
            switch id {
            case .string, .number, .null: break
            default: throw Refusal(code: -32600, message: "a request's id is a string, a number or null")
            }
        }
        guard let rule = RelayPolicy.rules[method] else {
            throw Refusal(code: -32601, message: "the studio does not relay '\(method)'")
        }
        switch rule.route {
        case .refused(let why):
            throw Refusal(code: -32601, message: "the studio does not relay '\(method)': \(why)")
        case .answeredByStudio:
            // daemon.info: the page learns the version and API it speaks, and nothing of the daemon's files,
            // socket or process.
            guard id != nil else { return .drop }
            let result = JSONValue.object(JSONObject([
                ("version", .string(SegueVersion.string)), ("api", .number(Double(SegueVersion.api))),
            ]))
            return .answer(#"{"jsonrpc":"2.0","id":\#(idText),"result":\#(result.serialized())}"#)
        case .relayed:
            break
        }
        let params = request["params"]?.objectValue
        // The id's key among the unanswered requests (nil: no answer is coming, or none the studio could match).
        let key: String? = id.flatMap { $0 == .null ? nil : $0.serialized() }
        if let key, let pending = pendingCreates.first(where: { $0.id.serialized() == key }) {
            throw Refusal(code: -32600, message: "id \(key) is the id of the pending scene.create of "
                + "'\(pending.scene)': use another id until it is answered")
        }
        if let claim = rule.claim {
            guard let scene = RelayPolicy.field(claim, of: params)?.stringValue, scene.hasPrefix(RelayPolicy.scenePrefix)
            else {
                throw Refusal(code: -32602, message: "a studio scene needs an id starting with '\(RelayPolicy.scenePrefix)'",
                              param: claim.joined(separator: "."))
            }
            try checkNotPending(scene, param: claim.joined(separator: "."))
            // Its answer settles the claim, so it must have one that can be told from every other answer.
            guard let id, let key else {
                throw Refusal(code: -32600, message: "scene.create through the studio needs a string or number id")
            }
            guard unanswered[key] == nil else {
                throw Refusal(code: -32600, message: "scene.create through the studio needs an id no unanswered "
                    + "request has (\(key) has one)")
            }
            if !scenes.contains(scene) { pendingCreates.append((id, scene)) }
        }
        for (i, path) in rule.sceneFields.enumerated() {
            let param = path.joined(separator: ".")
            guard let value = RelayPolicy.field(path, of: params) else {
                if i == 0, rule.needsScene {
                    throw Refusal(code: -32602, message: "'\(method)' through the studio needs 'scene'", param: param)
                }
                continue
            }
            guard let name = value.stringValue else {
                throw Refusal(code: -32602, message: "the studio only drives scenes this page created", param: param)
            }
            try checkNotPending(name, param: param)
            guard scenes.contains(name) else {
                throw Refusal(code: -32602, message: "the studio only drives scenes this page created", param: param)
            }
        }
        if rule.releases, let name = rule.sceneFields.first.flatMap({ RelayPolicy.field($0, of: params) })?.stringValue {
            scenes.remove(name)
        }
        if let key { unanswered[key, default: 0] += 1 }
        return .forward(text)
    }

    /// Refuses a request naming a scene whose scene.create has no answer yet.
    private func checkNotPending(_ scene: String, param: String) throws(Refusal) {
        guard let pending = pendingCreates.first(where: { $0.scene == scene }) else { return }
        throw Refusal(code: -32002, message: "scene '\(scene)' is claimed by the pending scene.create (id "
            + "\(pending.id.serialized())): it is this page's only once the daemon's answer confirms it", param: "scene")
    }

    /// A raw CR or LF byte: the daemon reads either as the end of a line.
    static func hasLineBreak(_ bytes: [UInt8]) -> Bool {
        bytes.contains(0x0A) || bytes.contains(0x0D)
    }

    /// The value at `path` inside `params`, if every member on the way is there.
    static func field(_ path: [String], of params: JSONObject?) -> JSONValue? {
        var value: JSONValue? = params.map { .object($0) }
        for name in path { value = value?.objectValue?[name] }
        return value
    }

    /// Forgets every scene (the daemon restarted: they are gone, and so are the answers owed).
    public mutating func forgetScenes() {
        scenes.removeAll()
        pendingCreates.removeAll()
        unanswered.removeAll()
    }

    /// The scenes claimed by a scene.create with no answer yet.
    public var pendingScenes: [String] { pendingCreates.map(\.scene) }

    /// A line from the daemon, on its way to the page: a response settles its id, and the answer to a pending
    /// scene.create settles the claim — a result makes the scene the page's, an error drops it. Only the id at the
    /// head of a response is read (events and pictures are not parsed). Returns the scene the line's answer made the
    /// page's, if it confirmed a scene.create.
    @discardableResult
    public mutating func daemonSaid(_ line: String) -> String? {
        guard !unanswered.isEmpty || !pendingCreates.isEmpty else { return nil }
        let head = #"{"jsonrpc":"2.0","id":"#
        guard line.utf8.starts(with: head.utf8) else { return nil }
        var text = line
        let answer: (id: JSONValue, failed: Bool)? = text.withUTF8 { bytes in
            guard let (id, end) = try? JSONParser.parseValue(in: bytes, at: head.utf8.count, depth: 1) else {
                return nil
            }
            return (id, UnsafeBufferPointer(rebasing: bytes[end...]).starts(with: #","error""#.utf8))
        }
        guard let answer else { return nil }
        let key = answer.id.serialized()
        if let count = unanswered[key] { unanswered[key] = count > 1 ? count - 1 : nil }
        guard let i = pendingCreates.firstIndex(where: { $0.id.serialized() == key }) else { return nil }
        let scene = pendingCreates.remove(at: i).scene
        guard !answer.failed else { return nil }
        scenes.insert(scene)
        return scene
    }

    /// The text of the top-level `id` member of a request the parser accepted, as written (the last one, as the
    /// parser reads a repeated key); nil when there is none.
    static func idText(_ bytes: [UInt8]) -> String? {
        bytes.withUnsafeBufferPointer { bytes -> String? in
            func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D }
            var i = 0
            while i < bytes.count, isSpace(bytes[i]) { i += 1 }
            guard i < bytes.count, bytes[i] == UInt8(ascii: "{") else { return nil }
            i += 1
            var found: String?
            while true {
                while i < bytes.count, isSpace(bytes[i]) { i += 1 }
                guard i < bytes.count, bytes[i] == UInt8(ascii: "\"") else { return found }
                guard let (key, keyEnd) = try? JSONParser.parseValue(in: bytes, at: i, depth: 1) else { return found }
                i = keyEnd
                while i < bytes.count, isSpace(bytes[i]) { i += 1 }
                guard i < bytes.count, bytes[i] == UInt8(ascii: ":") else { return found }
                i += 1
                while i < bytes.count, isSpace(bytes[i]) { i += 1 }
                guard let (_, end) = try? JSONParser.parseValue(in: bytes, at: i, depth: 1) else { return found }
                if key == "id" { found = String(decoding: UnsafeBufferPointer(rebasing: bytes[i..<end]), as: UTF8.self) }
                i = end
                while i < bytes.count, isSpace(bytes[i]) { i += 1 }
                guard i < bytes.count, bytes[i] == UInt8(ascii: ",") else { return found }
                i += 1
            }
        }
    }

    /// `error.data.kind` for the codes the studio answers with (the daemon's own names, docs/PROTOCOL.md).
    static func kind(_ code: Int) -> String {
        switch code {
        case -32700: "parse_error"
        case -32600: "invalid_request"
        case -32601: "method_not_found"
        case -32602: "invalid_params"
        case -32002: "invalid_state"
        default: "internal_error"
        }
    }

    /// A JSON-RPC error response, as one line.
    public static func error(id: JSONValue, code: Int, _ message: String) -> String {
        error(idText: id.serialized(), code: code, message)
    }

    /// A JSON-RPC error response carrying the id as the page wrote it, as one line.
    static func error(idText: String, code: Int, _ message: String, data: JSONObject? = nil) -> String {
        var error = JSONObject([("code", .number(Double(code))), ("message", .string(message))])
        if let data { error["data"] = .object(data) }
        return #"{"jsonrpc":"2.0","id":\#(idText),"error":\#(JSONValue.object(error).serialized())}"#
    }

    /// A notification from the studio itself (`studio.daemon`, …), as one line.
    public static func notification(_ method: String, _ params: JSONObject) -> String {
        JSONValue.object(JSONObject([("jsonrpc", "2.0"), ("method", .string(method)), ("params", .object(params))]))
            .serialized()
    }
}
