import SegueJSON

/// One request of a scenario and what it should give.
public struct ScenarioStep: Sendable {
    /// 1-based, as failures print it.
    public var number: Int
    public var method: String
    public var params: JSONObject?
    /// Partial match of the result.
    public var expect: JSONValue?
    /// Variable name → path into the result, in the file's order.
    public var capture: [(name: String, path: JSONPath)]
    /// Events the step must cause, in this order, among others (a subsequence).
    public var events: [JSONValue]?
    /// Every event the step causes, exactly these, in this order (each matched partially).
    public var allEvents: [JSONValue]?
    /// The JSON-RPC error the step must give: `{code, message?: substring, data?: partial match}`.
    public var error: JSONObject?
    public var tolerance: Double?
    /// What the step is for, printed with its failures.
    public var note: String?

    public init(number: Int, method: String, params: JSONObject? = nil, expect: JSONValue? = nil,
                capture: [(name: String, path: JSONPath)] = [], events: [JSONValue]? = nil,
                allEvents: [JSONValue]? = nil, error: JSONObject? = nil, tolerance: Double? = nil, note: String? = nil)
    {
        self.number = number
        self.method = method
        self.params = params
        self.expect = expect
        self.capture = capture
        self.events = events
        self.allEvents = allEvents
        self.error = error
        self.tolerance = tolerance
        self.note = note
    }

    static let keys = ["call", "params", "expect", "capture", "events", "all_events", "error", "tolerance", "note"]

    static func parse(_ value: JSONValue, number: Int, prefix: String) throws(ScenarioError) -> ScenarioStep {
        let what = "\(prefix)step \(number)"
        guard case .object(let o) = value else { throw ScenarioError("\(what): a step must be an object") }
        try Scenario.checkKeys(o, allowed: keys, what: what)
        guard let method = o["call"]?.stringValue, !method.isEmpty else {
            throw ScenarioError("\(what): 'call' (the method name) is required")
        }
        var step = ScenarioStep(number: number, method: method)
        if let params = o["params"] {
            guard case .object(let p) = params else { throw ScenarioError("\(what): 'params' must be an object") }
            step.params = p
        }
        step.expect = o["expect"]
        if let capture = o["capture"] {
            guard case .object(let c) = capture else {
                throw ScenarioError("\(what): 'capture' must be an object {\"variable\": \"path.in.result\"}")
            }
            for (name, path) in c {
                guard let text = path.stringValue, JSONPath(text).isValid else {
                    throw ScenarioError("\(what): capture '\(name)' needs a path like \"transition\" or \"views.subviews.0.id\"")
                }
                step.capture.append((name, JSONPath(text)))
            }
        }
        step.events = try parseEvents(o["events"], what: "\(what): 'events'")
        step.allEvents = try parseEvents(o["all_events"], what: "\(what): 'all_events'")
        if let error = o["error"] {
            guard case .object(let e) = error, e["code"]?.intValue != nil else {
                throw ScenarioError("\(what): 'error' must be an object with an integer 'code'")
            }
            try Scenario.checkKeys(e, allowed: ["code", "message", "data"], what: "\(what): 'error'")
            if let m = e["message"], m.stringValue == nil {
                throw ScenarioError("\(what): 'error.message' must be a string (a substring of the message)")
            }
            if step.expect != nil { throw ScenarioError("\(what): 'expect' and 'error' exclude each other") }
            if !step.capture.isEmpty { throw ScenarioError("\(what): 'capture' needs a result; this step expects an error") }
            step.error = e
        }
        step.tolerance = try Scenario.parseTolerance(o["tolerance"], what: "\(what): 'tolerance'")
        if let note = o["note"] {
            guard let text = note.stringValue else { throw ScenarioError("\(what): 'note' must be a string") }
            step.note = text
        }
        return step
    }

    /// Events are objects matched partially; a bare string is shorthand for `{"type": "<string>"}`.
    static func parseEvents(_ value: JSONValue?, what: String) throws(ScenarioError) -> [JSONValue]? {
        guard let value else { return nil }
        guard case .array(let list) = value else { throw ScenarioError("\(what) must be an array") }
        var out: [JSONValue] = []
        for element in list {
            switch element {
            case .string(let type): out.append(.object(JSONObject([("type", .string(type))])))
            case .object: out.append(element)
            default: throw ScenarioError("\(what): each event is an object or an event type string")
            }
        }
        return out
    }
}
