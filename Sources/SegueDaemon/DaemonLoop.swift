/// The daemon's side of its event loop: what the plugins folder's watcher and the realtime frame grid need from the
/// loop (a descriptor watched, a timer), without the daemon knowing sockets or epoll. The transport's `SocketLoop`
/// (SegueTransport) implements it; the daemon is given one by the server (`PluginService.loop`), and in-process tests
/// that step the daemon by hand have none.
package protocol DaemonLoop: AnyObject {
    /// Watches `fd` for `events`; returns the token to change or remove it with.
    func register(_ handler: any LoopHandler, fd: Int32, events: LoopEvents) -> UInt64?
    func update(fd: Int32, token: UInt64, events: LoopEvents)
    /// Stops watching `fd` (before it is closed: its number may be reused at once).
    func unregister(fd: Int32, token: UInt64)
    /// Runs `action` after `nanoseconds` (every `interval` when it is above 0), on the loop's thread.
    @discardableResult
    func schedule(in nanoseconds: Int64, every interval: Int64, _ action: @escaping () -> Void) -> LoopTimer
}

extension DaemonLoop {
    /// Runs `action` once after `nanoseconds`.
    @discardableResult
    package func schedule(in nanoseconds: Int64, _ action: @escaping () -> Void) -> LoopTimer {
        schedule(in: nanoseconds, every: 0, action)
    }
}

/// Something registered with the loop: told how its descriptor is ready (`LoopEvents`).
package protocol LoopHandler: AnyObject {
    func ready(_ events: LoopEvents)
}

/// An action the loop runs at a deadline (once, or every `interval`); `cancel()` keeps it from running again.
public final class LoopTimer {
    package var deadline: Int64
    package let interval: Int64
    package var action: (() -> Void)?

    package init(deadline: Int64, interval: Int64, action: @escaping () -> Void) {
        self.deadline = deadline
        self.interval = interval
        self.action = action
    }

    public func cancel() { action = nil }
}

