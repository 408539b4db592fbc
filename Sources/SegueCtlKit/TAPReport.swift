import Foundation
import SegueJSON

/// A run of scenarios as TAP version 13 (the Test Anything Protocol, read by `prove` and many CI plugins): the
/// plan first, then `ok N - name` or `not ok N - name` with the difference as a YAML block.
public enum TAPReport {
    public static func header(count: Int) -> String { "TAP version 13\n1..\(count)" }

    public static func line(_ result: ScenarioResult, number: Int) -> String {
        let name = result.name.replacingOccurrences(of: "#", with: "\\#").replacingOccurrences(of: "\n", with: " ")
        let time = ScenarioResult.milliseconds(result.duration).replacingOccurrences(of: " ", with: "")
        let head = "\(result.passed ? "ok" : "not ok") \(number) - \(name) # time=\(time)"
        guard let failure = result.failure else { return head }
        var lines = [head, "  ---", "  message: |"]
        lines += failure.text.split(separator: "\n", omittingEmptySubsequences: false).map { "    " + $0 }
        if let file = result.file { lines.append("  file: \(Format.compact(.string(file)))") }
        lines.append("  ...")
        return lines.joined(separator: "\n")
    }
}
