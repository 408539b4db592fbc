#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The check behind the daemon's `@exclusivity(unchecked)` and `@unchecked Sendable`: its state (dispatch, the
/// scene registry, the plugin service, the connections) is touched on one thread only, the event loop's.
///
/// SwiftNIO's `NIOLoopBound` pattern: the promise is checked, in release builds too, with one atomic load and a
/// compare per entry point (a request, a connection, a tick, a timer, a plugin batch). The first thread that
/// touches the daemon owns it (the one that makes and starts it; a test's); the server hands it to the loop's
/// thread when the loop starts (`bindToCurrentThread`). A touch from any other thread stops the process
/// (`precondition`): a data race on the daemon would corrupt it silently instead.
public final class LoopConfinement: Sendable {
    /// The owning thread's `pthread_self()`, or 0 until the first touch.
    private let owner = Atomic<UInt>(0)

    public init() {}

    /// Hands the daemon to the calling thread (the event loop's), for good.
    public func bindToCurrentThread() {
        owner.store(LoopConfinement.currentThread, ordering: .relaxed)
    }

    /// True on the owning thread, or before anything touched it (then the calling thread would own it).
    public var isOnLoop: Bool {
        let bound = owner.load(ordering: .relaxed)
        return bound == 0 || bound == LoopConfinement.currentThread
    }

    /// True on the owning thread only (not before anything owns it): where work for the loop may run at once.
    public var isOwnedByCurrentThread: Bool { owner.load(ordering: .relaxed) == LoopConfinement.currentThread }

    /// Stops the process when called off the owning thread (release builds too); the first call owns it.
    @inline(__always)
    public func check(_ function: StaticString = #function) {
        if owner.load(ordering: .relaxed) != LoopConfinement.currentThread { claim(function) }
    }

    /// The slow path: owned by nobody yet (the calling thread takes it), or a touch from the wrong thread.
    @inline(never)
    private func claim(_ function: StaticString) {
        let me = LoopConfinement.currentThread
        let (taken, holder) = owner.compareExchange(expected: 0, desired: me, ordering: .relaxed)
        precondition(taken || holder == me, "\(function) called off the daemon's event loop thread")
    }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}

/// A value that may be carried to any thread but read or changed only on its loop's (SwiftNIO's `NIOLoopBound`):
/// every access checks `confinement`, in release builds too, so a closure or object handed across threads cannot be
/// used on the wrong one by mistake.
public struct LoopBound<Value>: @unchecked Sendable {
    private let confinement: LoopConfinement
    private var stored: Value

    /// Binds `value` to the loop `confinement` guards (made on the loop's thread, or before the loop has one).
    public init(_ value: Value, confinement: LoopConfinement) {
        self.confinement = confinement
        self.stored = value
    }

    /// The value, on the loop's thread only.
    public var value: Value {
        get {
            confinement.check()
            return stored
        }
        set {
            confinement.check()
            stored = newValue
        }
    }
}
