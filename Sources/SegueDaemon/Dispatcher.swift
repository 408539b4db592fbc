import SegueJSON
import SegueKit
import SegueLua

/// JSON-RPC dispatch: a request line in, its response out. It reads the envelope (`RequestEnvelope`, straight from
/// the bytes when it can), finds the method in the table, hands the parameters to the handler declared beside the
/// method's descriptor (`Daemon.methods`), records the latency (`RequestStats`) and writes the response; it runs
/// batches, and keeps the answers owed for later (`OwedAnswers`: transition.wait, plugins.check).
///
/// Handlers get the daemon (the composition: scenes, plugins, event bus) and change what they must; the events they
/// cause are queued (`EventQueue`) and delivered to their connections once the handler has returned, before the
/// response is written. Loop-confined, like the daemon.
final class Dispatcher {
    /// The method table, held here so the request path reads it without a global's once-check.
    let methodTable = Daemon.methodTable
    /// The request being served and the plugin function running, for the stall detector's report.
    let activity = LoopActivity(names: Daemon.methodTable.names)
    /// Answers owed for later.
    let owed = OwedAnswers()
    /// Every request records itself here. Its exclusivity is not checked at run time, nor that of the other state
    /// every request touches (`deferred`, `responseBytes`, `spareParams`): dispatch runs on the daemon's one event
    /// loop (`LoopConfinement`), no access to them overlaps another, and the checks were a tenth of a daemon.ping's
    /// instructions.
    @exclusivity(unchecked) var stats = RequestStats(methodCount: Daemon.methodTable.count)
    /// Set by a handler whose answer comes later (transition.wait, plugins.check), for `dispatch` to pick up.
    @exclusivity(unchecked) var deferred: DeferredAnswer?
    /// The bytes of the response being written, kept so every request reuses their storage.
    @exclusivity(unchecked) private var responseBytes = JSONOutput(capacity: 256)
    /// The Params handed to methods, reused from one request to the next (`params(for:)`).
    @exclusivity(unchecked) private var spareParams = Params(JSONObject())
    /// The waiter the last request registered (for batches to collect).
    private var lastWaiter: Waiter?

    /// Handles one line from a connection. Returns the response line, or nil when there is nothing to answer
    /// (notifications only, or an answer owed for later). Events the request caused have been queued on their
    /// connections before it returns.
    func handle(line bytes: UnsafeBufferPointer<UInt8>, from connection: ClientConnection, daemon: Daemon) -> String? {
        serve(line: bytes, from: connection, daemon: daemon) ? responseBytes.string : nil
    }

    /// Handles one line from a connection and leaves its response line in `responseBytes` (true), for
    /// `sendResponse(to:)` — or false when there is nothing to answer. The socket's path: no `String` is made of
    /// the response (its allocation, UTF-8 check and free were a tenth of a daemon.ping).
    func serve(line bytes: UnsafeBufferPointer<UInt8>, from connection: ClientConnection, daemon: Daemon) -> Bool {
        // A plain request, or a batch of them, is read straight from its bytes; every other line (anything to
        // refuse, escapes, repeated members) is parsed whole and checked below.
        if let request = RequestEnvelope.scan(bytes, methods: methodTable) {
            return dispatch(request, from: connection, daemon: daemon)
        }
        if let requests = RequestEnvelope.scanBatch(bytes, methods: methodTable) {
            return handleBatch(of: requests.count, from: connection) {
                dispatch(requests[$0], from: connection, daemon: daemon)
            }
        }
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(bytes: bytes)
        } catch {
            stats.recordError(code: -32700)
            return respond(id: .null, error: .parse(error))
        }
        // Number ids keep their text (the parser gives Doubles): looked up on the line only when there is one.
        switch value {
        case .array(let elements):
            guard !elements.isEmpty else {
                stats.recordError(code: -32600)
                return respond(id: .null, error: .invalidRequest("an empty batch"))
            }
            let texts = elements.contains { $0["id"]?.doubleValue != nil } ? RequestEnvelope.idTexts(in: bytes) : []
            return handleBatch(of: elements.count, from: connection) {
                handleRequest(elements[$0], idText: $0 < texts.count ? texts[$0] : nil, from: connection,
                              daemon: daemon)
            }
        default:
            let text = value["id"]?.doubleValue != nil ? RequestEnvelope.idTexts(in: bytes).first ?? nil : nil
            return handleRequest(value, idText: text, from: connection, daemon: daemon)
        }
    }

    /// Queues the response `serve` left in `responseBytes` on `connection`.
    func sendResponse(to connection: ClientConnection) {
        responseBytes.withBytes { connection.send(bytes: $0) }
    }

    /// Runs a batch's members in order (`member(i)` answers member i in `responseBytes`, or says it has no answer)
    /// and answers them together, in `responseBytes`.
    private func handleBatch(of count: Int, from connection: ClientConnection, member: (Int) -> Bool) -> Bool {
        var slots: [String?] = []
        slots.reserveCapacity(count)
        var pending: [Waiter] = []
        for i in 0..<count {
            // Only a waiter this member registers is the batch's: one left by an earlier plain request (a
            // transition.wait still pending, on any connection, or a check long answered) is not.
            lastWaiter = nil
            slots.append(member(i) ? responseBytes.string : nil)
            if let waiter = lastWaiter {
                waiter.slot = slots.count - 1
                pending.append(waiter)
                lastWaiter = nil
            }
        }
        if !pending.isEmpty {
            // A transition.wait in the batch has not ended: the whole batch is answered when it has.
            let batch = PendingBatch(connection: connection, slots: slots, remaining: pending.count)
            for waiter in pending { waiter.batch = batch }
            return false
        }
        responseBytes.removeAll()
        for case var response? in slots {
            responseBytes.append(responseBytes.count == 0 ? UInt8(ascii: "[") : UInt8(ascii: ","))
            response.withUTF8 { responseBytes.append($0) }
        }
        guard responseBytes.count > 0 else { return false }
        responseBytes.append(UInt8(ascii: "]"))
        return true
    }

    private func handleRequest(_ value: JSONValue, idText: String?, from connection: ClientConnection,
                               daemon: Daemon) -> Bool
    {
        let request: RequestEnvelope
        do throws(EnvelopeRefusal) {
            request = try RequestEnvelope.check(value, idText: idText, methods: methodTable)
        } catch {
            stats.recordError(code: error.error.code)
            return error.answered ? respond(id: error.id, error: error.error) : false
        }
        return dispatch(request, from: connection, daemon: daemon)
    }

    /// Runs a request whose envelope passed the checks, records its latency and writes its answer in
    /// `responseBytes` (false: none, a notification or an answer owed for later).
    private func dispatch(_ request: RequestEnvelope, from connection: ClientConnection, daemon: Daemon) -> Bool {
        let started = FileSystem.monotonicNanoseconds()
        // The handler's answer or its error, kept apart rather than in a `Result` (whose destroy went through the
        // generic value witnesses on every request).
        var value: MethodResult?
        var failure: RPCError?
        let number: Int?
        switch request.method {
        case .known(let n):
            number = n
            activity.serving(method: n, packed: request.packedID, id: request.id)
            if daemon.state == .draining || daemon.state == .stopped {
                failure = .shuttingDown
            } else {
                do throws(RPCError) {
                    value = try methodTable.handlers[n](daemon, params(for: request.params), connection)
                } catch {
                    failure = error
                }
            }
            activity.served()
        case .unknown(let name):
            number = nil
            failure = .methodNotFound(name, nearest: NearestName.nearest(to: name, in: methodTable.names))
        }
        // The handler has returned: the events it caused go to their subscribers now, before its response.
        daemon.deliverEvents()
        let elapsed = FileSystem.monotonicNanoseconds() - started
        // A transition.wait or plugins.check that answers later: its response is owed, not written now.
        if let later = deferred {
            deferred = nil
            if failure == nil, let number {
                stats.record(method: number, nanoseconds: elapsed, errorCode: nil)
                if let id = request.id { lastWaiter = owe(later, to: connection, id: id, daemon: daemon) }
                return false
            }
        }
        if let failure {
            // Latency is kept per method of the table only: an unknown name is counted (requests, errors by
            // code) but gets no bucket, so clients cannot grow the stats with made-up method names.
            if let number {
                stats.record(method: number, nanoseconds: elapsed, errorCode: failure.code)
            } else {
                stats.recordError(code: failure.code)
            }
            guard let id = request.id else { return false }
            return respond(id: id, error: failure)
        }
        // Only a method of the table succeeds.
        if let number { stats.record(method: number, nanoseconds: elapsed, errorCode: nil) }
        guard let id = request.id, let value else { return false }
        return respond(id: id, result: value)
    }

    /// Registers an answer a handler deferred.
    private func owe(_ later: DeferredAnswer, to connection: ClientConnection, id: RequestID, daemon: Daemon) -> Waiter {
        switch later {
        case .wait(let scene, let transition, let timeoutMs):
            return daemon.registerWait(scene: scene, transition: transition, timeoutMs: timeoutMs,
                                       connection: connection, id: id)
        case .check(let check):
            return daemon.startCheck(check, connection: connection, id: id)
        }
    }

    /// A Params for a request: the spare one, unless a method kept hold of it (then a new one becomes the spare).
    /// Allocating and freeing one per request was a tenth of a daemon.ping. The spare holds the last request's
    /// parameters until the next request (one line's worth at most).
    func params(for object: JSONObject) -> Params {
        if isKnownUniquelyReferenced(&spareParams) {
            spareParams.reset(to: object)
        } else {
            spareParams = Params(object)
        }
        return spareParams
    }

    // MARK: Responses

    /// Writes a response line in `responseBytes` (whose storage every request reuses); true, for the callers'
    /// "there is an answer".
    private func respond(id: RequestID, result: MethodResult) -> Bool {
        responseBytes.removeAll()
        Dispatcher.writeResponse(id: id, result: result, to: &responseBytes)
        return true
    }

    private func respond(id: RequestID, error: RPCError) -> Bool {
        responseBytes.removeAll()
        Dispatcher.writeResponse(id: id, error: error, to: &responseBytes)
        return true
    }

    static func response(id: RequestID, result: JSONValue) -> String {
        var out = JSONOutput()
        writeResponse(id: id, result: result, to: &out)
        return out.string
    }

    static func response(id: RequestID, error: RPCError) -> String {
        var out = JSONOutput(capacity: 256)
        writeResponse(id: id, error: error, to: &out)
        return out.string
    }

    static func writeResponse(id: RequestID, result: MethodResult, to out: inout JSONOutput) {
        out.append(#"{"jsonrpc":"2.0","id":"#)
        id.write(to: &out)
        out.append(#","result":"#)
        result.write(to: &out)
        out.append(UInt8(ascii: "}"))
    }

    static func writeResponse(id: RequestID, result: JSONValue, to out: inout JSONOutput) {
        writeResponse(id: id, result: .value(result), to: &out)
    }

    /// The error object is written member by member: the same text as `error.json`, without building it.
    static func writeResponse(id: RequestID, error: RPCError, to out: inout JSONOutput) {
        out.append(#"{"jsonrpc":"2.0","id":"#)
        id.write(to: &out)
        out.append(#","error":{"code":"#)
        JSONValue.writeNumber(Double(error.code), to: &out)
        out.append(#","message":"#)
        JSONValue.writeString(error.message, to: &out)
        out.append(#","data":"#)
        JSONValue.object(error.data).write(to: &out)
        out.append("}}")
    }
}
