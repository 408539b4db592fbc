import SegueJSON

/// The results of a run of scenarios.
public struct ScenarioReport: Sendable {
    public var results: [ScenarioResult] = []

    public init(results: [ScenarioResult] = []) { self.results = results }

    public var passed: Int { results.filter(\.passed).count }
    public var failed: Int { results.count - passed }

    /// `N passed, N failed`.
    public var summary: String { "\(passed) passed, \(failed) failed" }

    /// Every result, then the summary.
    public var text: String { (results.map(\.text) + [summary]).joined(separator: "\n") }

    public var json: JSONValue {
        .object(JSONObject([
            ("passed", .number(Double(passed))), ("failed", .number(Double(failed))),
            ("scenarios", .array(results.map(\.json))),
        ]))
    }
}
