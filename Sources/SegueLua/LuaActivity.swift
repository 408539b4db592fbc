#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Which plugin function the engine thread is running, for the daemon's stall detector to name when the event loop
/// stops coming back. Written around every plugin call (a lock taken twice, no allocation), read only by the
/// detector.
public final class LuaActivity: Sendable {
    /// One plugin function being run.
    public struct Call: Sendable, CustomStringConvertible {
        /// The plugin file.
        public let file: String
        /// What the engine called (`animate`, `duration`, `ended`, a callback), or nil when only the line is known.
        public let function: String?
        /// The line the Lua function is defined at (0 when not known).
        public let line: Int

        public var description: String {
            let name = function ?? "function"
            return line > 0 ? "\(file): \(name) (defined at line \(line))" : "\(file): \(name)"
        }
    }

    /// The process's record (the daemon runs plugins on one thread).
    public static let shared = LuaActivity()

    private let current = Mutex<Call?>(nil)

    public init() {}

    /// The innermost plugin call running now, if any.
    public var call: Call? { current.withLock { $0 } }

    /// Records `call` as running; returns what it replaces (a plugin call can run inside another one's host call).
    func enter(_ call: Call) -> Call? {
        current.withLock { state in
            let previous = state
            state = call
            return previous
        }
    }

    func leave(restoring previous: Call?) { current.withLock { $0 = previous } }

    /// `SEGUED_TEST_STALL_MS`, read once: when set (> 0), `segue.log("segued:test-stall")` holds the engine thread
    /// that long inside a host function, where neither the instruction budget nor the wall-clock backstop can stop
    /// it. It exists so the stall detector can be tested against the real binary; it is read from the daemon's own
    /// environment only, so no client can turn it on, and it is off unless set.
    static let testStallMilliseconds: Int = {
        guard let text = getenv("SEGUED_TEST_STALL_MS"), let ms = Int(String(cString: text)), ms > 0 else { return 0 }
        return min(ms, 600_000)
    }()

    /// Holds the calling thread for `testStallMilliseconds` (through signals: the backstop's SIGURG ends a sleep).
    static func testStall() {
        var now = timespec()
        clock_gettime(CLOCK_MONOTONIC, &now)
        let until = Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec) + Int64(testStallMilliseconds) * 1_000_000
        while true {
            clock_gettime(CLOCK_MONOTONIC, &now)
            let left = until - (Int64(now.tv_sec) * 1_000_000_000 + Int64(now.tv_nsec))
            if left <= 0 { return }
            var pause = timespec(tv_sec: Int(left / 1_000_000_000), tv_nsec: Int(left % 1_000_000_000))
            nanosleep(&pause, nil)
        }
    }
}
