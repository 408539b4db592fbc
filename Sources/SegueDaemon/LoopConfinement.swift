#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The assertion behind the daemon's `@exclusivity(unchecked)` and `@unchecked Sendable`: its state (dispatch, the
/// scene registry, the plugin service, the connections) is touched only on the event loop's thread.
///
/// The server binds it to the loop's thread when the loop starts (`bindToCurrentThread`); from then on `check()`
/// stops a debug build at the first touch from any other thread. Until it is bound (tests that step the daemon by
/// hand, start-up before the loop runs) there is no loop to be on, and nothing is checked. In a release build
/// `check()` is empty: `assert` is compiled out.
public final class LoopConfinement: Sendable {
    /// The loop thread's `pthread_self()`, or 0 while unbound.
    private let owner = Atomic<UInt>(0)

    public init() {}

    /// Binds the daemon to the calling thread (the event loop's), for good.
    public func bindToCurrentThread() {
        owner.store(LoopConfinement.currentThread, ordering: .relaxed)
    }

    /// True on the bound thread, or when unbound.
    var isOnLoop: Bool {
        let bound = owner.load(ordering: .relaxed)
        return bound == 0 || bound == LoopConfinement.currentThread
    }

    /// Debug builds: stops when called off the loop's thread. Release builds: nothing.
    @inline(__always)
    func check(_ function: StaticString = #function) {
        assert(isOnLoop, "\(function) called off the daemon's event loop thread")
    }

    private static var currentThread: UInt { UInt(bitPattern: Int(bitPattern: pthread_self())) }
}
