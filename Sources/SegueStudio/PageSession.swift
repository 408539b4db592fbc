import NIOCore
import SegueJSON

/// One open page: its WebSocket on one side, its own connection to the daemon on the other. Messages from the page
/// go through the `RelayPolicy`; every line from the daemon (responses and the events the page subscribed to) goes
/// to the page as it is. The studio adds one notification of its own, `studio.daemon {connected, session}`, when
/// the daemon connection is made, lost (a restart) and made again — or cannot be made at first (`connected: false`,
/// `session: 0`); the page then rebuilds its scene.
final class PageSession {
    private var policy = RelayPolicy()
    private let link: DaemonLink
    private let send: (String) -> Void
    private var sessions = 0
    /// The page went away; the connection stays only until pending scene.creates are answered.
    private var closing = false
    /// How long a closed page's connection waits for the answers to its pending scene.creates.
    static let closingWait = TimeAmount.seconds(5)

    /// `send` writes one text message to the page.
    init(link: DaemonLink, send: @escaping (String) -> Void) {
        self.link = link
        self.send = send
        link.onLine = { [weak self] line in
            self?.policy.daemonSaid(line)
            self?.send(line)
        }
        link.onState = { [weak self] connected in self?.daemonState(connected) }
    }

    func start() { link.start() }

    /// The page went away: its scenes are destroyed (a page reload would otherwise leave them in the daemon), then
    /// its daemon connection closes. A scene.create still unanswered keeps the connection open until its answer
    /// (at most `closingWait`): a result makes the scene the page's, and it is destroyed too; an error (the id was
    /// another page's) leaves it alone.
    func close() {
        guard !closing else { return }
        closing = true
        var destroyed = 0
        func destroyLines(_ scenes: [String]) -> [String] {
            scenes.map { scene in
                defer { destroyed += 1 }
                return JSONValue.object(JSONObject([
                    ("jsonrpc", "2.0"), ("id", .string("studio-close-\(destroyed)")), ("method", "scene.destroy"),
                    ("params", .object(JSONObject([("scene", .string(scene))]))),
                ])).serialized()
            }
        }
        let lines = destroyLines(policy.scenes.sorted())
        guard !policy.pendingScenes.isEmpty else {
            link.stop(sending: lines)
            return
        }
        for line in lines { link.send(line) }
        // The link holds this session strongly until it stops (the page's handler may let go of it now).
        let link = self.link
        let finish = { [self] in
            link.stop()
            link.onLine = { _ in }
            link.onState = { _ in }
        }
        link.onLine = { [self] line in
            if let confirmed = policy.daemonSaid(line) { for destroy in destroyLines([confirmed]) { link.send(destroy) } }
            if policy.pendingScenes.isEmpty { finish() }
        }
        // A daemon that went away took the scenes with it.
        link.onState = { connected in if !connected { finish() } }
        link.eventLoop.scheduleTask(in: PageSession.closingWait) { finish() }
    }

    /// A text message from the page.
    func received(_ text: String) {
        guard !closing else { return }
        switch policy.admit(text) {
        case .refuse(let answer), .answer(let answer):
            send(answer)
        case .drop:
            break
        case .forward(let line):
            guard link.send(line) else {
                send(RelayPolicy.error(idText: RelayPolicy.idText(Array(text.utf8)) ?? "null", code: -32000,
                                       "the daemon is not connected; the studio is reconnecting"))
                return
            }
        }
    }

    /// Answers the page with a line of the studio's own (a message refused before the policy could read it).
    func refuse(_ line: String) { send(line) }

    private func daemonState(_ connected: Bool) {
        if connected {
            sessions += 1
        } else {
            policy.forgetScenes()
        }
        send(RelayPolicy.notification("studio.daemon", JSONObject([
            ("connected", .bool(connected)), ("session", .number(Double(sessions))), ("socket", .string(link.socketPath)),
        ])))
    }
}
