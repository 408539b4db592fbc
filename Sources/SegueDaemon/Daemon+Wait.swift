import SegueJSON
import SegueKit

/// transition.wait: the handler, and the wall-clock timeout of an answer owed (`OwedAnswers` keeps it).
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
        try dispatcher.owed.checkRoom("transition.wait")
        dispatcher.deferred = .wait(scene: scene.id, transition: id, timeoutMs: timeout)
        return .null
    }

    func transitionState(_ scene: Scene, _ id: String) -> String? {
        scene.transitionState(id)?.rawValue
    }

    /// Registers the wait a handler asked for, with its timeout on the loop's clock.
    func registerWait(scene: String, transition: String, timeoutMs: Int?, connection: ClientConnection,
                      id: RequestID) -> Waiter
    {
        let waiter = dispatcher.owed.add(scene: scene, transition: transition, connection: connection, id: id)
        if let timeoutMs, let schedule = scheduleAfter {
            let number = waiter.number
            schedule(Int64(timeoutMs) * 1_000_000) { [weak self] in self?.timeOut(waiter: number) }
        }
        return waiter
    }

    func timeOut(waiter number: Int) {
        confinement.check()
        guard let waiter = dispatcher.owed.remove(number: number) else { return }
        let state = scenes[waiter.scene].flatMap { transitionState($0, waiter.transition) } ?? "unknown"
        dispatcher.owed.answer(waiter, .object(JSONObject([("ended", false), ("state", .string(state))])))
    }

    /// A transition ended (its `transition.completed` event): answer everyone waiting for it.
    func transitionEnded(scene: String?, transition: String?, completed: Bool) {
        dispatcher.owed.transitionEnded(scene: scene, transition: transition, completed: completed)
    }
}
