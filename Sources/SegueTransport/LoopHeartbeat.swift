import Synchronization

/// The event loop's pulse: a count of the loop's turns, and whether the loop is waiting for events (asleep in
/// `epoll_wait`, which is not a stall). The loop writes it once per turn (two relaxed stores, no system call); the
/// stall detector reads it from its own thread, and so can anything else that must know the loop still turns (the
/// systemd watchdog's `WATCHDOG=1` should be sent only while `isAlive(…)` holds).
public final class LoopHeartbeat: Sendable {
    private let turns = Atomic<UInt64>(0)
    private let asleep = Atomic<Bool>(false)

    public init() {}

    /// Called by the loop when it wakes up for a turn (and by start-up work that stands for one).
    public func beat() {
        // One writer (the loop thread): a load and a store, not a locked add.
        turns.store(turns.load(ordering: .relaxed) &+ 1, ordering: .relaxed)
        asleep.store(false, ordering: .relaxed)
    }

    /// Called by the loop right before it blocks waiting for events.
    public func sleeping() { asleep.store(true, ordering: .relaxed) }

    /// The turn count at the last beat: it changes while the loop comes back.
    public var lastBeat: UInt64 { turns.load(ordering: .relaxed) }

    /// True while the loop is blocked waiting for events.
    public var isSleeping: Bool { asleep.load(ordering: .relaxed) }
}
