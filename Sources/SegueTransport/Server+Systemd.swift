import SegueDaemon
import SegueLua

/// The service manager's side of a running server: `READY=1` and the watchdog's heartbeat.
extension Server {
    /// Tells systemd the daemon serves (plugins loaded, socket listening) and, when the unit sets `WatchdogSec=`,
    /// starts sending `WATCHDOG=1` every half period. The heartbeat is a timer on the event loop itself: a loop that
    /// stalls stops it, and systemd restarts the daemon.
    func notifySystemd() {
        guard let notifier else { return }
        notifier.send("READY=1\nSTATUS=serving on \(daemon.config.socketPath)")
        if let interval = SystemdNotifier.environmentWatchdogInterval {
            watchdogInterval = Int64(interval)
            watchdogTimer = loop.schedule(in: interval, every: interval) { [weak self] in self?.feedWatchdog() }
            daemon.logger.info("systemd watchdog on", metadata: ["watchdog.interval_ms": "\(interval / 1_000_000)"])
        }
    }

    /// Sends `WATCHDOG=1` now.
    func feedWatchdog() {
        watchdogSentAt = FileSystem.monotonicNanoseconds()
        notifier?.send("WATCHDOG=1")
    }

    /// A frame of a long request is done: the loop is not stalled (the heartbeat moves), and systemd's watchdog,
    /// whose timer cannot fire until the request ends, is fed when its period has passed.
    func progress() {
        loop.heartbeat.beat()
        if let interval = watchdogInterval, FileSystem.monotonicNanoseconds() - watchdogSentAt >= interval {
            feedWatchdog()
        }
    }
}
