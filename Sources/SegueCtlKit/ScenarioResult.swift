import SegueJSON

/// How one scenario went.
public struct ScenarioResult: Sendable {
    public var name: String
    public var file: String?
    /// Steps that ran (including the failing one).
    public var stepsRun: Int
    /// nil when it passed.
    public var failure: ScenarioFailure?
    /// How long it ran, in seconds of wall time (set by the runner).
    public var duration: Double = 0
    /// Its recorded motion (a manual-clock scenario in a run with motion snapshots), and whether the run is to
    /// write it to the snapshot (`--record` for a new one, `--update`).
    public var motion: JSONValue?
    public var motionToWrite = false

    public var passed: Bool { failure == nil }

    public init(name: String, file: String?, stepsRun: Int, failure: ScenarioFailure?) {
        self.name = name
        self.file = file
        self.stepsRun = stepsRun
        self.failure = failure
    }

    /// The lines a person reads: `PASS name` or `FAIL name (file)` followed by the failure, indented.
    public var text: String { text(withTime: false) }

    /// `text`, with the scenario's time at the end of its first line when asked (`PASS  name  12 ms`).
    public func text(withTime: Bool) -> String {
        let origin = file.flatMap { $0 == name ? nil : "  (\($0))" } ?? ""
        let time = withTime ? "  " + ScenarioResult.milliseconds(duration) : ""
        guard let failure else { return "PASS  \(name)\(time)" }
        return "FAIL  \(name)\(origin)\(time)\n" + failure.text.split(separator: "\n", omittingEmptySubsequences: false)
            .map { "      " + $0 }.joined(separator: "\n")
    }

    public var json: JSONValue {
        var o = JSONObject([("name", .string(name)), ("file", file.map { .string($0) } ?? .null),
                            ("passed", .bool(passed)), ("steps_run", .number(Double(stepsRun)))])
        o["time"] = .number((duration * 1e6).rounded() / 1e6)
        if let failure { o["failure"] = failure.json }
        return .object(o)
    }

    /// `12 ms`, `0.4 ms`, `1.25 s`.
    public static func milliseconds(_ seconds: Double) -> String {
        let ms = seconds * 1000
        if ms >= 1000 { return Format.number(seconds, decimals: 2) + " s" }
        return Format.number(ms, decimals: ms < 10 ? 1 : 0) + " ms"
    }
}

/// Why a scenario failed: at which step (nil before the first step or in the file itself), and the differences.
public struct ScenarioFailure: Sendable {
    public var step: Int?
    public var method: String?
    public var note: String?
    /// What went wrong, when it is not a list of differences (a bad file, an unknown variable, a lost connection).
    public var message: String?
    public var mismatches: [Mismatch]
    /// The events the failing step caused, shown when an event expectation failed.
    public var events: [JSONValue]
    /// True when the scenario could not run at all (an unreadable or invalid file or scenario): JUnit's `<error>`,
    /// not a `<failure>`.
    public var cannotRun: Bool

    public init(step: Int? = nil, method: String? = nil, note: String? = nil, message: String? = nil,
                mismatches: [Mismatch] = [], events: [JSONValue] = [], cannotRun: Bool = false)
    {
        self.cannotRun = cannotRun
        self.step = step
        self.method = method
        self.note = note
        self.message = message
        self.mismatches = mismatches
        self.events = events
    }

    public var text: String {
        var lines: [String] = []
        if let step, let method {
            lines.append("step \(step) \(method)" + (note.map { " (\($0))" } ?? "") + ":")
        }
        let indent = step == nil ? "" : "  "
        if let message { lines.append(indent + message) }
        for m in mismatches { lines.append(indent + m.description) }
        if !events.isEmpty {
            lines.append(indent + "the step caused \(events.count) event\(events.count == 1 ? "" : "s"):")
            for (i, e) in events.enumerated() { lines.append(indent + "  \(i + 1): " + ScenarioFailure.summary(of: e)) }
        }
        return lines.joined(separator: "\n")
    }

    /// The first thing that went wrong, on one line: the step and its first difference (or its message), as
    /// JUnit's `message` carries it.
    public var headline: String {
        let first = message ?? mismatches.first?.description ?? "failed"
        guard let step, let method else { return first }
        return "step \(step) \(method): \(first)"
    }

    public var json: JSONValue {
        var o = JSONObject()
        if let step { o["step"] = .number(Double(step)) }
        if let method { o["method"] = .string(method) }
        if let note { o["note"] = .string(note) }
        if let message { o["message"] = .string(message) }
        if cannotRun { o["cannot_run"] = .bool(true) }
        o["differences"] = .array(mismatches.map {
            .object(JSONObject([("path", .string($0.path)), ("expected", .string($0.expected)), ("got", .string($0.got))]))
        })
        if !events.isEmpty { o["events"] = .array(events) }
        return .object(o)
    }

    /// One event on one line: its type, then its other fields (not seq, scene, time).
    public static func summary(of event: JSONValue) -> String {
        guard case .object(let o) = event else { return Format.compact(event) }
        var parts = [o["type"]?.stringValue ?? "?"]
        for (key, value) in o where !["type", "seq", "scene", "time"].contains(key) {
            let text: String
            switch value {
            case .string(let s): text = s
            case .number(let n): text = Format.number(n, decimals: 4)
            default: text = Format.compact(value, limit: 60)
            }
            parts.append("\(key)=\(text)")
        }
        return parts.joined(separator: " ")
    }
}
