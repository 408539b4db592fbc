import ArgumentParser
import Foundation
import Logging
import SegueDaemon
import SegueKit

/// `segue-bench crowd`: what a realtime transition costs in process against the number of scenes — the realtime
/// benchmark's work (ticks on a 60 fps grid, a dt-slide select back to back in every scene) without the socket or
/// the wall clock, so the CPU per transition at 1 scene and at 10 000 can be compared in one run.
struct Crowd: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "In process: CPU per transition and per scene-frame against the number of scenes (realtime's work).",
        discussion: """
            For each count in --scenes: a daemon (in process, with the repository's plugins: run from its folder) \
            with that many scenes at 60 fps on manual clocks, each a custom container of two view controllers as \
            its root. Every frame (1/60 s of scene time) each scene is ticked as the frame grid ticks a realtime \
            scene (Daemon.tickRealtime) and a scene left idle gets its next dt-slide container.select through \
            Daemon.handle (every reply checked) — the realtime benchmark's back-to-back transitions. After --warm-up \
            frames, --frames frames (at least 20 000 scene-frames) are timed (thread CPU): CPU per transition (its select, its frames, its \
            completion) and per scene-frame. A cost that grows with the count is the working set (caches), not the \
            work: the instructions are the same (run it under callgrind with one count at a time).
            """)

    @Option(help: "Scene counts, comma-separated.")
    var scenes: String = "1,100,1000,5000"

    @Option(help: "Frames timed per count.")
    var frames: Int = 120

    @Option(name: .customLong("warm-up"), help: "Frames before the timed ones.")
    var warmUp: Int = 60

    func run() throws {
        let counts = scenes.split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
        guard !counts.isEmpty, counts.allSatisfy({ $0 >= 1 }), frames >= 1, warmUp >= 0 else {
            throw ValidationError("--scenes N,M,… (each ≥ 1), --frames ≥ 1, --warm-up ≥ 0")
        }
        var first: Double?
        for count in counts {
            let (perTransition, perSceneFrame, transitions) = try measure(scenes: max(1, count))
            if first == nil { first = perTransition }
            print(String(format: "crowd  scenes=%d: %.1f µs CPU per transition (%d transitions), %.2f µs per scene-frame; ÷ %d scene(s): %.2f×",
                         count, perTransition, transitions, perSceneFrame, counts[0], perTransition / (first ?? perTransition)))
        }
    }

    func measure(scenes count: Int) throws -> (perTransition: Double, perSceneFrame: Double, transitions: Int) {
        var config = DaemonConfig()
        config.pluginsDir = FileManager.default.currentDirectoryPath + "/plugins"
        config.limits.maxScenes = count + 16
        // The wall-clock backstop at its largest: under callgrind a plugin call runs ~50× slower (the same path, armed
        // and disarmed per call; only a call past a minute is stopped).
        config.lua.callTimeoutMs = 60_000
        var logger = Logger(label: "bench")
        logger.logLevel = .error
        let daemon = Daemon(config: config, logger: logger)
        daemon.start()
        let connection = daemon.connect(output: Dispatch.NullOutput())
        func call(_ method: String, _ params: String, check: String = "\"result\"") throws {
            let line = #"{"jsonrpc":"2.0","id":1,"method":""# + method + #"","params":"# + params + "}"
            let reply = daemon.handle(line: line, from: connection) ?? ""
            // Checked by bytes: Foundation's String.contains cost the bench ~20 000 instructions per select.
            guard Crowd.contains(reply, check) else { throw ValidationError("\(method) answered \(reply)") }
        }
        var list: [(id: String, scene: Scene, index: Int)] = []
        for s in 0..<count {
            let id = "c\(s)"
            try call("scene.create", #"{"id":"\#(id)","size":{"w":320,"h":480},"clock":"manual","fps":60}"#)
            try call("vc.create", #"{"id":"a"}"#)
            try call("vc.create", #"{"id":"b"}"#)
            try call("container.create", #"{"id":"c","kind":"custom","children":["a","b"]}"#)
            try call("scene.set_root", #"{"vc":"c"}"#)
            guard let scene = daemon.scenes[id] else { throw ValidationError("no scene \(id)") }
            list.append((id, scene, 0))
        }
        var transitions = 0
        func frame(_ f: Int) throws {
            let time = Int64(f) * 1_000_000_000 / 60
            for i in list.indices {
                daemon.tickRealtime(list[i].scene, elapsedNanoseconds: time)
                guard list[i].scene.isIdle else { continue }
                list[i].index = 1 - list[i].index
                try call("container.select", #"{"scene":"\#(list[i].id)","container":"c","index":\#(list[i].index),"animator":"dt-slide"}"#,
                         check: #""animator":"dt-slide""#)
                transitions += 1
            }
            daemon.flushPending()
        }
        for f in 1...max(1, warmUp) { try frame(f) }
        transitions = 0
        // At least 20 000 scene-frames (~1 200 transitions), so a small count is timed over more than a few.
        let timed = max(frames, 20_000 / count)
        let cpu0 = threadCPUNanoseconds()
        for f in (warmUp + 1)...(warmUp + timed) { try frame(f) }
        let cpu = threadCPUNanoseconds() - cpu0
        withExtendedLifetime(daemon) {}
        return (cpu / 1000 / Double(max(1, transitions)), cpu / 1000 / Double(count * timed), transitions)
    }

    /// Whether `text`'s bytes hold `part`'s.
    static func contains(_ text: String, _ part: String) -> Bool {
        let a = Array(text.utf8), b = Array(part.utf8)
        guard !b.isEmpty, a.count >= b.count else { return b.isEmpty }
        for i in 0...(a.count - b.count) where a[i] == b[0] && a[i..<(i + b.count)].elementsEqual(b) { return true }
        return false
    }
}
