#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// Which plugin function the engine thread is running, for the daemon's stall detector to name when the event loop
/// stops coming back. A plugin call is described once (`intern`: file, function, line) and known by its number from
/// then on, so entering and leaving a call is one atomic exchange and one atomic store — no lock, no copy, no
/// `lua_getinfo`. The detector reads the number, and the description it stands for, only when it reports.
public final class LuaActivity: Sendable {
    /// One plugin function being run.
    public struct Call: Sendable, Hashable, CustomStringConvertible {
        /// The plugin file.
        public let file: String
        /// What the engine called (`animate`, `duration`, `ended`, a callback), or nil when only the line is known.
        public let function: String?
        /// The line the Lua function is defined at (0 when not known).
        public let line: Int

        public init(file: String, function: String?, line: Int) {
            self.file = file
            self.function = function
            self.line = line
        }

        public var description: String {
            let name = function ?? "function"
            return line > 0 ? "\(file): \(name) (defined at line \(line))" : "\(file): \(name)"
        }
    }

    /// The process's record (the daemon runs plugins on one thread).
    public static let shared = LuaActivity()

    /// Descriptions kept at most (a daemon that reloads an edited plugin many times describes each new line once);
    /// past it a call is recorded as unknown (`call` is then nil while it runs).
    static let maxDescriptions = 1 << 16

    /// The number of the innermost call running now (0: none).
    private let current = Atomic<Int>(0)
    /// The described calls: number n is `described.calls[n - 1]`.
    private let described = Mutex<(calls: [Call], numbers: [Call: Int])>(([], [:]))

    public init() {}

    /// The innermost plugin call running now, if any.
    public var call: Call? {
        let number = current.load(ordering: .acquiring)
        guard number > 0 else { return nil }
        return described.withLock { $0.calls.indices.contains(number - 1) ? $0.calls[number - 1] : nil }
    }

    /// The number standing for `call` (the same number for the same description). Not on the per-call path: callers
    /// keep the number.
    func intern(_ call: Call) -> Int {
        described.withLock { table in
            if let number = table.numbers[call] { return number }
            guard table.calls.count < LuaActivity.maxDescriptions else { return 0 }
            table.calls.append(call)
            table.numbers[call] = table.calls.count
            return table.calls.count
        }
    }

    /// Records the described call `number` as running; returns what it replaces (a plugin call can run inside
    /// another one's host call), to give back to `leave`.
    @inline(__always)
    func enter(_ number: Int) -> Int { current.exchange(number, ordering: .acquiringAndReleasing) }

    /// Records `call` as running (interning it first); returns what it replaces.
    func enter(_ call: Call) -> Int { enter(intern(call)) }

    @inline(__always)
    func leave(restoring previous: Int) { current.store(previous, ordering: .releasing) }

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
