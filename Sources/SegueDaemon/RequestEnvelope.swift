import SegueJSON

/// A request that passed the JSON-RPC envelope checks: its id (nil: a notification), the method it calls and its
/// named parameters.
///
/// Two ways lead here and must agree: `scan` reads a plain request straight from the line's bytes (the fast path,
/// RequestEnvelope+Scan.swift), and `check` takes a request already parsed into a JSONValue (a batch member, or any
/// line `scan` leaves alone) and also says why a request is refused.
struct RequestEnvelope: Equatable {
    /// The method a request names: its number in the method table, or a name the table does not have.
    enum Method: Equatable {
        case known(Int)
        case unknown(String)
    }

    let id: RequestID?
    let method: Method
    let params: JSONObject
    /// The id packed in a word for the loop's activity record (`LoopActivity`): made once, by the scan from the
    /// line's bytes when it can.
    let packedID: PackedID

    init(id: RequestID?, method: Method, params: JSONObject, packedID: PackedID? = nil) {
        self.id = id
        self.method = method
        self.params = params
        self.packedID = packedID ?? PackedID(id) ?? .long
    }

    /// Checks a parsed request's envelope, in the order the errors are reported: the id, `jsonrpc`, `method`,
    /// members JSON-RPC does not define, then `params`. `idText` is a number id's text on the line (`idTexts`), so
    /// the answer carries it as sent.
    static func check(_ value: JSONValue, idText: String? = nil, methods: MethodTable)
        throws(EnvelopeRefusal) -> RequestEnvelope
    {
        guard case .object(let request) = value else {
            throw EnvelopeRefusal(id: .null, error: .invalidRequest("a request must be an object"))
        }
        var id: RequestID?
        if let given = request["id"] {
            if case .string(let s) = given, s.utf8.count > 256 {
                throw EnvelopeRefusal(id: .null, error: .invalidRequest("'id' is longer than 256 bytes"))
            }
            guard let valid = RequestID(given, text: idText) else {
                throw EnvelopeRefusal(id: .null, error: .invalidRequest("'id' must be a string, a number or null"))
            }
            id = valid
        }
        let responseID = id ?? .null
        guard request["jsonrpc"] == .string("2.0") else {
            throw EnvelopeRefusal(id: responseID, error: .invalidRequest("'jsonrpc' must be \"2.0\""))
        }
        guard let name = request["method"]?.stringValue else {
            throw EnvelopeRefusal(id: responseID, error: .invalidRequest("'method' must be a string"))
        }
        if request.count > 4 || (request.count == 4 && request["params"] == nil) {
            for (key, _) in request where !["jsonrpc", "method", "params", "id"].contains(key) {
                throw EnvelopeRefusal(id: responseID, error: .invalidRequest("unknown member '\(key)'"))
            }
        }
        let params: JSONObject
        switch request["params"] {
        case nil: params = JSONObject()
        case .object(let o)?: params = o
        case .array?:
            let error = RPCError.invalidParams("params", "params must be an object (parameters are given by name)")
            throw EnvelopeRefusal(id: responseID, error: error, answered: id != nil)
        default:
            throw EnvelopeRefusal(id: responseID, error: .invalidRequest("'params' must be an object"))
        }
        let method = methods.number(of: name).map(Method.known) ?? .unknown(name)
        return RequestEnvelope(id: id, method: method, params: params)
    }
}

/// Why a request never reached a method: the error, the id to answer with, and whether it is answered at all (a
/// notification with positional params is counted but gets no answer).
struct EnvelopeRefusal: Error {
    let id: RequestID
    let error: RPCError
    var answered = true
}
