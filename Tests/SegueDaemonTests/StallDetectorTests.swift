import Testing

@testable import SegueDaemon
@testable import SegueTransport
@testable import SegueLua

/// The stall detector's reasoning, on a manual clock: only a loop that is awake and has not turned for the whole
/// timeout is stalled.
@Suite("Stall detector")
struct StallDetectorTests {
    let ms: Int64 = 1_000_000

    @Test("a loop that keeps turning, or sleeps waiting for events, is never stalled")
    func turningOrSleeping() {
        var watch = StallDetector.Watch(now: 0)
        var beat: UInt64 = 0
        for t in stride(from: Int64(0), to: 100_000, by: 900) {
            beat += 1
            #expect(watch.look(now: t * ms, beat: beat, sleeping: false, timeoutNanoseconds: 1000 * ms) == .fine)
        }
        // Asleep in epoll_wait for a minute without a beat: idle, not stalled.
        for t in stride(from: Int64(100_000), to: 160_000, by: 250) {
            #expect(watch.look(now: t * ms, beat: beat, sleeping: true, timeoutNanoseconds: 1000 * ms) == .fine)
        }
    }

    @Test("an awake loop with no turn for the timeout is stalled, and the count says for how long")
    func stalled() {
        var watch = StallDetector.Watch(now: 0)
        #expect(watch.look(now: 0, beat: 7, sleeping: false, timeoutNanoseconds: 1000 * ms) == .fine)
        #expect(watch.look(now: 999 * ms, beat: 7, sleeping: false, timeoutNanoseconds: 1000 * ms) == .fine)
        #expect(watch.look(now: 1000 * ms, beat: 7, sleeping: false, timeoutNanoseconds: 1000 * ms)
            == .stalled(nanoseconds: 1000 * ms))
        // It woke from a sleep and has not turned since: counted from the wake.
        var woke = StallDetector.Watch(now: 0)
        #expect(woke.look(now: 5000 * ms, beat: 3, sleeping: true, timeoutNanoseconds: 1000 * ms) == .fine)
        #expect(woke.look(now: 5500 * ms, beat: 3, sleeping: false, timeoutNanoseconds: 1000 * ms) == .fine)
        #expect(woke.look(now: 6000 * ms, beat: 3, sleeping: false, timeoutNanoseconds: 1000 * ms)
            == .stalled(nanoseconds: 1000 * ms))
    }

    @Test("under systemd's watchdog the timeout stays below WatchdogSec, so the stall is named before systemd kills")
    func belowWatchdog() {
        #expect(StallDetector.effectiveTimeout(configured: 10_000, watchdogPingNanoseconds: nil) == 10_000)
        // WatchdogSec=10: pings every 5 s; the detector fires within 7.5 s.
        #expect(StallDetector.effectiveTimeout(configured: 10_000, watchdogPingNanoseconds: 5_000 * ms) == 7_500)
        #expect(StallDetector.effectiveTimeout(configured: 2_000, watchdogPingNanoseconds: 5_000 * ms) == 2_000)
        #expect(StallDetector.effectiveTimeout(configured: 10_000, watchdogPingNanoseconds: 10 * ms) == 100)
    }

    @Test("the heartbeat counts turns and says when the loop sleeps")
    func heartbeat() {
        let heartbeat = LoopHeartbeat()
        #expect(heartbeat.lastBeat == 0)
        heartbeat.beat()
        heartbeat.beat()
        #expect(heartbeat.lastBeat == 2)
        #expect(!heartbeat.isSleeping)
        heartbeat.sleeping()
        #expect(heartbeat.isSleeping)
        heartbeat.beat()
        #expect(!heartbeat.isSleeping)
    }

    @Test("the activity record names the request and the plugin function, and forgets them when done")
    func activity() {
        let lua = LuaActivity()
        let activity = LoopActivity(names: ["container.select", "clock.advance"], lua: lua)
        #expect(activity.description == "no request (a timer, a frame or a reload)")
        activity.serving(method: 0, id: .string("sel-7"))
        let outer = lua.enter(LuaActivity.Call(file: "plugins/stall.lua", function: "animate", line: 3))
        #expect(activity.description
            == #"request container.select (id "sel-7"), plugin plugins/stall.lua: animate (defined at line 3)"#)
        lua.leave(restoring: outer)
        activity.served()
        #expect(activity.description == "no request (a timer, a frame or a reload)")
        activity.serving(method: 1, id: nil)
        #expect(activity.description == "request clock.advance (a notification)")
    }

    @Test("the activity record names every kind of id, short ones packed in a word and long ones under the lock")
    func activityIDs() {
        let activity = LoopActivity(names: ["daemon.ping"], lua: LuaActivity())
        let cases: [(RequestID, String)] = [
            (.null, "(id null)"), (.number("7"), "(id 7)"), (.number("-1.5e3"), "(id -1.5e3)"),
            (.number("1234567"), "(id 1234567)"), (.number("12345678901234567890"), "(id 12345678901234567890)"),
            (.string(""), #"(id "")"#), (.string("abcdefg"), #"(id "abcdefg")"#),
            (.string("abcdefgh"), #"(id "abcdefgh")"#), (.string("é\\"), #"(id "é\\")"#),
        ]
        for (id, text) in cases {
            activity.serving(method: 0, id: id)
            #expect(activity.description == "request daemon.ping \(text)")
            activity.served()
        }
        // A short id after a long one is not read from the lock's stale copy.
        activity.serving(method: 0, id: .string("a-long-request-id"))
        activity.serving(method: 0, id: 42)
        #expect(activity.description == "request daemon.ping (id 42)")
    }

    @Test("a packed id is the id: up to 7 bytes fit, more do not")
    func packedID() {
        for id: RequestID? in [nil, .null, .number("0"), .number("9999999"), .string("ü-7"), .string("")] {
            #expect(PackedID(id)?.id == id)
        }
        #expect(PackedID(.number("12345678")) == nil)
        #expect(PackedID(.string("ab\u{1F600}cd")) == nil)  // 8 bytes of UTF-8
    }
}
