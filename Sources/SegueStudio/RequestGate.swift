/// Decides whether an HTTP request may reach the studio: it must carry the token (`?token=`), its `Host` must be
/// the studio's own loopback address (`127.0.0.1:PORT` or `localhost:PORT`: a DNS-rebinding page has its own host
/// name there), and its `Origin`, when the browser sends one, the same (another site's page has its own origin).
/// Anything else is refused with 403 before the path is looked at.
public struct RequestGate: Sendable {
    public let token: String
    public let port: Int

    public init(token: String, port: Int) {
        self.token = token
        self.port = port
    }

    public enum Verdict: Equatable, Sendable {
        /// Allowed, with the request's path (no query).
        case allowed(path: String)
        /// Refused (403), and why (for the studio's log; the body says only "forbidden").
        case forbidden(String)
    }

    public func check(uri: String, host: String?, origin: String?) -> Verdict {
        let hosts = ["127.0.0.1:\(port)", "localhost:\(port)"]
        guard let host, hosts.contains(host.lowercased()) else { return .forbidden("Host is not \(hosts[0])") }
        if let origin, !hosts.map({ "http://" + $0 }).contains(origin.lowercased()) {
            return .forbidden("Origin \(origin) is not the studio's")
        }
        let parts = uri.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        let path = String(parts.first ?? "")
        let query = parts.count > 1 ? String(parts[1]) : ""
        var given: String?
        for pair in query.split(separator: "&") where pair.hasPrefix("token=") {
            given = String(pair.dropFirst("token=".count))
        }
        guard let given, StudioToken.matches(given, token) else { return .forbidden("no token, or the wrong one") }
        return .allowed(path: path)
    }
}
