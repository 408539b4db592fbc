import SegueJSON

/// The results of a run of scenarios.
public struct ScenarioReport: Sendable {
    public var results: [ScenarioResult] = []

    public init(results: [ScenarioResult] = []) { self.results = results }

    public var passed: Int { results.filter(\.passed).count }
    /// Every scenario that did not pass, those that could not run included.
    public var failed: Int { results.count - passed }
    /// The failed scenarios that could not run at all (an unreadable or invalid file or scenario).
    public var errors: Int { results.filter { $0.failure?.cannotRun == true }.count }

    /// `N passed, N failed`, and `(N could not run)` when some could not.
    public var summary: String {
        "\(passed) passed, \(failed) failed" + (errors > 0 ? " (\(errors) could not run)" : "")
    }

    /// Every result, then the summary.
    public var text: String { (results.map(\.text) + [summary]).joined(separator: "\n") }

    public var json: JSONValue {
        .object(JSONObject([
            ("passed", .number(Double(passed))), ("failed", .number(Double(failed))),
            ("errors", .number(Double(errors))),
            ("scenarios", .array(results.map(\.json))),
        ]))
    }
}
