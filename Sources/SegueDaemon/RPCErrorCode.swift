/// The protocol's error codes (docs/PROTOCOL.md "Errors"), as method descriptors list them.
enum RPCErrorCode: Int, Sendable, CaseIterable {
    case parseError = -32700
    case invalidRequest = -32600
    case methodNotFound = -32601
    case invalidParams = -32602
    case internalError = -32603
    case notFound = -32001
    case invalidState = -32002
    case pluginError = -32003
    case limitExceeded = -32004
    case shuttingDown = -32005

    /// `error.data.kind`.
    var kind: String {
        switch self {
        case .parseError: "parse_error"
        case .invalidRequest: "invalid_request"
        case .methodNotFound: "method_not_found"
        case .invalidParams: "invalid_params"
        case .internalError: "internal_error"
        case .notFound: "not_found"
        case .invalidState: "invalid_state"
        case .pluginError: "plugin_error"
        case .limitExceeded: "limit_exceeded"
        case .shuttingDown: "shutting_down"
        }
    }

    /// When a client gets it, in a few words.
    var meaning: String {
        switch self {
        case .parseError: "the line is not JSON (or not UTF-8)"
        case .invalidRequest: "the JSON is not a JSON-RPC 2.0 request"
        case .methodNotFound: "no such method; data.did_you_mean names the nearest one"
        case .invalidParams: "a parameter is missing, unknown, of the wrong type or out of range; data.param names it"
        case .internalError: "the daemon failed; a bug"
        case .notFound: "a scene, view controller, container, transition, subscription or plugin that does not exist"
        case .invalidState: "well-formed but not allowed now"
        case .pluginError: "a plugin failed and the request cannot fall back"
        case .limitExceeded: "a configured limit; data.limit gives it"
        case .shuttingDown: "the daemon is draining"
        }
    }
}
