import SegueJSON
import SegueLua

/// `plugins.check`'s result on the wire: `{plugin, passed, cases, skipped, pending}` (and `presentation`, `delegate`
/// when given), `strict` and the number of `warnings`; each case `{case, passed, problems: [{code, message, file?,
/// line?, severity}]}`, each skipped case `{case, reason}`.
extension CheckReport {
    var json: JSONValue {
        var members: [(String, JSONValue)] = [
            ("plugin", .string(plugin)), ("passed", .bool(passed)), ("strict", .bool(strict)),
            ("warnings", .number(Double(cases.reduce(0) { $0 + $1.problems.count { $0.severity == .warning } }))),
            ("cases", .array(cases.map { c in
                .object(JSONObject([
                    ("case", .string(c.name)), ("passed", .bool(c.passed)),
                    ("problems", .array(c.problems.map { p in
                        var o = JSONObject([("code", .string(p.code.rawValue)), ("message", .string(p.message))])
                        if let file = p.file { o["file"] = .string(file) }
                        if let line = p.line { o["line"] = .number(Double(line)) }
                        o["severity"] = .string(p.severity.rawValue)
                        return .object(o)
                    })),
                ]))
            })),
            ("skipped", .array(skipped.map { .object(JSONObject([("case", .string($0.name)), ("reason", .string($0.reason))])) })),
            ("pending", .array(pending.map { .string($0) })),
        ]
        if let presentation { members.append(("presentation", .string(presentation))) }
        if let delegate { members.append(("delegate", .string(delegate))) }
        return .object(JSONObject(members))
    }
}
