/// A scene's transition bookkeeping (not UIKit's transition coordinator, which is the `alongside` object plugins
/// get as `ctx.coordinator`): every transition by id and in start order, the ones driven on their own clock, the
/// modal presentations, queued requests' ids and outcomes, the watchdog's earliest deadline, the transition whose
/// It admits requests (`admit`: `when_busy` rejects, queues or interrupts) and transitions (`register`), starts the
/// queued ones (`startNextQueued`), watches them (`watch`, `checkWatchdogs`, `finishNow`), records their
/// timelines and how they and queued requests ended (`recordTimelines`, `recordEnd`, `recordOutcome`) and forgets
/// the oldest (`forgetEnded`). Nothing else writes its state.
final class TransitionLedger {
    private(set) var transitionsByID: [String: Transition] = [:]
    /// Transitions in start order (running and retained finished ones).
    private(set) var transitionOrder: [Transition] = []
    /// How many transitions of `transitionOrder` have ended (kept as they end, so trimming costs no scan).
    private var endedCount = 0
    /// The `retainedBytes` of those ended transitions, added up as they end.
    private var endedBytes = 0
    private var nextTransitionNumber = 1
    /// The scene's versions `recordTimelines` last recorded at.
    private var timelinesRecorded = (structure: -1, value: -1)
    /// No watchdog deadline of a running transition is earlier than this (a lower bound; `.max` when none runs).
    private(set) var earliestWatchdog: Int64 = .max
    /// Transitions that have started and not ended.
    private(set) var activeTransitionCount = 0
    /// Modal presentations, bottom first.
    private(set) var presentations: [Presentation] = []
    /// Transitions held on their own clock (interactive, finishing or cancelling).
    private(set) var drivenTransitions: [Transition] = []
    /// Ids handed to queued requests, not yet started.
    private(set) var reservedTransitionIDs: Set<String> = []
    private(set) var queuedOutcomes: [String: QueuedOutcome] = [:]
    private var queuedOutcomeOrder: [String] = []
    /// The `info` of the request being started (Scene.withTransitionInfo); `begin` takes it.
    var pendingInfo: InfoValue?

    /// A transition that begins: filed by id and in start order, counted as running.
    func register(_ transition: Transition) {
        transitionsByID[transition.id] = transition
        transitionOrder.append(transition)
        activeTransitionCount += 1
    }

    /// A transition now driven on its own clock (interactive, finishing or cancelling).
    func noteDriven(_ transition: Transition) { drivenTransitions.append(transition) }

    /// Forgets the driven transitions that are no longer driven (or `transition` alone).
    func releaseDriven(_ transition: Transition? = nil) {
        if let transition {
            drivenTransitions.removeAll { $0 === transition }
        } else {
            drivenTransitions.removeAll { $0.drive == nil }
        }
    }

    /// A modal presentation goes on top.
    func addPresentation(_ record: Presentation) { presentations.append(record) }

    /// A modal presentation ended.
    func removePresentation(_ record: Presentation) { presentations.removeAll { $0 === record } }

    /// Adds this tick to the timeline of every running transition (`tree`'s versions say whether anything
    /// changed since the last pass).
    func recordTimelines(_ tree: ViewTree, at now: Int64) {
        guard activeTransitionCount > 0 else { return }
        // Nothing changed since the last pass: every running timeline already holds this state (a transition that
        // started since recorded it when it began).
        guard tree.structureVersion != timelinesRecorded.structure || tree.valueVersion != timelinesRecorded.value else { return }
        timelinesRecorded = (tree.structureVersion, tree.valueVersion)
        for transition in transitionOrder where !transition.isEnded {
            guard let container = transition.timelineRoot else { continue }
            transition.timeline.record(container, at: now, structureVersion: tree.structureVersion, valueVersion: tree.valueVersion)
        }
    }

    /// The watchdog looks at the transition again at `deadline` (scene ns) at the latest.
    func watch(until deadline: Int64) {
        earliestWatchdog = min(earliestWatchdog, deadline)
    }

    /// A transition ended: no longer running, counted (with its bytes, `Transition.retainedBytes`, measured now
    /// that its timeline is final) among the ended ones `forgetEnded` trims.
    func recordEnd(_ transition: Transition) {
        transition.timeline.compact()
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

    // MARK: Admitting and queueing

    /// Applies `when_busy` when the container is running a transition: rejects, queues (returning the queued
    /// start), or jumps the running one to its end. Nil means: go ahead now.
    func admit(_ container: ContainerViewController, _ policy: WhenBusy?, kind: TransitionKind,
               retry: @escaping (String) throws(EngineError) -> TransitionStart, in scene: Scene)
        throws(EngineError) -> TransitionStart?
    {
        guard let active = container.activeTransition else { return nil }
        switch policy ?? container.whenBusy {
        case .reject:
            throw EngineError(.invalidState, "container '\(container.id)' is running transition '\(active.id)'",
                              id: active.id)
        case .queue:
            guard container.queue.count < Scene.maxQueuedPerContainer else {
                throw EngineError(.limitExceeded, "container '\(container.id)' already has \(Scene.maxQueuedPerContainer) queued transitions")
            }
            let id = newTransitionID()
            reservedTransitionIDs.insert(id)
            container.queue.append(QueuedTransition(id: id, kind: kind, start: retry))
            return TransitionStart(transition: nil, queuedID: id, animator: nil, duration: 0)
        case .interrupt:
            finishNow(active, in: scene)
            guard container.activeTransition == nil else {
                throw EngineError(.invalidState, "container '\(container.id)' could not end transition '\(active.id)'", id: active.id)
            }
            return nil
        }
    }

    /// Starts the next queued request of an idle container. A request with nothing left to do, or no longer
    /// valid, ends at once with `transition.completed` (`skipped: true`).
    func startNextQueued(_ container: ContainerViewController, in scene: Scene) {
        while container.activeTransition == nil, !container.queue.isEmpty {
            let next = container.queue.removeFirst()
            reservedTransitionIDs.remove(next.id)
            var message: String?
            var state = TransitionState.completed
            do {
                let start = try next.start(next.id)
                if start.transition != nil { return }
            } catch {
                message = error.message
                state = .cancelled
            }
            recordOutcome(
                QueuedOutcome(id: next.id, kind: next.kind, container: container.id, state: state, message: message),
                retention: scene.config.timelineRetention)
            scene.emit(.transitionCompleted(EngineEvent.TransitionCompletion(
                transition: next.id, completed: state == .completed, forced: false, skipped: true, reason: message)))
        }
    }

    // MARK: Watching

    /// The watchdog: a transition whose animator never called complete is completed after
    /// duration × watchdog_factor + watchdog_grace_ms of scene time.
    func checkWatchdogs(in scene: Scene) {
        guard scene.now >= earliestWatchdog else { return }
        var earliest = Int64.max
        earliestWatchdog = .max  // transitions started from here on (the queue's next) lower it again
        defer { earliestWatchdog = min(earliestWatchdog, earliest) }
        // Suspended while interactive; a finish or cancel ramp sets a new deadline.
        for transition in transitionOrder where !transition.isEnded && transition.state != .interactive
            && transition.drive?.ramp == nil
        {
            // Not while one of its property animators is paused (the interaction holds it): the allowance starts
            // again from here.
            if scene.clock.propertyAnimators.contains(where: { $0.transition === transition && $0.isPaused }) {
                let allowance = transition.duration * scene.config.watchdogFactor * 1e9
                    + Double(scene.config.watchdogGraceMs) * 1e6
                transition.watchdogDeadline = max(transition.watchdogDeadline, scene.now + Int64(min(allowance, 1e17)))
                earliest = min(earliest, transition.watchdogDeadline)
                continue
            }
            guard scene.now >= transition.watchdogDeadline else {
                earliest = min(earliest, transition.watchdogDeadline)
                continue
            }
            transition.problems.append(TransitionProblem(
                .neverCompleted, "complete was not called within the watchdog's allowance"))
            scene.emit(.watchdog(transition: transition.id, animator: transition.animatorName))
            finishNow(transition, in: scene)
        }
    }

    /// Jumps a running transition to its end: its animations finish at once (their completions run), and if the
    /// animator still has not completed it, the engine does (forced).
    func finishNow(_ transition: Transition, in scene: Scene) {
        finishNow(transition, known: nil, in: scene)
        scene.clock.dropRemoved()
    }

    /// `finishNow`, with the transition's running animations already found (`known`, for the first round) and the
    /// clock's removed animations left in place for the caller to drop in one pass: so that finishing every
    /// transition of a scene walks the clock's animations once, not once per transition.
    private func finishNow(_ transition: Transition, known: [PropertyAnimation]?, in scene: Scene) {
        // Its property animators (the interruptible one among them) end where they are heading.
        for animator in scene.clock.propertyAnimators where animator.transition === transition {
            animator.finishAtOnce(in: scene)
        }
        if transition.drive != nil {
            jumpDriven(transition, in: scene)
            scene.clock.runPendingCompletions()
        }
        var rounds = 0
        var known = transition.drive == nil ? known : nil
        while !transition.isEnded, rounds < 16 {
            rounds += 1
            let own: [PropertyAnimation]
            if let found = known {
                own = found.filter { !$0.removed }
                known = nil
            } else {
                own = scene.clock.animations(of: transition)
            }
            if own.isEmpty && scene.clock.pendingCompletions.isEmpty { break }
            for animation in own { scene.clock.finishAtOnce(animation) }
            scene.clock.runPendingCompletions()
        }
        if !transition.isEnded {
            transition.forced = true
            let cancelled = transition.context?.transitionWasCancelled ?? false
            completeTransition(transition, didComplete: !cancelled, forced: true, in: scene)
        }
    }

    /// Forces every running transition of the scene to its end (scene.destroy, daemon shutdown). `forced`: each
    /// reports `forced: true` however it ends (scene.destroy: the scene is going, not the transition finishing).
    func finishAllTransitions(forced: Bool, in scene: Scene) {
        if forced {
            for transition in transitionOrder where !transition.isEnded { transition.forced = true }
        }
        // Each transition's animations, found in one pass (filtering the clock per transition was quadratic: 9 s
        // to stop 4 000 running transitions). Animations a completion starts are found by the rounds after the first.
        func byTransition() -> [ObjectIdentifier: [PropertyAnimation]] {
            var found: [ObjectIdentifier: [PropertyAnimation]] = [:]
            for animation in scene.clock.running where !animation.removed {
                guard let transition = animation.group.transition else { continue }
                found[ObjectIdentifier(transition), default: []].append(animation)
            }
            return found
        }
        var animations = byTransition()
        for transition in transitionOrder where !transition.isEnded {
            // Removed animations stay in place until the end, so the count grows only when a completion started
            // new animations: then they are looked for again (they may belong to a transition still to finish).
            let before = scene.clock.running.count
            finishNow(transition, known: animations[ObjectIdentifier(transition)] ?? [], in: scene)
            if scene.clock.running.count != before { animations = byTransition() }
        }
        scene.clock.dropRemoved()
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
