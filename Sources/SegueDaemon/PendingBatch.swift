/// A batch holding an answer still owed (a `transition.wait` that has not ended, a `plugins.check` still running):
/// its other responses wait with it, and the batch goes out whole.
final class PendingBatch {
    let connection: ClientConnection
    var slots: [String?]
    var remaining: Int

    init(connection: ClientConnection, slots: [String?], remaining: Int) {
        self.connection = connection
        self.slots = slots
        self.remaining = remaining
    }
}
