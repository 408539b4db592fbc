import SegueKit

/// What `plugins.check` found: the cases run so far, the ones left out, and the cases the engine cannot run yet.
/// A typed value: the daemon encodes it as `{plugin, passed, cases, skipped, pending, presentation?, delegate?}`.
public struct CheckReport: Sendable, Equatable {
    /// How much a problem counts: an `error` fails the check; a `warning` (a misspelt name, curve or option)
    /// fails it only when the check is strict.
    public enum Severity: String, Sendable {
        case error, warning
    }

    /// One problem a case found: a stable code (`PluginHost.checkProblemCodes`), what happened, where in the
    /// plugin's file when known, and how much it counts.
    public struct Problem: Sendable, Equatable {
        public let code: TransitionProblem.Code
        public let message: String
        public var file: String? = nil
        public var line: Int? = nil
        public var severity: Severity = .error
    }

    /// One case that ran.
    public struct Case: Sendable, Equatable {
        /// Its name (`CheckCase.name`).
        public let name: String
        public let problems: [Problem]
        /// Whether warnings fail the case too (`plugins.check {strict: true}`).
        public var strict = false
        public var passed: Bool { !problems.contains { strict || $0.severity == .error } }
    }

    /// One case left out, and why.
    public struct Skipped: Sendable, Equatable {
        public let name: String
        public let reason: String
    }

    public let plugin: String
    /// Whether every case run so far passed.
    public let passed: Bool
    /// Whether warnings failed the check (`strict`).
    public var strict = false
    public let cases: [Case]
    public let skipped: [Skipped]
    public let pending: [String]
    /// The presentation plugin the present and dismiss cases ran with, when one was given.
    public let presentation: String?
    /// The delegate plugin the check's containers got, when one was given.
    public let delegate: String?
}
