/// One difference between what a scenario expected and what the daemon gave: where, what was expected, what came.
public struct Mismatch: Sendable, Equatable, CustomStringConvertible {
    public var path: String
    public var expected: String
    public var got: String

    public init(path: String, expected: String, got: String) {
        self.path = path
        self.expected = expected
        self.got = got
    }

    public var description: String { "\(path): expected \(expected), got \(got)" }
}
