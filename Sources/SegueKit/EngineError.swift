/// An engine error with a stable code; the daemon maps each code to one JSON-RPC error code.
public struct EngineError: Error, Sendable, Equatable, CustomStringConvertible {
    public enum Code: String, Sendable {
        case invalidParams = "invalid_params"
        case notFound = "not_found"
        case invalidState = "invalid_state"
        case pluginError = "plugin_error"
        case limitExceeded = "limit_exceeded"
    }

    public let code: Code
    public let message: String
    /// The parameter at fault (invalid params) or the id that was not found.
    public let param: String?
    public let id: String?

    public init(_ code: Code, _ message: String, param: String? = nil, id: String? = nil) {
        self.code = code
        self.message = message
        self.param = param
        self.id = id
    }

    public static func notFound(_ what: String, _ id: String, param: String? = nil) -> EngineError {
        EngineError(.notFound, "no \(what) with id '\(id)'", param: param, id: id)
    }

    public static func invalidParams(_ param: String, _ message: String) -> EngineError {
        EngineError(.invalidParams, message, param: param)
    }

    public var description: String { "\(code.rawValue): \(message)" }
}
