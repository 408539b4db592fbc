import SegueJSON

/// `plugins.check`'s result (`{passed, cases: [{case, passed, problems: [{code, message, file?, line?,
/// severity}]}]}`) for a person: a verdict line, then one line per case and one per problem under it — an error
/// as `code: message`, a warning as `warning code (file:line): message`.
public enum CheckReport {
    /// True when the check passed (a result without `passed: true` has not).
    public static func passed(_ result: JSONValue) -> Bool { result["passed"]?.boolValue == true }

    public static func render(_ result: JSONValue, plugin: String) -> String {
        let cases = result["cases"]?.arrayValue ?? []
        let failed = cases.filter { $0["passed"]?.boolValue != true }.count
        var lines: [String] = []
        let warnings = result["warnings"]?.intValue ?? 0
        if passed(result) {
            let noted = warnings > 0 ? " with \(warnings) warning\(warnings == 1 ? "" : "s") (--strict fails on them)" : ""
            lines.append("\(plugin): passed\(noted) (\(cases.count) case\(cases.count == 1 ? "" : "s"))")
        } else {
            lines.append("\(plugin): FAILED (\(failed) of \(cases.count) case\(cases.count == 1 ? "" : "s") failed)")
        }
        // A problem repeated word for word in several cases (a traceback, usually) is printed once, under the
        // first case, naming the others; under those it is only referred back to.
        var casesWith: [String: [String]] = [:]
        for c in cases {
            for problem in c["problems"]?.arrayValue ?? [] {
                casesWith[problemKey(problem), default: []].append(Format.cell(c["case"]))
            }
        }
        for c in cases {
            let ok = c["passed"]?.boolValue == true
            let name = Format.cell(c["case"])
            lines.append("  \(ok ? "pass" : "FAIL")  \(name)")
            for problem in c["problems"]?.arrayValue ?? [] {
                let code = problem["code"]?.stringValue ?? "?"
                let where_ = casesWith[problemKey(problem)] ?? []
                if let first = where_.first, first != name {
                    lines.append("          \(code): the same as in \(first)")
                    continue
                }
                let message = problem["message"]?.stringValue.map { ": " + $0 } ?? ""
                let place = problem["file"]?.stringValue.map { file in
                    " (" + file + (problem["line"]?.intValue.map { ":\($0)" } ?? "") + ")"
                } ?? ""
                let label = problem["severity"]?.stringValue == "warning" ? "warning \(code)" : code
                let text = "\(label)\(place)\(message)".split(separator: "\n", omittingEmptySubsequences: false)
                lines.append(contentsOf: text.map { "          " + $0 })
                if where_.count > 1 { lines.append("          (also in \(where_.dropFirst().joined(separator: ", ")))") }
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

    private static func problemKey(_ problem: JSONValue) -> String {
        (problem["code"]?.stringValue ?? "?") + "\u{0}" + (problem["message"]?.stringValue ?? "")
    }
}
