import SegueJSON

/// A run of scenarios as JUnit XML, the report CI systems read (GitHub Actions reporters, GitLab, Jenkins): one
/// `<testsuite>` per scenario file, one `<testcase>` per scenario with its time in seconds, and for a failed
/// scenario a `<failure>` whose message is the failing step and its first difference and whose text is the whole
/// difference, as printed. A scenario that could not run (an unreadable or invalid file or scenario) is an
/// `<error>` instead, counted in `errors`, not `failures`.
public enum JUnitReport {
    public static func xml(_ report: ScenarioReport, name: String = "seguectl test") -> String {
        var files: [String] = []
        var byFile: [String: [ScenarioResult]] = [:]
        for result in report.results {
            let file = result.file ?? result.name
            if byFile[file] == nil { files.append(file) }
            byFile[file, default: []].append(result)
        }
        let total = report.results.reduce(0) { $0 + $1.duration }
        var out = #"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"
        out += "<testsuites name=\"\(escape(name))\" tests=\"\(report.results.count)\" failures=\"\(report.failed - report.errors)\" "
            + "errors=\"\(report.errors)\" time=\"\(seconds(total))\">\n"
        for file in files {
            let results = byFile[file] ?? []
            let errors = results.filter { $0.failure?.cannotRun == true }.count
            let failed = results.filter { !$0.passed }.count - errors
            let time = results.reduce(0) { $0 + $1.duration }
            out += "  <testsuite name=\"\(escape(file))\" tests=\"\(results.count)\" failures=\"\(failed)\" "
                + "errors=\"\(errors)\" skipped=\"0\" time=\"\(seconds(time))\">\n"
            for result in results {
                out += "    <testcase name=\"\(escape(result.name))\" classname=\"\(escape(className(file)))\" "
                    + "file=\"\(escape(file))\" time=\"\(seconds(result.duration))\""
                guard let failure = result.failure else {
                    out += "/>\n"
                    continue
                }
                let text = failure.text
                let element = failure.cannotRun ? "error" : "failure"
                let type = failure.cannotRun ? "invalid" : (failure.mismatches.isEmpty ? "error" : "mismatch")
                out += ">\n      <\(element) message=\"\(escape(failure.headline))\" type=\"\(type)\">" + escape(text)
                    + "</\(element)>\n    </testcase>\n"
            }
            out += "  </testsuite>\n"
        }
        return out + "</testsuites>\n"
    }

    /// `Tests/Scenarios/flip.json` → `Tests.Scenarios.flip`, the dotted form CI tools group test cases by.
    static func className(_ file: String) -> String {
        var path = file.hasSuffix(".json") ? String(file.dropLast(5)) : file
        while path.hasPrefix("./") { path.removeFirst(2) }
        return path.split(separator: "/").joined(separator: ".")
    }

    static func seconds(_ value: Double) -> String { Format.number(value, decimals: 6) }

    static func escape(_ text: String) -> String { XMLText.escape(text) }
}
