import SegueKit

/// A set of event types, one bit per `EngineEvent.Kind`: what a subscription wants, tested with one AND per event.
struct EventKinds: OptionSet, Sendable {
    let rawValue: UInt32
    init(rawValue: UInt32) { self.rawValue = rawValue }

    init(_ kind: EngineEvent.Kind) { rawValue = 1 << UInt32(kind.rawValue) }

    /// Every kind of a category.
    init(_ category: EventCategory) {
        self = EventKinds(EngineEvent.Kind.allCases.filter { $0.category == category }.map { EventKinds($0) })
    }

    static let all = EventKinds(EngineEvent.Kind.allCases.map { EventKinds($0) })

    func contains(_ kind: EngineEvent.Kind) -> Bool { rawValue & (1 << UInt32(kind.rawValue)) != 0 }
}
