import SegueKit

/// A stretch of an interactive transition that `render.timeline` shades: the user scrubbing it (`scrub`), or the
/// engine running it to the end (`finish`) or back to the start (`cancel`) after the interaction ended.
public struct RenderPhase: Sendable, Equatable {
    public enum Kind: String, Sendable {
        case scrub, finish, cancel
    }

    public var kind: Kind
    /// Scene time in nanoseconds.
    public var start: Int64
    /// Scene time in nanoseconds; nil while the phase lasts.
    public var end: Int64?

    public init(kind: Kind, start: Int64, end: Int64? = nil) {
        self.kind = kind
        self.start = start
        self.end = end
    }

    /// The phases a transition recorded, read from its `phases` property (`[TransitionPhase]`: `kind` scrub,
    /// finish or cancel, `start` and `end` in scene ns) by reflection, so that this module builds both before and
    /// after the engine has interactive transitions; a transition without that property has none. Once the
    /// engine's `Transition.phases` is public API everywhere, this can read it directly.
    public static func recorded(by transition: AnyObject) -> [RenderPhase] {
        var mirror: Mirror? = Mirror(reflecting: transition)
        while let m = mirror {
            if let value = m.children.first(where: { $0.label == "phases" })?.value {
                return Mirror(reflecting: value).children.compactMap { phase(from: $0.value) }
            }
            mirror = m.superclassMirror
        }
        return []
    }

    /// One phase value: a struct with `kind` (an enum whose case name is scrub, finish or cancel), `start: Int64`
    /// and `end: Int64?`.
    static func phase(from value: Any) -> RenderPhase? {
        var kind: Kind?, start: Int64?, end: Int64?
        for child in Mirror(reflecting: value).children {
            switch child.label {
            case "kind":
                kind = Kind(rawValue: String(describing: child.value))
            case "start":
                start = child.value as? Int64
            case "end":
                end = Mirror(reflecting: child.value).children.first?.value as? Int64
            default:
                break
            }
        }
        guard let kind, let start else { return nil }
        return RenderPhase(kind: kind, start: start, end: end)
    }
}
