import Testing

@testable import SegueDaemon
@testable import SegueTransport

/// The adaptive spin: the loop polls for the next request only while requests have been arriving within the window.
@Suite("The adaptive spin")
struct SpinGaugeTests {
    @Test("a window of 0 never spins")
    func off() {
        var gauge = SpinGauge(window: 0)
        #expect(!gauge.isOn && !gauge.shouldSpin)
        gauge.record(gap: 0)
        #expect(!gauge.shouldSpin)
    }

    @Test("requests arriving within the window keep the spin on")
    func closeRequests() {
        var gauge = SpinGauge(window: 50_000)
        #expect(gauge.shouldSpin)
        for _ in 0..<20 { gauge.record(gap: 4_000) }
        #expect(gauge.shouldSpin)
        for _ in 0..<20 { gauge.record(gap: 40_000) }
        #expect(gauge.shouldSpin)
        #expect(gauge.averageGap <= 40_000)
    }

    @Test("gaps longer than the window stop the spin after a few; close requests start it again")
    func decays() {
        var gauge = SpinGauge(window: 10_000)
        var missesUntilOff = 0
        while gauge.shouldSpin {
            gauge.record(gap: 1_000_000_000)  // an idle second
            missesUntilOff += 1
        }
        #expect(missesUntilOff == 2)
        // One idle spell counts as four windows at most: a handful of close requests turn the spin back on.
        var hitsUntilOn = 0
        while !gauge.shouldSpin {
            gauge.record(gap: 2_000)
            hitsUntilOn += 1
        }
        #expect(hitsUntilOn <= 6)
        // A client whose turnaround is longer than the window (a round trip at a time) gets no spin at all.
        for _ in 0..<20 { gauge.record(gap: 17_000) }
        #expect(!gauge.shouldSpin)
    }
}
