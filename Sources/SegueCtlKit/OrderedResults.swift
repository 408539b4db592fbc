import Foundation

/// Results that finish in any order, handed on in index order: a result is passed on once every result before
/// it has been. Thread-safe (a lock); the hand-on runs under the lock, so it is never called twice at once.
final class OrderedResults: @unchecked Sendable {
    private let lock = NSLock()
    private var results: [ScenarioResult?]
    private var handedOn = 0

    init(count: Int) { results = Array(repeating: nil, count: count) }

    func finish(_ index: Int, _ result: ScenarioResult, handOn: (ScenarioResult) -> Void) {
        lock.lock()
        defer { lock.unlock() }
        results[index] = result
        while handedOn < results.count, let next = results[handedOn] {
            handOn(next)
            handedOn += 1
        }
    }

    /// Every result, in index order (call once all have finished).
    var all: [ScenarioResult] {
        lock.lock()
        defer { lock.unlock() }
        return results.compactMap { $0 }
    }
}
