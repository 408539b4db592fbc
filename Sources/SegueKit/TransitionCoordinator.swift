/// A scene's transition coordination: every transition by id and in start order, the ones driven on their own
/// clock, the modal presentations, queued requests' ids and outcomes, the watchdog's earliest deadline, the
/// transition whose animator is running now and the journals of its calls. `Scene`'s transition methods
/// (Scene+Transitions, Interactive, Modal) work on this state.
final class TransitionCoordinator {
    var transitionsByID: [String: Transition] = [:]
    /// Transitions in start order (running and retained finished ones).
    var transitionOrder: [Transition] = []
    /// How many transitions of `transitionOrder` have ended (kept as they end, so trimming costs no scan).
    var endedCount = 0
    var nextTransitionNumber = 1
    /// The scene's versions `recordTimelines` last recorded at.
    var timelinesRecorded = (structure: -1, value: -1)
    /// No watchdog deadline of a running transition is earlier than this (a lower bound; `.max` when none runs).
    var earliestWatchdog: Int64 = .max
    /// Transitions that have started and not ended.
    var activeTransitionCount = 0
    /// Modal presentations, bottom first.
    var presentations: [Presentation] = []
    /// Transitions held on their own clock (interactive, finishing or cancelling).
    var drivenTransitions: [Transition] = []
    /// Ids handed to queued requests, not yet started.
    var reservedTransitionIDs: Set<String> = []
    var queuedOutcomes: [String: QueuedOutcome] = [:]
    var queuedOutcomeOrder: [String] = []
    /// The transition whose animator code is running now: animation blocks opened meanwhile belong to it.
    var currentTransition: Transition?
    /// Journals of the animator calls running now, innermost last (see SceneJournal).
    var journals: [SceneJournal] = []
    var nextJournalEpoch = 0
    /// The number of the last `captureBaseline` walk (views it reached carry it in `View.baselineMark`).
    var baselineMark = 0

    /// A transition id no transition has: `t-N`, N increasing.
    func newTransitionID() -> String {
        var id = TransitionCoordinator.transitionID(nextTransitionNumber)
        while transitionsByID[id] != nil {
            nextTransitionNumber += 1
            id = TransitionCoordinator.transitionID(nextTransitionNumber)
        }
        nextTransitionNumber += 1
        return id
    }

    /// `t-` and the decimal digits of `number`, written into a stack buffer and made a small string: `"t-" +
    /// String(n)` went through the generic integer printing and string concatenation, ~0.2 µs of every transition
    /// start (perf of `segue-bench dispatch --only container.select`).
    static func transitionID(_ number: Int) -> String {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            var n = number.magnitude
            var i = buffer.count
            repeat {
                i -= 1
                buffer[i] = UInt8(ascii: "0") + UInt8(n % 10)
                n /= 10
            } while n > 0
            if number < 0 { i -= 1; buffer[i] = UInt8(ascii: "-") }
            i -= 2
            buffer[i] = UInt8(ascii: "t")
            buffer[i + 1] = UInt8(ascii: "-")
            return String(decoding: UnsafeBufferPointer(rebasing: buffer[i...]), as: UTF8.self)
        }
    }
}
