import SegueJSON
import SegueKit

/// A `transition.wait` not answered yet: answered when its transition ends, or when its wall-clock timeout passes.
/// A `plugins.check` running case by case holds one too, with an empty scene and transition (no scene has an empty
/// id, so no transition's end answers it): a batch and a half-closed connection wait for it alike, and a
/// connection that goes away drops it, which stops the check.
final class Waiter {
    let number: Int
    let scene: String
    let transition: String
    let connection: ClientConnection
    let id: RequestID
    /// Set when the request is part of a batch: the batch is answered once every member is done.
    var batch: PendingBatch?
    var slot = 0

    init(number: Int, scene: String, transition: String, connection: ClientConnection, id: RequestID) {
        self.number = number
        self.scene = scene
        self.transition = transition
        self.connection = connection
        self.id = id
    }
}

/// A batch holding a `transition.wait` that has not ended: its other responses wait with it.
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

/// What a `transition.wait` handler leaves for `handleRequest`: wait for this transition.
struct DeferredWait {
    let scene: String
    let transition: String
    let timeoutMs: Int?
}

extension Daemon {
    /// transition.wait {transition, timeout_ms?}: `{ended: true, state}` at once when the transition has ended;
    /// otherwise the answer comes when it ends (or `{ended: false, state}` after `timeout_ms` of wall time) while
    /// the requests after it go on being answered.
    func transitionWait(_ p: Params, _ c: ClientConnection) throws(RPCError) -> JSONValue {
        let scene = try scene(p, c)
        let id = try p.requiredID("transition")
        let timeout = try p.int("timeout_ms", in: 0...86_400_000)
        try p.finish()
        guard let state = transitionState(scene, id) else { throw .notFound("transition", id, param: "transition") }
        if state == "completed" || state == "cancelled" {
            return .object(JSONObject([("ended", true), ("state", .string(state))]))
        }
        if timeout == 0 { return .object(JSONObject([("ended", false), ("state", .string(state))])) }
        try checkRoomForWaiter("transition.wait")
        deferredWait = DeferredWait(scene: scene.id, transition: id, timeoutMs: timeout)
        return .null
    }

    func transitionState(_ scene: Scene, _ id: String) -> String? {
        scene.transitionState(id)?.rawValue
    }

    /// Registers the wait the handler asked for; nil response now. `batch` is set for a member of a batch.
    func registerWait(_ wait: DeferredWait, connection: ClientConnection, id: RequestID) -> Waiter {
        let waiter = addWaiter(scene: wait.scene, transition: wait.transition, connection: connection, id: id)
        if let timeout = wait.timeoutMs, let schedule = scheduleAfter {
            let number = waiter.number
            schedule(Int64(timeout) * 1_000_000) { [weak self] in self?.timeOut(waiter: number) }
        }
        return waiter
    }

    /// Refuses a request that would owe one answer more than `maxWaiters` (transition.wait and plugins.check
    /// alike: both hold a waiter until they answer).
    func checkRoomForWaiter(_ method: String) throws(RPCError) {
        guard waiters.count < maxWaiters else { throw .limit("too many \(method) requests pending", limit: maxWaiters) }
    }

    /// A new waiter for an answer owed to `connection` (numbered, and kept until it is answered or dropped).
    func addWaiter(scene: String, transition: String, connection: ClientConnection, id: RequestID) -> Waiter {
        nextWaiterNumber += 1
        let waiter = Waiter(number: nextWaiterNumber, scene: scene, transition: transition, connection: connection,
                            id: id)
        waiters.append(waiter)
        return waiter
    }

    func timeOut(waiter number: Int) {
        guard let i = waiters.firstIndex(where: { $0.number == number }) else { return }
        let waiter = waiters.remove(at: i)
        let state = scenes[waiter.scene].flatMap { transitionState($0, waiter.transition) } ?? "unknown"
        answer(waiter, .object(JSONObject([("ended", false), ("state", .string(state))])))
        flushAll()
    }

    /// A transition ended (its `transition.completed` event): answer everyone waiting for it.
    func transitionEnded(scene: String?, transition: String?, completed: Bool) {
        guard !waiters.isEmpty, let scene, let transition else { return }
        let done = waiters.filter { $0.scene == scene && $0.transition == transition }
        guard !done.isEmpty else { return }
        waiters.removeAll { $0.scene == scene && $0.transition == transition }
        for waiter in done {
            answer(waiter, .object(JSONObject([("ended", true), ("state", .string(completed ? "completed" : "cancelled"))])))
        }
    }

    func answer(_ waiter: Waiter, _ result: JSONValue) {
        send(Daemon.response(id: waiter.id, result: result), to: waiter)
    }

    func answer(_ waiter: Waiter, error: RPCError) {
        send(Daemon.response(id: waiter.id, error: error), to: waiter)
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

    /// True while a transition.wait of the connection is not answered yet.
    func hasPendingWaits(_ connection: ClientConnection) -> Bool {
        !waiters.isEmpty && waiters.contains { $0.connection === connection }
    }

    /// A connection went away: its waits go with it.
    func dropWaiters(of connection: ClientConnection) {
        waiters.removeAll { $0.connection === connection }
    }
}
