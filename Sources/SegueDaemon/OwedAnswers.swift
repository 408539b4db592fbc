import SegueJSON

/// The answers the daemon owes and has not given yet (`Waiter`s: pending transition.wait and plugins.check
/// requests), oldest first, at most `limit` at once. It answers them — alone, or in their batch's slot — and keeps
/// each connection's count of answers owed (`ClientConnection.owedAnswers`), so a connection that shut down its
/// sending side knows without asking whether it must stay open. Part of dispatch; loop-confined.
final class OwedAnswers {
    private(set) var waiters: [Waiter] = []
    private var nextNumber = 0
    /// Most answers owed at once; tests lower it.
    var limit = 65_536

    var count: Int { waiters.count }
    var isEmpty: Bool { waiters.isEmpty }

    /// Refuses a request that would owe one answer more than `limit` (transition.wait and plugins.check alike).
    func checkRoom(_ method: String) throws(RPCError) {
        guard waiters.count < limit else { throw .limit("too many \(method) requests pending", limit: limit) }
    }

    /// A new answer owed to `connection` (numbered, and kept until it is answered or dropped).
    func add(scene: String, transition: String, connection: ClientConnection, id: RequestID) -> Waiter {
        nextNumber += 1
        let waiter = Waiter(number: nextNumber, scene: scene, transition: transition, connection: connection, id: id)
        waiters.append(waiter)
        connection.owedAnswers += 1
        return waiter
    }

    func contains(_ waiter: Waiter) -> Bool { waiters.contains { $0 === waiter } }

    /// Takes the waiter out (it is about to be answered).
    func remove(_ waiter: Waiter) {
        guard let i = waiters.firstIndex(where: { $0 === waiter }) else { return }
        waiters.remove(at: i).connection.owedAnswers -= 1
    }

    /// Takes out the waiter numbered `number`, if it is still owed.
    func remove(number: Int) -> Waiter? {
        guard let i = waiters.firstIndex(where: { $0.number == number }) else { return nil }
        let waiter = waiters.remove(at: i)
        waiter.connection.owedAnswers -= 1
        return waiter
    }

    /// Takes out every waiter `matching` says, oldest first.
    func removeAll(where matching: (Waiter) -> Bool) -> [Waiter] {
        guard !waiters.isEmpty else { return [] }
        let taken = waiters.filter(matching)
        guard !taken.isEmpty else { return [] }
        waiters.removeAll(where: matching)
        for waiter in taken { waiter.connection.owedAnswers -= 1 }
        return taken
    }

    /// A transition ended (its `transition.completed` event): answer everyone waiting for it.
    func transitionEnded(scene: String?, transition: String?, completed: Bool) {
        guard !waiters.isEmpty, let scene, let transition else { return }
        let state: JSONValue = .string(completed ? "completed" : "cancelled")
        for waiter in removeAll(where: { $0.scene == scene && $0.transition == transition }) {
            answer(waiter, .object(JSONObject([("ended", true), ("state", state)])))
        }
    }

    /// A connection went away: the answers it was owed go with it.
    func drop(of connection: ClientConnection) {
        _ = removeAll { $0.connection === connection }
    }

    func answer(_ waiter: Waiter, _ result: JSONValue) {
        send(Dispatcher.response(id: waiter.id, result: result), to: waiter)
    }

    func answer(_ waiter: Waiter, error: RPCError) {
        send(Dispatcher.response(id: waiter.id, error: error), to: waiter)
    }

    /// A waiter's response line: alone, or in its batch's slot (the batch goes once every member is answered).
    private func send(_ line: String, to waiter: Waiter) {
        if let batch = waiter.batch {
            batch.slots[waiter.slot] = line
            batch.remaining -= 1
            if batch.remaining == 0 {
                let lines = batch.slots.compactMap { $0 }
                if !lines.isEmpty { batch.connection.send("[" + lines.joined(separator: ",") + "]") }
            }
        } else {
            waiter.connection.send(line)
        }
    }
}
