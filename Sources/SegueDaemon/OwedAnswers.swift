import SegueJSON

/// The answers the daemon owes and has not given yet (`Waiter`s: pending transition.wait and plugins.check
/// requests), oldest first, at most `limit` at once. It answers them — alone, or in their batch's slot — and keeps
/// each connection's count of answers owed (`ClientConnection.owedAnswers`), so a connection that shut down its
/// sending side knows without asking whether it must stay open. Part of dispatch; loop-confined.
final class OwedAnswers {
    /// Every waiter by its number (numbers grow: their order is the order the answers were owed in). Read by every
    /// event the engine emits (`Daemon.emit`: is any answer owed?), on the loop only.
    private var byNumber: [Int: Waiter] = [:]
    /// The transition.wait waiters per transition, oldest first: a transition's end finds its own waiters without
    /// looking at anyone else's (with a wait out on each of 10 000 scenes, a scan per end was quadratic).
    private var byTransition: [TransitionKey: [Waiter]] = [:]
    private var nextNumber = 0
    /// Most answers owed at once; tests lower it.
    var limit = 65_536

    private struct TransitionKey: Hashable {
        let scene: String
        let transition: String
    }

    /// The waiters, oldest first.
    var waiters: [Waiter] { byNumber.values.sorted { $0.number < $1.number } }
    var count: Int { byNumber.count }
    var isEmpty: Bool { byNumber.isEmpty }

    /// Refuses a request that would owe one answer more than `limit` (transition.wait and plugins.check alike).
    func checkRoom(_ method: String) throws(RPCError) {
        guard byNumber.count < limit else { throw .limit("too many \(method) requests pending", limit: limit) }
    }

    /// A new answer owed to `connection` (numbered, and kept until it is answered or dropped).
    func add(scene: String, transition: String, connection: ClientConnection, id: RequestID) -> Waiter {
        nextNumber += 1
        let waiter = Waiter(number: nextNumber, scene: scene, transition: transition, connection: connection, id: id)
        byNumber[waiter.number] = waiter
        if !waiter.isCheck { byTransition[TransitionKey(scene: scene, transition: transition), default: []].append(waiter) }
        connection.owedAnswers += 1
        return waiter
    }

    func contains(_ waiter: Waiter) -> Bool { byNumber[waiter.number] === waiter }

    /// Takes the waiter out (it is about to be answered).
    func remove(_ waiter: Waiter) {
        guard contains(waiter) else { return }
        take(waiter)
    }

    /// Takes out the waiter numbered `number`, if it is still owed.
    func remove(number: Int) -> Waiter? {
        guard let waiter = byNumber[number] else { return nil }
        take(waiter)
        return waiter
    }

    /// Takes out every waiter `matching` says, oldest first.
    func removeAll(where matching: (Waiter) -> Bool) -> [Waiter] {
        guard !byNumber.isEmpty else { return [] }
        let taken = byNumber.values.filter(matching).sorted { $0.number < $1.number }
        for waiter in taken { take(waiter) }
        return taken
    }

    /// Out of both indexes, and off its connection's count.
    private func take(_ waiter: Waiter) {
        byNumber[waiter.number] = nil
        if !waiter.isCheck {
            let key = TransitionKey(scene: waiter.scene, transition: waiter.transition)
            if var list = byTransition[key] {
                list.removeAll { $0 === waiter }
                byTransition[key] = list.isEmpty ? nil : list
            }
        }
        waiter.connection.owedAnswers -= 1
    }

    /// A transition ended (its `transition.completed` event): answer everyone waiting for it, oldest first.
    func transitionEnded(scene: String?, transition: String?, completed: Bool) {
        guard !byTransition.isEmpty, let scene, let transition,
            let list = byTransition.removeValue(forKey: TransitionKey(scene: scene, transition: transition))
        else { return }
        let state: JSONValue = .string(completed ? "completed" : "cancelled")
        for waiter in list {
            byNumber[waiter.number] = nil
            waiter.connection.owedAnswers -= 1
        }
        for waiter in list { answer(waiter, .object(JSONObject([("ended", true), ("state", state)]))) }
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
