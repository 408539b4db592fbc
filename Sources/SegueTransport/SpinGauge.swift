/// Decides the event loop's spin (`daemon.spin_us`): after serving a request, poll for the next one for up to the
/// window instead of sleeping — only while that pays. Polling costs CPU for as long as it waits; sleeping costs a
/// wake-up. So the loop spins only when requests have been arriving within the window: it keeps a decaying average
/// of the gap between the end of a turn that served a connection and the next request (found by the spin or after
/// a sleep), and spins while that average is within the window.
///
/// A client doing one round trip at a time with a turnaround longer than the window gets no spin and costs the
/// daemon no CPU between requests; requests that follow each other closely (several connections, pipelining
/// clients) are caught without a sleep. A spin that ran out, and the sleep after it, count as one long gap, so the
/// average climbs out of the window after a miss or two and the spin stops until requests come close again.
struct SpinGauge {
    /// The window (ns); 0 turns the spin off.
    let window: Int64
    /// The decaying average of the gaps (ns), weighing the latest one ¼.
    private(set) var averageGap: Int64 = 0

    init(window: Int64) {
        self.window = max(0, window)
    }

    var isOn: Bool { window > 0 }

    /// Whether to spin after this turn.
    var shouldSpin: Bool { window > 0 && averageGap <= window }

    /// A gap measured from the end of a served turn to the next request. A gap beyond the window counts as four
    /// windows at most, so one long idle spell does not keep the spin off for long once requests come close again.
    mutating func record(gap: Int64) {
        let clamped = min(max(0, gap), 4 * window)
        averageGap = (3 * averageGap + clamped) / 4
    }
}
