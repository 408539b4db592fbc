import SegueKit

/// What `plugins.check` found: the cases run so far, the ones left out, and the cases the engine cannot run yet.
/// A typed value: the daemon encodes it as `{plugin, passed, cases, skipped, pending, presentation?, delegate?}`.
public struct CheckReport: Sendable, Equatable {
    /// One problem a case found: a stable code (`PluginHost.checkProblemCodes`) and what happened.
    public struct Problem: Sendable, Equatable {
        public let code: TransitionProblem.Code
        public let message: String
    }

    /// One case that ran.
    public struct Case: Sendable, Equatable {
        /// Its name (`CheckCase.name`).
        public let name: String
        public let problems: [Problem]
        public var passed: Bool { problems.isEmpty }
    }

    /// One case left out, and why.
    public struct Skipped: Sendable, Equatable {
        public let name: String
        public let reason: String
    }

    public let plugin: String
    /// Whether every case run so far passed.
    public let passed: Bool
    public let cases: [Case]
    public let skipped: [Skipped]
    public let pending: [String]
    /// The presentation plugin the present and dismiss cases ran with, when one was given.
    public let presentation: String?
    /// The delegate plugin the check's containers got, when one was given.
    public let delegate: String?
}
