import SegueJSON

/// A dotted path into a JSON value: `transition`, `views.subviews.0.id`. A segment that is a number indexes an
/// array. Failure messages print paths in the same form, so a path seen in a failure can be pasted into `capture`.
public struct JSONPath: Sendable, Equatable, CustomStringConvertible {
    public var segments: [String]

    public init(_ text: String) {
        segments = text.isEmpty ? [] : text.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
    }

    public init(segments: [String]) { self.segments = segments }

    public var description: String { segments.joined(separator: ".") }

    /// True when the path is usable: no empty segment.
    public var isValid: Bool { !segments.isEmpty && !segments.contains("") }

    /// The value at this path, or nil when a key or index is missing.
    public func value(in root: JSONValue) -> JSONValue? {
        var current = root
        for segment in segments {
            switch current {
            case .object(let o):
                guard let next = o[segment] else { return nil }
                current = next
            case .array(let a):
                guard let i = Int(segment), i >= 0, i < a.count else { return nil }
                current = a[i]
            default:
                return nil
            }
        }
        return current
    }

    public func appending(_ segment: String) -> JSONPath { JSONPath(segments: segments + [segment]) }
    public func appending(_ index: Int) -> JSONPath { appending(String(index)) }
}
