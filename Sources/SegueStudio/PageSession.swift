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
    /// its daemon connection closes.
    func close() {
        let lines = policy.scenes.sorted().enumerated().map { i, scene in
            JSONValue.object(JSONObject([
                ("jsonrpc", "2.0"), ("id", .string("studio-close-\(i)")), ("method", "scene.destroy"),
                ("params", .object(JSONObject([("scene", .string(scene))]))),
            ])).serialized()
        }
        link.stop(sending: lines)
    }

    /// A text message from the page.
    func received(_ text: String) {
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
