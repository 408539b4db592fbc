import CLuaShim
import Foundation
import Synchronization
import Testing

@testable import SegueLua

/// The wall-clock backstop with many states (issue 24): arming and disarming is O(1) per call and per state (no
/// registry of every state), and the watcher looks only at running calls. These hold its behaviour there: runaway
/// calls are stopped whatever else exists, on any thread, and states come and go freely. Outcomes only, no times.
@Suite("The wall-clock backstop with many states")
struct WatchdogScaleTests {
    /// Runs a chunk as one top-level call of a bare state; the error message, or nil when it returned.
    static func call(_ state: LuaState, _ code: String) -> String? {
        let base = state.top
        defer { state.setTop(base) }
        if let error = state.load(code, chunkName: "=snippet") { return error.message }
        return state.call(args: 0, results: 1, topLevel: true)?.message
    }

    @Test("a runaway call is stopped among thousands of states with timeouts, made and closed in any order")
    func manyStates() throws {
        var states: [LuaState] = []
        // More distinct timeouts than the watchdog keeps in its table (16), so its fallback for the smallest one is
        // used too; every state gets a long timeout, so only the small one decides the tick.
        for i in 0..<3000 {
            guard let state = LuaState(memoryLimit: 1 << 20, instructionBudget: 0, callTimeoutMs: 60_000 + i % 40) else {
                Issue.record("no state")
                return
            }
            states.append(state)
        }
        // Close every other one (the watchdog counts each timeout out again).
        states = states.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
        for state in states.prefix(100) { #expect(Self.call(state, "return 1") == nil) }
        let runaway = try #require(LuaState(memoryLimit: 1 << 20, instructionBudget: 0, callTimeoutMs: 30))
        #expect(Self.call(runaway, "while true do end")?.contains("call timed out") == true)
        #expect(Self.call(runaway, "return 'alive'") == nil)
        states.removeAll()
        #expect(Self.call(runaway, "while true do end")?.contains("call timed out") == true)
    }

    @Test("runaway calls on several threads at once are each stopped, and a thread that exits is forgotten")
    func threads() throws {
        let stopped = Mutex(0)
        let group = DispatchGroup()
        for _ in 0..<4 {
            group.enter()
            Thread.detachNewThread {
                defer { group.leave() }
                guard let state = LuaState(memoryLimit: 1 << 20, instructionBudget: 0, callTimeoutMs: 30) else { return }
                for _ in 0..<2 where Self.call(state, "while true do end")?.contains("call timed out") == true {
                    stopped.withLock { $0 += 1 }
                }
            }
        }
        #expect(group.wait(timeout: .now() + 60) == .success)
        #expect(stopped.withLock { $0 } == 8)
        // The threads are gone (their records with them); this thread's calls are still watched.
        let state = try #require(LuaState(memoryLimit: 1 << 20, instructionBudget: 0, callTimeoutMs: 30))
        #expect(Self.call(state, "while true do end")?.contains("call timed out") == true)
    }

    @Test("random interleavings of states made, re-timed, called and closed keep the backstop's outcomes")
    func fuzz() throws {
        var generator = WatchdogMix(seed: 24)
        var states: [(LuaState, Int)] = []
        var runaways = 0
        for _ in 0..<2000 {
            switch generator.next() % 10 {
            case 0...3:
                let timeout = [0, 25, 30, 40, 60_000, 120_000][Int(generator.next() % 6)]
                if let state = LuaState(memoryLimit: 1 << 20, instructionBudget: 0, callTimeoutMs: timeout) {
                    states.append((state, timeout))
                }
            case 4, 5:
                if !states.isEmpty { states.remove(at: Int(generator.next() % UInt64(states.count))) }
            case 6:
                // A new timeout between calls (a config reload does this).
                guard !states.isEmpty else { continue }
                let i = Int(generator.next() % UInt64(states.count))
                let timeout = [0, 30, 60_000][Int(generator.next() % 3)]
                segue_set_call_timeout(states[i].0.main, Int32(timeout))
                states[i].1 = timeout
            case 7, 8:
                guard !states.isEmpty else { continue }
                let (state, _) = states[Int(generator.next() % UInt64(states.count))]
                #expect(Self.call(state, "local n = 0 for i = 1, 100 do n = n + i end return n") == nil)
            default:
                // A runaway call, only where the timeout is short (a long one would hold the test).
                guard runaways < 6, let (state, timeout) = states.first(where: { $0.1 > 0 && $0.1 <= 40 }) else { continue }
                runaways += 1
                #expect(Self.call(state, "while true do end")?.contains("call timed out") == true, "timeout \(timeout)")
                #expect(Self.call(state, "return 1") == nil)
            }
        }
        #expect(runaways > 0)
    }
}

/// A small deterministic generator for the fuzz test (WatchdogMix64).
struct WatchdogMix {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
