/// A scene's transition bookkeeping (not UIKit's transition coordinator, which is the `alongside` object plugins
/// get as `ctx.coordinator`): every transition by id and in start order, the ones driven on their own clock, the
/// modal presentations, queued requests' ids and outcomes, the watchdog's earliest deadline, the transition whose
/// animator is running now and the journals of its calls. It admits transitions (`register`), watches them
/// (`watch`), records how they and queued requests ended (`recordEnd`, `recordOutcome`) and forgets the oldest
/// (`forgetEnded`); `Scene`'s transition files (Scene+Transitions, Scene+Interactive, Scene+Modal) call these.
final class TransitionLedger {
    var transitionsByID: [String: Transition] = [:]
    /// Transitions in start order (running and retained finished ones).
    var transitionOrder: [Transition] = []
    /// How many transitions of `transitionOrder` have ended (kept as they end, so trimming costs no scan).
    var endedCount = 0
    /// The `retainedBytes` of those ended transitions, added up as they end.
    var endedBytes = 0
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

    /// A transition that begins: filed by id and in start order, counted as running.
    func register(_ transition: Transition) {
        transitionsByID[transition.id] = transition
        transitionOrder.append(transition)
        activeTransitionCount += 1
    }

    /// The watchdog looks at the transition again at `deadline` (scene ns) at the latest.
    func watch(until deadline: Int64) {
        earliestWatchdog = min(earliestWatchdog, deadline)
    }

    /// A transition ended: no longer running, counted (with its bytes, `Transition.retainedBytes`, measured now
    /// that its timeline is final) among the ended ones `forgetEnded` trims.
    func recordEnd(_ transition: Transition) {
        transition.retainedBytes = transition.estimatedBytes
        endedCount += 1
        endedBytes += transition.retainedBytes
        activeTransitionCount -= 1
    }

    /// A queued request that never started a transition: its outcome is kept, the oldest beyond `retention`
    /// forgotten.
    func recordOutcome(_ outcome: QueuedOutcome, retention: Int) {
        queuedOutcomes[outcome.id] = outcome
        queuedOutcomeOrder.append(outcome.id)
        if queuedOutcomeOrder.count > max(1, retention) {
            queuedOutcomes[queuedOutcomeOrder.removeFirst()] = nil
        }
    }

    /// Forgets the oldest ended transitions (in start order) beyond `retention` of them, and while they hold more
    /// than `retentionBytes` — but never the newest ended one, so the transition that just ended can always be
    /// rendered. The ended count and bytes are kept as transitions end, so a completion that leaves both within
    /// the retention costs nothing; one past it forgets the oldest ended transition, found from the front (the
    /// running ones before it are few: in the usual case it is the first). No array is built and no transition
    /// retained per completion.
    func forgetEnded(retention: Int, retentionBytes: Int) {
        while endedCount > retention || (endedBytes > retentionBytes && endedCount > 1) {
            guard let index = transitionOrder.firstIndex(where: { $0.isEnded }) else { return }
            let forgotten = transitionOrder[index]
            transitionsByID[forgotten.id] = nil
            transitionOrder.removeSubrange(index..<(index + 1))
            endedCount -= 1
            endedBytes -= forgotten.retainedBytes
        }
    }

    /// A transition id no transition has: `t-N`, N increasing.
    func newTransitionID() -> String {
        var id = TransitionLedger.transitionID(nextTransitionNumber)
        while transitionsByID[id] != nil {
            nextTransitionNumber += 1
            id = TransitionLedger.transitionID(nextTransitionNumber)
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
