/// How many WebSocket sessions a studio serves at once (`--max-sessions`, default 16): each holds a connection to
/// the daemon, and the daemon's `limits.max_connections` is shared with every other client. Used only on the
/// studio's one event loop (hence `@unchecked Sendable`).
public final class SessionSeats: @unchecked Sendable {
    public static let defaultLimit = 16
    public let limit: Int
    public private(set) var taken = 0

    public init(limit: Int = SessionSeats.defaultLimit) { self.limit = limit }

    /// Takes a seat; false when all are taken.
    func take() -> Bool {
        guard taken < limit else { return false }
        taken += 1
        return true
    }

    func give() { taken = max(0, taken - 1) }
}
