import SegueJSON
import SegueKit

/// A JSON-RPC error: code, message and `data` (at least `{kind}`; `param`, `id`, `limit` where useful).
public struct RPCError: Error, Sendable, Equatable {
    public let code: Int
    public let message: String
    public let data: JSONObject

    public init(code: Int, message: String, kind: String, param: String? = nil, id: String? = nil, limit: Int? = nil) {
        self.code = code
        self.message = message
        var data = JSONObject()  // filled member by member: one allocation where a literal took two
        data["kind"] = .string(kind)
        if let param { data["param"] = .string(param) }
        if let id { data["id"] = .string(id) }
        if let limit { data["limit"] = .number(Double(limit)) }
        self.data = data
    }

    /// An error with its own `data` (which must hold `kind`).
    public init(code: Int, message: String, data: JSONObject) {
        self.code = code
        self.message = message
        self.data = data
    }

    public static func parse(_ message: String) -> RPCError {
        RPCError(code: -32700, message: "parse error: \(message)", kind: "parse_error")
    }

    /// `parse(error.description)`, with the message built in one go.
    public static func parse(_ error: JSONParseError) -> RPCError {
        RPCError(code: -32700, message: "parse error: \(error.message) at byte \(error.offset)", kind: "parse_error")
    }

    public static func invalidRequest(_ message: String) -> RPCError {
        RPCError(code: -32600, message: "invalid request: \(message)", kind: "invalid_request")
    }

    /// -32601, with the nearest method name in `data.did_you_mean` when one is near.
    public static func methodNotFound(_ method: String, nearest: String? = nil) -> RPCError {
        var data = JSONObject()
        data["kind"] = "method_not_found"
        data["method"] = .string(method)
        guard let nearest else { return RPCError(code: -32601, message: "method not found: \(method)", data: data) }
        data["did_you_mean"] = .string(nearest)
        return RPCError(code: -32601, message: "method not found: \(method) (did you mean '\(nearest)'?)", data: data)
    }

    public static func invalidParams(_ param: String, _ message: String) -> RPCError {
        RPCError(code: -32602, message: message, kind: "invalid_params", param: param)
    }

    public static func notFound(_ what: String, _ id: String, param: String) -> RPCError {
        RPCError(code: -32001, message: "no \(what) with id '\(id)'", kind: "not_found", param: param, id: id)
    }

    public static func invalidState(_ message: String, param: String? = nil, id: String? = nil) -> RPCError {
        RPCError(code: -32002, message: message, kind: "invalid_state", param: param, id: id)
    }

    public static func limit(_ message: String, limit: Int) -> RPCError {
        RPCError(code: -32004, message: message, kind: "limit_exceeded", limit: limit)
    }

    public static let shuttingDown = RPCError(code: -32005, message: "the daemon is shutting down", kind: "shutting_down")

    public static func internalError(_ message: String) -> RPCError {
        RPCError(code: -32603, message: "internal error: \(message)", kind: "internal_error")
    }

    /// The one place engine error codes become protocol codes. `param` names the parameter at fault when the
    /// engine could not (e.g. `container` for a busy container), unless the engine named one itself.
    /// `limit` is reported with a limit_exceeded error (the engine's errors do not carry it).
    public init(_ error: EngineError, param: String? = nil, limit: Int? = nil) {
        let code: Int
        switch error.code {
        case .invalidParams: code = -32602
        case .notFound: code = -32001
        case .invalidState: code = -32002
        case .pluginError: code = -32003
        case .limitExceeded: code = -32004
        }
        self.init(code: code, message: error.message, kind: error.code.rawValue, param: error.param ?? param, id: error.id,
                  limit: error.code == .limitExceeded ? limit : nil)
    }

    public var json: JSONValue {
        .object(JSONObject([("code", .number(Double(code))), ("message", .string(message)), ("data", .object(data))]))
    }
}
