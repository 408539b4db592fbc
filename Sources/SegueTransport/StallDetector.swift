#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SegueDaemon
import SegueLua
import Synchronization

/// The last line of defence (`daemon.stall_timeout_ms`): a thread that watches the event loop's heartbeat and, when
/// the loop has been away for longer than the timeout — whatever the reason: a gap in the library's charging, a bug
/// of ours, a host call that blocks — logs what the loop was running (request, plugin, function) and ends the
/// process with status 70 (EX_SOFTWARE), so a supervisor (systemd's `Restart=`) starts a fresh one. A daemon that
/// hangs silently is the one failure no client can work around.
///
/// Nothing legal holds the loop that long: every plugin call is bounded by the instruction budget and the
/// wall-clock backstop (`lua.call_timeout_ms`), every request by its own limits. Start-up (loading the plugins
/// before the socket opens) counts as one turn.
final class StallDetector: @unchecked Sendable {
    /// What one look at the heartbeat concludes.
    enum Verdict: Equatable {
        case fine
        /// The loop has not come back for this many nanoseconds.
        case stalled(nanoseconds: Int64)
    }

    /// The pure part: fed the time and the heartbeat, says whether the loop has been away too long.
    struct Watch {
        private var seenBeat: UInt64 = 0
        private var since: Int64

        init(now: Int64) { since = now }

        mutating func look(now: Int64, beat: UInt64, sleeping: Bool, timeoutNanoseconds: Int64) -> Verdict {
            if sleeping || beat != seenBeat {
                seenBeat = beat
                since = now
                return .fine
            }
            let away = now - since
            return away >= timeoutNanoseconds ? .stalled(nanoseconds: away) : .fine
        }
    }

    /// The timeout in force for `configured` ms: below systemd's watchdog when one is set (`watchdogPingNanoseconds`,
    /// half of `WatchdogSec`, as the ping timer uses), so the daemon names its stall before systemd kills it — at
    /// most three quarters of `WatchdogSec`, leaving the detector's look-interval to spare.
    static func effectiveTimeout(configured: Int, watchdogPingNanoseconds: Int64?) -> Int {
        guard let ping = watchdogPingNanoseconds, ping > 0 else { return configured }
        let limit = max(100, Int(ping * 3 / 2 / 1_000_000))
        return min(configured, limit)
    }

    let heartbeat: LoopHeartbeat
    let activity: LoopActivity
    private let timeoutMs: Atomic<Int>
    private let report: @Sendable (String) -> Void
    private var started = false
    private let stopped = Atomic<Bool>(false)

    /// `report` logs the line naming the stall; the process then exits with status 70.
    init(heartbeat: LoopHeartbeat, activity: LoopActivity, timeoutMs: Int, report: @escaping @Sendable (String) -> Void) {
        self.heartbeat = heartbeat
        self.activity = activity
        self.timeoutMs = Atomic(timeoutMs)
        self.report = report
    }

    /// The timeout in force.
    var timeoutMilliseconds: Int { timeoutMs.load(ordering: .relaxed) }

    /// Changes the timeout (a reload applies it at once).
    func setTimeout(milliseconds: Int) { timeoutMs.store(milliseconds, ordering: .relaxed) }

    /// Stops watching (the loop has returned: the process is on its way out).
    func stop() { stopped.store(true, ordering: .relaxed) }

    /// Starts the watching thread (once).
    func start() {
        guard !started else { return }
        started = true
        let box = Unmanaged.passRetained(self)
        var thread = pthread_t()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        pthread_attr_setstacksize(&attributes, 256 << 10)
        let made = pthread_create(&thread, &attributes, { raw in
            guard let raw else { return nil }
            Unmanaged<StallDetector>.fromOpaque(raw).takeRetainedValue().watch()
            return nil
        }, box.toOpaque())
        pthread_attr_destroy(&attributes)
        if made != 0 { box.release() }
    }

    private func watch() {
        var watch = Watch(now: FileSystem.monotonicNanoseconds())
        while !stopped.load(ordering: .relaxed) {
            let timeout = Int64(timeoutMs.load(ordering: .relaxed))
            // Look a few times per period, at most every 250 ms: an idle daemon wakes four times a second.
            var pause = timespec(tv_sec: 0, tv_nsec: Int(min(250, max(5, timeout / 4))) * 1_000_000)
            nanosleep(&pause, nil)
            let verdict = watch.look(
                now: FileSystem.monotonicNanoseconds(), beat: heartbeat.lastBeat, sleeping: heartbeat.isSleeping,
                timeoutNanoseconds: timeout * 1_000_000)
            if case .stalled(let nanoseconds) = verdict, !stopped.load(ordering: .relaxed) {
                // If the report itself cannot be written (stderr a full pipe, a log lock the stuck loop holds),
                // SIGALRM's default action still ends the process, non-zero, 3 s from now.
                // (The thread that made this one blocks most signals; this thread must take SIGALRM.)
                signal(SIGALRM, SIG_DFL)
                var alarmOnly = sigset_t()
                sigemptyset(&alarmOnly)
                sigaddset(&alarmOnly, SIGALRM)
                pthread_sigmask(SIG_UNBLOCK, &alarmOnly, nil)
                alarm(3)
                report(
                    "event loop stalled: no turn for \(nanoseconds / 1_000_000) ms (daemon.stall_timeout_ms = \(timeout)) while running \(activity.description); exiting with status 70 so a supervisor restarts segued")
                _exit(70)
            }
        }
    }
}
