import ArgumentParser
import Foundation
import SegueClient
import SegueJSON
import Synchronization

struct Realtime: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Many realtime scenes with transitions back to back: frames missing and the daemon's CPU.",
        discussion: """
            Starts the segued next to this binary (run from the repository folder, for the bundled plugins) unless \
            --socket is given. Makes --scenes realtime scenes at --fps, each a custom container of two view \
            controllers with when_busy = queue, and keeps a dt-slide select running and one queued in each: a \
            transition.wait on the running transition is answered when it ends, and the next select is sent then \
            (control connections of 16 scenes each, with no subscriptions). One more connection subscribes to the \
            frame events of --subscribed of the scenes, spread evenly, and reads every one: the daemon's only \
            subscriptions.

            The daemon it starts gets a config of its own raising limits.max_scenes and limits.max_connections to \
            what --scenes needs (the shipped defaults otherwise). Once every scene's first select has been answered \
            (its Lua state made), after --warm-up seconds, for --seconds: a watched \
            scene is judged over the whole window — each of its window's 1/fps grid times without a frame event is \
            missing, so a scene that got no frame misses them all. Completed transitions are counted per scene (a \
            scene that completed none in the window is reported), and each completed transition of a watched scene \
            (its transition.began and transition.completed events) must take its duration within one frame of scene \
            time. The daemon's CPU over the window is read from /proc/PID/stat (utime + stime; give --pid with \
            --socket), and compared with the physical floor: the C reference's CPU per animated property per frame \
            (Sources/CEngineReference, measured here after the daemon stopped) × the 2 properties dt-slide animates \
            × fps × scenes. A daemon it started is then stopped with SIGTERM while every scene has a transition \
            running (and one queued), and the time to its exit is printed (its exit status must be 0).
            """)

    @Option(help: "A running daemon's socket (default: start one).")
    var socket: String?

    @Option(help: "With --socket: the running daemon's process id, for its CPU.")
    var pid: Int32?

    @Option(help: "Realtime scenes.")
    var scenes: Int = 1000

    @Option(help: "Frames per second of every scene.")
    var fps: Int = 60

    @Option(help: "Scenes whose frame events one connection subscribes to (at most 16).")
    var subscribed: Int = 16

    @Option(name: .customLong("warm-up"), help: "Seconds before the window.")
    var warmUp: Double = 3

    @Option(help: "Seconds of the window.")
    var seconds: Double = 8

    func run() throws {
        guard scenes >= 1, subscribed >= 1, subscribed <= min(16, scenes), fps >= 1, fps <= 1000 else {
            throw ValidationError("--scenes ≥ 1, --subscribed 1…16 and ≤ --scenes, --fps 1…1000")
        }
        // Its own config: the shipped defaults but for the limits the scene count needs (one control connection
        // per 16 scenes), and the repository's plugins.
        let configFile = NSTemporaryDirectory() + "segue-bench-realtime-\(getpid()).toml"
        let plugins = FileManager.default.currentDirectoryPath + "/plugins"
        try """
            [plugins]
            dir = "\(plugins)"
            [limits]
            max_scenes = \(scenes + 64)
            max_connections = \(scenes / 16 + 64)

            """.write(toFile: configFile, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: configFile) }
        let spawned = socket == nil ? try SpawnedDaemon(arguments: ["--config", configFile]) : nil
        defer { spawned?.stop() }
        let path = socket ?? spawned?.socket ?? ""
        let daemonPID = spawned?.pid ?? pid

        let stop = Atomic<Bool>(false)
        let ids = (0..<scenes).map { "rt\($0)" }
        let groups = stride(from: 0, to: scenes, by: 16).map { Array(ids[$0..<min($0 + 16, scenes)]) }
        let controls = try groups.map { try RealtimeControl(socket: path, scenes: $0, fps: fps) }
        let step = scenes / subscribed
        let watched = (0..<subscribed).map { ids[$0 * step] }
        let frames = try RealtimeFrameReader(socket: path, scenes: watched)

        let group = DispatchGroup()
        let startWall = DispatchTime.now().uptimeNanoseconds
        for worker in controls as [any RealtimeWorker] + [frames] {
            group.enter()
            Thread.detachNewThread {
                worker.run(until: stop)
                group.leave()
            }
        }
        // The warm-up starts once every scene has its first transition (its Lua state is made then: at 10 000
        // scenes that alone takes seconds, which would otherwise fall into the window).
        let primeLimit = DispatchTime.now().uptimeNanoseconds + 120_000_000_000
        while controls.reduce(0, { $0 + $1.primed.load(ordering: .relaxed) }) < scenes,
            DispatchTime.now().uptimeNanoseconds < primeLimit
        {
            usleep(50_000)
        }
        let primedAfter = Double(DispatchTime.now().uptimeNanoseconds - startWall) / 1e9
        usleep(UInt32(warmUp * 1e6))
        let windowStart = DispatchTime.now().uptimeNanoseconds
        let cpuBefore = daemonPID.flatMap { ProcessCPU.seconds(of: $0) }
        let clientBefore = ProcessCPU.seconds(of: getpid())
        let completedBefore = controls.reduce(0) { $0 + $1.completed.load(ordering: .relaxed) }
        let perSceneBefore = controls.flatMap { $0.completedPerScene.withLock { $0 } }
        usleep(UInt32(seconds * 1e6))
        let windowEnd = DispatchTime.now().uptimeNanoseconds
        let cpuAfter = daemonPID.flatMap { ProcessCPU.seconds(of: $0) }
        let clientAfter = ProcessCPU.seconds(of: getpid())
        let completedAfter = controls.reduce(0) { $0 + $1.completed.load(ordering: .relaxed) }
        let perSceneAfter = controls.flatMap { $0.completedPerScene.withLock { $0 } }
        stop.store(true, ordering: .relaxed)
        group.wait()
        // SIGTERM with every scene's transition running (and one queued behind it): to the daemon's exit.
        let shutdown = spawned?.stopTimed()
        if let failure = (controls.compactMap(\.failure) + [frames.failure].compactMap { $0 }).first {
            throw BenchError(message: "realtime benchmark failed: \(failure)")
        }

        let report = frames.missing(from: windowStart, to: windowEnd, fps: fps)
        let window = Double(windowEnd - windowStart) / 1e9
        print(String(format: "realtime  scenes=%d  fps=%d  subscribed=%d  window %.1f s after %.1f s (every scene's first transition started after %.1f s)",
                     scenes, fps, subscribed, window, Double(windowStart - startWall) / 1e9, primedAfter))
        print(String(format: "frames: %d received, %d missing of %d grid times over the whole window (%d watched scenes with no frame; %d events.dropped lines)",
                     report.received, report.missing, report.expected, report.silent,
                     frames.droppedLines.load(ordering: .relaxed)))
        print(String(format: "  scene clocks: %.4f s of scene time per second of wall time",
                     frames.pace(from: windowStart, to: windowEnd)))
        let arrival = frames.arrivalGaps(from: windowStart, to: windowEnd)
        print(String(format: "  between a scene's frame events: median %.1f ms, longest %.1f ms", arrival.median,
                     arrival.longest))
        if report.gaps > 0 {
            print("  in \(report.gaps) gaps, the longest \(report.longestGap) frames")
        }
        let completedInWindow = completedAfter - completedBefore
        let idleScenes = zip(perSceneBefore, perSceneAfter).filter { $0 == $1 }.count
        print(String(format: "transitions completed: %d in the window, %.0f/s; %d of %d scenes completed none (%d select errors)",
                     completedInWindow, Double(completedInWindow) / window, idleScenes, scenes,
                     controls.reduce(0) { $0 + $1.errors.load(ordering: .relaxed) }))
        let timing = frames.completions(from: windowStart, to: windowEnd, fps: fps)
        print(String(format: "  watched scenes: %d completed, %d not within one frame of their duration (worst %.2f frames off)",
                     timing.count, timing.late, timing.worstFrames))
        let verdict = report.missing == 0 && idleScenes == 0 && timing.late == 0 && timing.count > 0
        print("realtime verdict: \(verdict ? "met" : "NOT met") (0 missing over the window, every scene completing, each watched transition within one frame)")
        if let before = cpuBefore, let after = cpuAfter {
            let transitions = Double(max(1, completedAfter - completedBefore))
            print(String(format: "daemon CPU: %.2f cores (utime + stime %.2f s over %.2f s; %.0f µs per transition)",
                         (after - before) / window, after - before, window, (after - before) / transitions * 1e6))
        }
        if let before = clientBefore, let after = clientAfter {
            print(String(format: "this client's CPU: %.2f cores", (after - before) / window))
        }
        if let before = cpuBefore, let after = cpuAfter {
            // The physical floor (issue 24): the C reference's CPU per animated property per frame, measured here
            // after the daemon stopped, × the properties a realtime scene animates per frame × fps × scenes.
            let perProperty = RealtimeFloor.referenceNanoseconds(transitions: scenes, fps: fps)
            let floorCores = perProperty * Double(RealtimeFloor.propertiesPerScene * fps * scenes) / 1e9
            print(String(format: "daemon CPU ÷ the floor: %.1f× (floor %.4f cores: C reference %.1f ns per property per frame × %d properties × %d fps × %d scenes)",
                         (after - before) / window / floorCores, floorCores, perProperty,
                         RealtimeFloor.propertiesPerScene, fps, scenes))
        }
        if let shutdown {
            print(String(format: "SIGTERM to exit with %d running transitions: %.3f s (exit status %d)", scenes,
                         shutdown.seconds, shutdown.status))
            if shutdown.status != 0 { throw BenchError(message: "segued exited with status \(shutdown.status) on SIGTERM") }
        }
    }
}

/// A thread of the realtime benchmark.
protocol RealtimeWorker: AnyObject, Sendable {
    func run(until stop: borrowing Atomic<Bool>)
}

/// One control connection: makes its scenes and keeps one dt-slide select running and one queued in each. It
/// learns that a transition ended from a `transition.wait` on it (the daemon's only subscriptions are the frame
/// reader's), then asks for the next select, which queues behind the one that just started.
final class RealtimeControl: RealtimeWorker, @unchecked Sendable {
    let client: SegueClient
    let scenes: [String]
    /// Per scene: the index its last select asked for, the transitions started or queued and not yet seen ending
    /// (oldest first), whether a wait is out, and how many selects it has sent.
    private struct State {
        var requested = 0
        var transitions: [String] = []
        var waiting = false
        var selects = 0
        var primed = false
    }
    private var states: [State]
    let completed = Atomic<Int>(0)
    /// Scenes whose first select has been answered with a transition (their Lua state exists).
    let primed = Atomic<Int>(0)
    /// Per scene, the transitions seen ending: read at the window's edges from another thread.
    let completedPerScene: Mutex<[Int]>
    let errors = Atomic<Int>(0)
    var failure: String?

    init(socket: String, scenes: [String], fps: Int) throws {
        client = try SegueClient(socketPath: socket)
        self.scenes = scenes
        states = Array(repeating: State(), count: scenes.count)
        completedPerScene = Mutex(Array(repeating: 0, count: scenes.count))
        for id in scenes {
            _ = try client.call("scene.create", JSONObject([
                ("id", .string(id)), ("size", .object(JSONObject([("w", 320), ("h", 480)]))), ("clock", "realtime"),
                ("fps", .number(Double(fps))),
            ]))
            for vc in ["a", "b"] { _ = try client.call("vc.create", JSONObject([("scene", .string(id)), ("id", .string(vc))])) }
            _ = try client.call("container.create", JSONObject([
                ("scene", .string(id)), ("id", "c"), ("kind", "custom"), ("children", ["a", "b"]), ("when_busy", "queue"),
            ]))
            _ = try client.call("scene.set_root", JSONObject([("scene", .string(id)), ("vc", "c")]))
        }
    }

    /// Request ids: scene × 10 + 1 or 2 for a select (alternately, so the first two can be out together), + 3 for
    /// a wait.
    private func select(_ i: Int) throws {
        states[i].requested = 1 - states[i].requested
        states[i].selects += 1
        let id = i * 10 + 1 + states[i].selects % 2
        try client.send(line: #"{"jsonrpc":"2.0","id":\#(id),"method":"container.select","params":{"scene":"\#(scenes[i])","container":"c","index":\#(states[i].requested),"animator":"dt-slide"}}"#)
    }

    private func waitIfIdle(_ i: Int) throws {
        guard !states[i].waiting, let transition = states[i].transitions.first else { return }
        states[i].waiting = true
        try client.send(line: #"{"jsonrpc":"2.0","id":\#(i * 10 + 3),"method":"transition.wait","params":{"scene":"\#(scenes[i])","transition":"\#(transition)"}}"#)
    }

    func run(until stop: borrowing Atomic<Bool>) {
        do {
            for i in scenes.indices {
                try select(i)  // runs
                try select(i)  // queued
            }
            while !stop.load(ordering: .relaxed) {
                guard let line = try client.readLine(timeoutMs: 100) else { continue }
                guard let message = try? JSONParser.parse(line), let id = message["id"]?.intValue else { continue }
                let i = id / 10
                guard states.indices.contains(i) else { continue }
                if message["error"] != nil {
                    if errors.add(1, ordering: .relaxed).newValue == 1 { print("error: \(line)") }
                    if id % 10 == 3 {
                        states[i].waiting = false
                        states[i].transitions.removeFirst()
                        try waitIfIdle(i)
                    } else {
                        try select(i)
                    }
                    continue
                }
                if id % 10 == 3 {
                    // The oldest transition ended: the queued one runs now; queue the next.
                    completed.add(1, ordering: .relaxed)
                    completedPerScene.withLock { $0[i] += 1 }
                    states[i].waiting = false
                    states[i].transitions.removeFirst()
                    try select(i)
                    try waitIfIdle(i)
                } else if let transition = message["result"]?["transition"]?.stringValue {
                    if !states[i].primed {
                        states[i].primed = true
                        primed.add(1, ordering: .relaxed)
                    }
                    states[i].transitions.append(transition)
                    try waitIfIdle(i)
                } else {
                    // A select that started nothing (it should not happen: every select changes the index).
                    if errors.add(1, ordering: .relaxed).newValue == 1 { print("select started nothing: \(line)") }
                    try select(i)
                }
            }
        } catch {
            failure = "\(error)"
        }
    }
}

/// The connection subscribed to some scenes' frame events: when each arrived, and its scene time.
final class RealtimeFrameReader: RealtimeWorker, @unchecked Sendable {
    let client: SegueClient
    /// Per scene: (arrival, monotonic ns; scene time, s) of each frame event.
    private var frames: [String: [(arrival: UInt64, time: Double)]] = [:]
    /// Per scene: the transitions that began (scene time, duration) and not yet completed.
    private var began: [String: [String: (time: Double, duration: Double)]] = [:]
    /// Completed transitions of the watched scenes: arrival of the completion, scene, the time it took (scene s)
    /// and its duration.
    private var ended: [(arrival: UInt64, scene: String, took: Double, duration: Double)] = []
    let droppedLines = Atomic<Int>(0)
    var failure: String?

    init(socket: String, scenes: [String]) throws {
        client = try SegueClient(socketPath: socket)
        for id in scenes {
            _ = try client.call("events.subscribe", JSONObject([("scene", .string(id)), ("types", ["frame", "transition"])]))
            frames[id] = []
        }
    }

    /// The `"scene":"…"` of an event line.
    static func scene(in line: String) -> String? {
        guard let start = line.range(of: #""scene":""#) else { return nil }
        guard let end = line[start.upperBound...].firstIndex(of: "\"") else { return nil }
        return String(line[start.upperBound..<end])
    }

    func run(until stop: borrowing Atomic<Bool>) {
        do {
            while !stop.load(ordering: .relaxed) {
                guard let line = try client.readLine(timeoutMs: 100) else { continue }
                let arrival = DispatchTime.now().uptimeNanoseconds
                guard let message = try? JSONParser.parse(line), let params = message["params"] else { continue }
                switch params["type"]?.stringValue {
                case "frame":
                    guard let scene = params["scene"]?.stringValue, let time = params["time"]?.doubleValue else { continue }
                    frames[scene, default: []].append((arrival, time))
                case "transition.began":
                    guard let scene = params["scene"]?.stringValue, let id = params["transition"]?.stringValue,
                        let time = params["time"]?.doubleValue, let duration = params["duration"]?.doubleValue
                    else { continue }
                    began[scene, default: [:]][id] = (time, duration)
                case "transition.completed":
                    guard let scene = params["scene"]?.stringValue, let id = params["transition"]?.stringValue,
                        let time = params["time"]?.doubleValue, params["completed"]?.boolValue == true,
                        let start = began[scene]?.removeValue(forKey: id)
                    else { continue }
                    ended.append((arrival, scene, time - start.time, start.duration))
                case "events.dropped": droppedLines.add(1, ordering: .relaxed)
                default: break
                }
            }
        } catch {
            failure = "\(error)"
        }
    }

    /// Scene time over wall time between each subscribed scene's first and last frame of the window, averaged: 1 when
    /// the realtime clocks keep pace with the wall clock.
    func pace(from start: UInt64, to end: UInt64) -> Double {
        var ratios: [Double] = []
        for (_, list) in frames {
            let inWindow = list.filter { $0.arrival >= start && $0.arrival < end }
            guard let first = inWindow.first, let last = inWindow.last, last.arrival > first.arrival else { continue }
            ratios.append((last.time - first.time) / (Double(last.arrival - first.arrival) / 1e9))
        }
        return ratios.isEmpty ? 0 : ratios.reduce(0, +) / Double(ratios.count)
    }

    /// The longest wall time (ms) between two consecutive frame events of one scene within the window, and the
    /// median one: how evenly frames arrive (1/fps when every tick is delivered as it is made).
    func arrivalGaps(from start: UInt64, to end: UInt64) -> (median: Double, longest: Double) {
        var gaps: [UInt64] = []
        for (_, list) in frames {
            let inWindow = list.filter { $0.arrival >= start && $0.arrival < end }.map(\.arrival)
            gaps += zip(inWindow, inWindow.dropFirst()).map { $1 - $0 }
        }
        gaps.sort()
        guard let longest = gaps.last else { return (0, 0) }
        return (Double(gaps[gaps.count / 2]) / 1e6, Double(longest) / 1e6)
    }

    /// Over the whole window, per watched scene: the 1/fps grid times of the window (its length × fps) that got
    /// no frame event. A scene with no frame in the window misses every one; a scene whose frames stop or start
    /// late misses the grid times at the window's edges too (not only the gaps between its first and last frame).
    func missing(from start: UInt64, to end: UInt64, fps: Int)
        -> (received: Int, expected: Int, missing: Int, gaps: Int, longestGap: Int, silent: Int)
    {
        let perScene = Int((Double(end - start) / 1e9 * Double(fps)).rounded(.down))
        var received = 0, expected = 0, missing = 0, gaps = 0, longestGap = 0, silent = 0
        for (_, list) in frames {
            let grid = Set(list.filter { $0.arrival >= start && $0.arrival < end }.map {
                Int64(($0.time * Double(fps)).rounded())
            }).sorted()
            expected += perScene
            let got = min(grid.count, perScene)
            received += got
            missing += perScene - got
            if grid.isEmpty { silent += 1 }
            for (a, b) in zip(grid, grid.dropFirst()) where b - a > 1 {
                gaps += 1
                longestGap = max(longestGap, Int(b - a - 1))
            }
        }
        return (received, expected, missing, gaps, longestGap, silent)
    }

    /// The watched scenes' transitions that completed in the window: how many, how many took longer or shorter
    /// than their duration by more than one frame (scene time from `transition.began` to `transition.completed`),
    /// and the largest such difference in frames.
    func completions(from start: UInt64, to end: UInt64, fps: Int) -> (count: Int, late: Int, worstFrames: Double) {
        let frame = 1 / Double(fps)
        var count = 0, late = 0, worst = 0.0
        for e in ended where e.arrival >= start && e.arrival < end {
            count += 1
            let off = abs(e.took - e.duration)
            // A tick lands on the grid, so a transition ends on the first frame at or after its duration: within
            // one frame, with a little room for the printed times' rounding.
            if off > frame + 1e-6 { late += 1 }
            worst = max(worst, off / frame)
        }
        return (count, late, worst)
    }
}

/// The floor `segue-bench realtime` holds the daemon's CPU against: the C reference's per-property work (the one
/// `segue-bench engine` compares with), for the properties a realtime scene animates.
enum RealtimeFloor {
    /// dt-slide animates two properties per frame: the from-view's and the to-view's transform.
    static let propertiesPerScene = 2

    /// The C reference's CPU nanoseconds per animated property per frame, ticking `transitions` transitions (the
    /// realtime scenes' count, so its working set is theirs) over a second of `fps` frames; the median of 5 rounds.
    static func referenceNanoseconds(transitions: Int, fps: Int) -> Double {
        var rounds: [Double] = []
        for _ in 0..<5 {
            let reference = ReferenceViews(transitions: transitions, begin: 0, duration: 1)
            let times = (1...fps).map { Int64($0) * 1_000_000_000 / Int64(fps) }
            let cpu = reference.run(times).cpu
            rounds.append(cpu / Double(times.count * transitions * 4))
        }
        return engineMedian(rounds)
    }
}
