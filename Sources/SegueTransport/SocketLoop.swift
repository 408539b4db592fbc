#if canImport(Glibc)
import Glibc
#endif
import CEventLoop
import SegueDaemon
import SegueLua
import Synchronization

/// The daemon's event loop: one thread, level-triggered epoll over the listening socket and every connection, a
/// timerfd for timers, the plugins folder's inotify descriptor (`PluginWatcher`) and an eventfd for work handed over
/// from other threads (signals).
///
/// Hand-written instead of SwiftNIO's `MultiThreadedEventLoopGroup` because the request path is the hot path of
/// docs/DESIGN.md §5's ping target: a bare NIO echo server already spends ~1.9 µs of CPU per round trip where Redis
/// spends
/// ~0.6 µs, so a NIO-based daemon could not reach Redis's throughput on this machine (README, "Performance"). A
/// request here costs a share of one `epoll_wait`, one `read` and one `write`, as in Redis.
final class SocketLoop: DaemonLoop, @unchecked Sendable {
    private let epoll: Int32
    private let wakeFD: Int32
    private let timerFD: Int32
    private static let wakeToken: UInt64 = 1
    private static let timerToken: UInt64 = 2
    @exclusivity(unchecked) private var handlers: [UInt64: any LoopHandler] = [:]
    @exclusivity(unchecked) private var nextToken: UInt64 = 3
    @exclusivity(unchecked) private var timers = TimerHeap()
    @exclusivity(unchecked) private var armedDeadline: Int64 = 0
    /// Work from other threads; `wakePending` says the eventfd has been signalled and not yet drained.
    private let inbox = Mutex<(work: [@Sendable () -> Void], wakePending: Bool)>(([], false))
    private let stopFlag = Atomic<Bool>(false)
    /// The thread the loop runs on: bound by `run()`; the descriptors and timers are touched there only (checked in
    /// release builds too), and work from elsewhere is carried there as a `LoopBound` value.
    let confinement: LoopConfinement
    /// The window of the adaptive spin (`daemon.spin_us`; 0: never spin): after a turn that served a connection,
    /// the loop polls for the next request for up to this long before it sleeps — but only while requests have been
    /// coming within the window (`SpinGauge`).
    @exclusivity(unchecked) var spinNanoseconds: Int64 = 0 {
        didSet { spinGauge = SpinGauge(window: spinNanoseconds) }
    }
    /// How soon after a served turn the next request has been coming: decides whether to spin.
    @exclusivity(unchecked) private(set) var spinGauge = SpinGauge(window: 0)
    /// Told of every turn, and of every sleep in `epoll_wait` (the stall detector watches it).
    let heartbeat = LoopHeartbeat()
    /// Writes out what the connections have queued (`Daemon.flushPending`, the one place their bytes go out): the
    /// loop calls it before it polls (and maybe sleeps), and after serving ready sockets, before the timers run (a
    /// realtime scene's tick can be long: the answers to the requests just read do not wait for it).
    @exclusivity(unchecked) var flushOutput: (() -> Void)?

    /// `confinement`: the daemon's, when the loop serves one (the server's), so the loop's thread owns both.
    init(confinement: LoopConfinement = LoopConfinement()) throws(ServerError) {
        self.confinement = confinement
        epoll = seg_epoll_create()
        wakeFD = seg_eventfd()
        timerFD = seg_timerfd()
        guard epoll >= 0, wakeFD >= 0, timerFD >= 0 else {
            throw ServerError(message: "cannot create the event loop: \(String(cString: strerror(errno)))")
        }
        _ = seg_epoll_set(epoll, wakeFD, LoopEvents.readable.rawValue, SocketLoop.wakeToken, 1)
        _ = seg_epoll_set(epoll, timerFD, LoopEvents.readable.rawValue, SocketLoop.timerToken, 1)
    }

    deinit {
        close(epoll)
        close(wakeFD)
        close(timerFD)
    }

    // MARK: Descriptors (loop thread)

    /// Watches `fd` for `events`; returns the token to change or remove it with.
    func register(_ handler: any LoopHandler, fd: Int32, events: LoopEvents) -> UInt64? {
        confinement.check()
        let token = nextToken
        nextToken += 1
        guard seg_epoll_set(epoll, fd, events.rawValue, token, 1) == 0 else { return nil }
        handlers[token] = handler
        return token
    }

    func update(fd: Int32, token: UInt64, events: LoopEvents) {
        confinement.check()
        _ = seg_epoll_set(epoll, fd, events.rawValue, token, 0)
    }

    /// Stops watching `fd` (before it is closed: its number may be reused at once).
    func unregister(fd: Int32, token: UInt64) {
        confinement.check()
        _ = seg_epoll_remove(epoll, fd)
        handlers[token] = nil
    }

    // MARK: Work and timers

    /// Runs `work` on the loop, from any thread (after the current round of events when called on the loop).
    func execute(_ work: @escaping @Sendable () -> Void) {
        let signal = inbox.withLock { state -> Bool in
            state.work.append(work)
            if state.wakePending { return false }
            state.wakePending = true
            return true
        }
        if signal { seg_eventfd_signal(wakeFD) }
    }

    /// True on the thread that runs the loop.
    var inLoop: Bool { confinement.isOwnedByCurrentThread }

    /// Runs `action` once after `nanoseconds` (loop thread only; use `scheduleFromAnyThread` elsewhere).
    @discardableResult
    func schedule(in nanoseconds: Int64, every interval: Int64 = 0, _ action: @escaping () -> Void) -> LoopTimer {
        confinement.check()
        let timer = LoopTimer(deadline: FileSystem.monotonicNanoseconds() + max(0, nanoseconds),
                              interval: max(0, interval), action: action)
        timers.push(timer)
        return timer
    }

    /// `schedule(in:)` from whichever thread: hops onto the loop first when needed.
    func scheduleFromAnyThread(in nanoseconds: Int64, _ action: @escaping () -> Void) {
        if inLoop {
            schedule(in: nanoseconds, action)
            return
        }
        let bound = LoopBound(action, confinement: confinement)
        execute { [weak self] in self?.schedule(in: nanoseconds, bound.value) }
    }

    /// Makes `run()` return after the current round (from any thread).
    func stop() {
        stopFlag.store(true, ordering: .relaxed)
        execute {}
    }

    // MARK: Running

    /// Runs the loop on the calling thread until `stop()`.
    func run() {
        confinement.bindToCurrentThread()
        var events = [seg_event](repeating: seg_event(), count: 64)
        var busy = false
        while !stopFlag.load(ordering: .relaxed) {
            flushOutput?()
            heartbeat.beat()
            armTimer()
            var count: Int32 = 0
            // When the last turn served a connection, the time it ended (the gauge measures the gap from there).
            let measuring = busy && spinGauge.isOn
            let servedAt = measuring ? FileSystem.monotonicNanoseconds() : 0
            if measuring, spinGauge.shouldSpin {
                // Requests have been coming within the window: poll for the next one a little (yielding the core to
                // anyone runnable) before sleeping, so it does not also pay for waking an idle core. Under load the
                // first look finds work.
                count = poll(&events)
                if count == 0 {
                    let until = servedAt + spinNanoseconds
                    repeat {
                        sched_yield()
                        count = poll(&events)
                    } while count == 0 && FileSystem.monotonicNanoseconds() < until
                }
            }
            if count == 0 {
                heartbeat.sleeping()
                count = poll(&events, timeoutMs: -1)
                heartbeat.beat()
            }
            if measuring {
                // Only a connection's readiness is a request arriving; a timer or a hand-over says nothing of it.
                var served = false
                for i in 0..<Int(max(0, count)) where events[i].token > SocketLoop.timerToken { served = true }
                if served { spinGauge.record(gap: FileSystem.monotonicNanoseconds() - servedAt) }
            }
            busy = false
            var woken = false
            for i in 0..<Int(max(0, count)) {
                let event = events[i]
                switch event.token {
                case SocketLoop.wakeToken: woken = true
                case SocketLoop.timerToken:
                    seg_timerfd_drain(timerFD)
                    armedDeadline = 0  // the one-shot has fired: the next deadline must be armed, even an equal one
                default:
                    handlers[event.token]?.ready(LoopEvents(rawValue: event.events))
                    busy = true
                    // The answers of a connection go out as soon as it is served, not after every ready connection
                    // was read: its client starts the next request while the loop reads the others (8 connections:
                    // 0.91× Redis and 1.06× its CPU per request with one flush per turn, 1.09–1.13× and 0.86–0.89×
                    // with this one; the same syscalls either way).
                    flushOutput?()
                }
            }
            if !timers.isEmpty { runDueTimers() }
            if woken { runInbox() }
        }
    }

    /// One `epoll_wait` into `events` (0: don't wait; -1: until something is ready).
    private func poll(_ events: inout [seg_event], timeoutMs: Int32 = 0) -> Int32 {
        events.withUnsafeMutableBufferPointer { seg_epoll_wait(epoll, $0.baseAddress, Int32($0.count), timeoutMs) }
    }

    private func runInbox() {
        seg_eventfd_drain(wakeFD)
        let work = inbox.withLock { state -> [@Sendable () -> Void] in
            state.wakePending = false
            let taken = state.work
            state.work.removeAll()
            return taken
        }
        for item in work { item() }
    }

    private func runDueTimers() {
        let now = FileSystem.monotonicNanoseconds()
        while let timer = timers.first, timer.deadline <= now || timer.action == nil {
            timers.popFirst()
            guard let action = timer.action else { continue }
            if timer.interval > 0 {
                // On its grid: the next deadline is a whole number of intervals after this one, the first not yet
                // passed (a late turn skips the grid times it missed rather than moving the grid).
                let missed = (now - timer.deadline) / timer.interval
                timer.deadline += (missed + 1) * timer.interval
                timers.push(timer)
            } else {
                timer.action = nil
            }
            action()
        }
    }

    /// Points the timerfd at the earliest live deadline (cancelled timers at the top are dropped first).
    private func armTimer() {
        while let timer = timers.first, timer.action == nil { timers.popFirst() }
        let deadline = timers.first?.deadline ?? 0
        guard deadline != armedDeadline else { return }
        armedDeadline = deadline
        // A deadline already passed makes the timerfd fire at once; 0 disarms it.
        _ = seg_timerfd_arm(timerFD, deadline)
    }
}

/// A binary min-heap of timers by deadline (ties: first scheduled first).
private struct TimerHeap {
    private var items: [(timer: LoopTimer, order: UInt64)] = []
    private var counter: UInt64 = 0

    var isEmpty: Bool { items.isEmpty }
    var first: LoopTimer? { items.first?.timer }

    private func less(_ a: Int, _ b: Int) -> Bool {
        let x = items[a], y = items[b]
        return x.timer.deadline != y.timer.deadline ? x.timer.deadline < y.timer.deadline : x.order < y.order
    }

    mutating func push(_ timer: LoopTimer) {
        counter += 1
        items.append((timer, counter))
        var child = items.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard less(child, parent) else { break }
            items.swapAt(child, parent)
            child = parent
        }
    }

    mutating func popFirst() {
        guard !items.isEmpty else { return }
        items.swapAt(0, items.count - 1)
        items.removeLast()
        var parent = 0
        while true {
            let left = 2 * parent + 1, right = left + 1
            var smallest = parent
            if left < items.count, less(left, smallest) { smallest = left }
            if right < items.count, less(right, smallest) { smallest = right }
            guard smallest != parent else { return }
            items.swapAt(parent, smallest)
            parent = smallest
        }
    }
}
