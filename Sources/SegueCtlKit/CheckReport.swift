import SegueJSON

/// `plugins.check`'s result (`{passed, cases: [{case, passed, problems: [{code, message}]}]}`) for a person: a
/// verdict line, then one line per case and one per problem under a failed case.
public enum CheckReport {
    /// True when the check passed (a result without `passed: true` has not).
    public static func passed(_ result: JSONValue) -> Bool { result["passed"]?.boolValue == true }

    public static func render(_ result: JSONValue, plugin: String) -> String {
        let cases = result["cases"]?.arrayValue ?? []
        let failed = cases.filter { $0["passed"]?.boolValue != true }.count
        var lines: [String] = []
        if passed(result) {
            lines.append("\(plugin): passed (\(cases.count) case\(cases.count == 1 ? "" : "s"))")
        } else {
            lines.append("\(plugin): FAILED (\(failed) of \(cases.count) case\(cases.count == 1 ? "" : "s") failed)")
        }
        for c in cases {
            let ok = c["passed"]?.boolValue == true
            lines.append("  \(ok ? "pass" : "FAIL")  \(Format.cell(c["case"]))")
            for problem in c["problems"]?.arrayValue ?? [] {
                let code = problem["code"]?.stringValue ?? "?"
                let message = problem["message"]?.stringValue.map { ": " + $0 } ?? ""
                lines.append("          \(code)\(message)")
            }
        }
        for c in result["skipped"]?.arrayValue ?? [] {
            let reason = c["reason"]?.stringValue.map { "  (" + $0 + ")" } ?? ""
            lines.append("  skip  \(Format.cell(c["case"]))\(reason)")
        }
        let pending = (result["pending"]?.arrayValue ?? []).compactMap(\.stringValue)
        if !pending.isEmpty { lines.append("  not run yet: \(pending.joined(separator: ", "))") }
        return lines.joined(separator: "\n")
    }
}
