/// Engine settings (config `[engine]` and the view limit), each with its documented default.
public struct EngineConfig: Sendable, Equatable {
    /// Frames per second of realtime scenes and of manual clock steps (60).
    public var fps: Int = 60
    /// The watchdog completes a transition after duration × factor + grace of scene time (2.0).
    public var watchdogFactor: Double = 2.0
    /// (1000 ms)
    public var watchdogGraceMs: Int = 1000
    /// Declared durations above this are clamped with a `plugin.warning` (60 s).
    public var maxDurationS: Double = 60
    /// Finished transitions kept per scene (64).
    public var timelineRetention: Int = 64
    /// The most bytes of finished transitions (their records and recorded timelines, `Transition.retainedBytes`)
    /// kept per scene; the oldest are forgotten first, the newest one is always kept (30 KiB: a scene of a
    /// container and two view controllers keeps its last four transitions, 6.5–7.1 KB each, and its engine side
    /// stays under 50 KB however many ran — `segue-bench memory`, docs/DESIGN.md §3).
    public var timelineRetentionBytes: Int = 30 << 10
    /// Views per scene (10 000).
    public var maxViewsPerScene: Int = 10_000
    /// modal.present's style when the request names none and no presentation plugin (`engine.modal_default_style`:
    /// fullScreen, protocol 1's default, or automatic, today's UIKit default).
    public var modalDefaultStyle: PresentationStyle = .fullScreen

    public init() {}
}

/// A scene's clock: advanced only by the client (`manual`) or by wall time at `fps` (`realtime`).
public enum ClockMode: String, Sendable {
    case manual, realtime
}
