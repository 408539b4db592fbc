import ArgumentParser
import CEngineReference
import Foundation
import Logging
import SegueDaemon
import SegueKit

struct Engine: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "The engine alone against a C loop of the same work; with --select, transition starts by scene size.",
        discussion: """
            One manual scene at --fps with --transitions custom containers of two view controllers, all selected at \
            once with the built-in default animator (a 1 s spring animating 4 properties per transition: both \
            views' transform and alpha), then 0.9 s of frames. Each round times the ticks (wall and thread CPU), \
            then runs the C reference (Sources/CEngineReference, -O2: the engine's per-property work and no more — one \
            spring evaluation shared by a transition's 4 properties, 6 lerps per transform, 1 per alpha, the dirty \
            bits) over the same frame times, and checks that it ends on the engine's values, to the bit; rounds interleave the two and the report gives the median of each and of their ratio.

            --select: two scenes, --transitions containers and --small containers; each round selects every \
            container of each scene at once (the transitions of the earlier selects still running) and reports \
            the time per select in the large scene ÷ in the small one (the median of the rounds).
            """)

    @Option(help: "Concurrent transitions (containers) in the scene.")
    var transitions: Int = 1000

    @Option(help: "Frames per second of the scene clock.")
    var fps: Int = 120

    @Option(help: "Interleaved rounds (each starts every transition again).")
    var rounds: Int = 7

    @Option(help: "Seconds each transition lasts with a stretched copy of the default animation (default: the built-in animator, 1 s).")
    var duration: Double?

    @Flag(help: "A frame subscriber: the engine builds every frame event (and, with --serialize, writes it as JSON).")
    var frames = false

    @Flag(help: "Also serialize every frame event to JSON, as the daemon does for a subscriber (implies --frames).")
    var serialize = false

    @Flag(help: .hidden)
    var noFrames = false

    @Flag(help: """
        Frames go through an in-process daemon (Daemon.emit, its event bus, EventEncoder) to one connection \
        subscribed to them, whose output keeps each tick's bytes as a socket's buffer would (no socket).
        """)
    var daemon = false

    @Flag(help: "Transition starts: time per container.select in a scene of --transitions containers ÷ --small.")
    var select = false

    @Option(help: "The small scene of --select.")
    var small: Int = 50

    func run() throws {
        if select { return try runSelect() }
        let bench = try EngineScene(containers: transitions, fps: fps,
                                    frames: (frames || serialize || daemon) && !noFrames, serialize: serialize,
                                    duration: duration, daemon: daemon)
        let seconds = duration ?? 1
        let framesPerRound = max(1, Int(Double(fps) * seconds * 0.9))
        var engineNs: [Double] = [], engineCPU: [Double] = [], referenceNs: [Double] = [], referenceCPU: [Double] = []
        var ratios: [Double] = [], cpuRatios: [Double] = [], starts: [Double] = []
        // --daemon: the engine against the second reference too, which writes the frame event (issue 24).
        var printedRatios: [Double] = [], printedCPURatios: [Double] = [], printedNs: [Double] = []
        var properties = 0
        for round in 0..<rounds {
            let target = (round + 1) % 2
            let startNs = DispatchTime.now().uptimeNanoseconds
            try bench.selectAll(target)
            starts.append(Double(DispatchTime.now().uptimeNanoseconds - startNs) / Double(transitions))
            properties = bench.scene.runningAnimationCount
            let begin = bench.scene.now
            var times: [Int64] = []
            times.reserveCapacity(framesPerRound)
            let wall0 = DispatchTime.now().uptimeNanoseconds, cpu0 = threadCPUNanoseconds()
            for _ in 0..<framesPerRound {
                bench.output?.bytes.removeAll(keepingCapacity: true)
                times.append(bench.scene.step(frames: 1))
                // What the daemon does after each tick: the frame event, queued by Daemon.emit, goes to the bus and
                // is encoded into the subscriber's output (without this the events stayed queued, never encoded).
                bench.daemon?.flushPending()
            }
            let wall = Double(DispatchTime.now().uptimeNanoseconds - wall0), cpu = threadCPUNanoseconds() - cpu0
            let lastLine = bench.output?.bytes ?? []
            let engineValues = try bench.firstValues(target)
            bench.scene.finishAllTransitions()
            let ticks = Double(framesPerRound * max(1, properties))
            engineNs.append(wall / ticks)
            engineCPU.append(cpu / ticks)

            let reference = ReferenceViews(transitions: transitions, begin: begin, duration: seconds)
            let (refWall, refCPU) = reference.run(times)
            // The reference does the engine's work: the same values, to the bit (the default animator only).
            if duration == nil, engineValues != reference.firstValues {
                throw ValidationError("the C reference's values \(reference.firstValues) are not the engine's \(engineValues)")
            }
            let refProperties = Double(framesPerRound * transitions * 4)
            referenceNs.append(refWall / refProperties)
            referenceCPU.append(refCPU / refProperties)
            ratios.append(engineNs[round] / referenceNs[round])
            cpuRatios.append(engineCPU[round] / referenceCPU[round])
            if daemon, duration == nil {
                // The same frames ticked and written by C, the last one held to the engine's last line, to the byte.
                let lastLine = lastLine[...]
                let printed = PrintedReference(transitions: transitions, begin: begin, duration: seconds, scene: bench.scene.id,
                                               ids: (0..<transitions).map { ("a\($0).view", "b\($0).view") },
                                               toFirst: target == 0)
                let (printedWall, printedCPU) = printed.run(times)
                if let seq = PrintedReference.seq(of: lastLine), let last = times.last {
                    printed.tick(at: last, seq: seq)
                    try printed.check(against: lastLine)
                } else {
                    throw ValidationError("the subscriber's output holds no frame line")
                }
                printedNs.append(printedWall / refProperties)
                printedRatios.append(wall / printedWall)
                printedCPURatios.append(cpu / printedCPU)
            }
        }
        print(String(format: "engine  transitions=%d  animated properties=%d  fps=%d  frames=%d per round  rounds=%d%@",
                     transitions, properties, fps, framesPerRound, rounds,
                     daemon ? "  (frame subscriber through the daemon)"
                         : bench.frames ? (serialize ? "  (frame subscriber, serialized)" : "  (frame subscriber)")
                         : "  (no subscriber)"))
        print(String(format: "start: %.1f µs per transition (select, resolve, context, animate)", engineMedian(starts) / 1000))
        print(String(format: "engine:    %.1f ns per animated property per frame (CPU %.1f ns)", engineMedian(engineNs),
                     engineMedian(engineCPU)))
        print(String(format: "reference: %.1f ns per animated property per frame (CPU %.1f ns), C -O2", engineMedian(referenceNs),
                     engineMedian(referenceCPU)))
        print(String(format: "engine ÷ reference: %.2f× (median of %d rounds; per round %@)", engineMedian(ratios), rounds,
                     ratios.map { String(format: "%.2f", $0) }.joined(separator: " ")))
        print(String(format: "engine ÷ reference, CPU time: %.2f× (per round %@)", engineMedian(cpuRatios),
                     cpuRatios.map { String(format: "%.2f", $0) }.joined(separator: " ")))
        if !printedRatios.isEmpty {
            print(String(format: "printed reference: %.1f ns per animated property per frame, C -O2 (ticks and writes the frame event with the daemon's number printer)",
                         engineMedian(printedNs)))
            print(String(format: "engine ÷ printed reference: %.2f× (median of %d rounds; per round %@)", engineMedian(printedRatios),
                         rounds, printedRatios.map { String(format: "%.2f", $0) }.joined(separator: " ")))
            print(String(format: "engine ÷ printed reference, CPU time: %.2f× (per round %@)", engineMedian(printedCPURatios),
                         printedCPURatios.map { String(format: "%.2f", $0) }.joined(separator: " ")))
        }
    }

    func runSelect() throws {
        let large = try EngineScene(containers: transitions, fps: fps, frames: false, serialize: false, duration: duration)
        let smallScene = try EngineScene(containers: small, fps: fps, frames: false, serialize: false, duration: duration)
        var largeNs: [Double] = [], smallNs: [Double] = [], ratios: [Double] = [], cpuRatios: [Double] = []
        for round in 0..<rounds {
            let target = (round + 1) % 2
            var perSelect: [Double] = [], cpuPerSelect: [Double] = []
            for bench in [large, smallScene] {
                let t0 = DispatchTime.now().uptimeNanoseconds, cpu0 = threadCPUNanoseconds()
                try bench.selectAll(target)
                let n = Double(bench.containers.count)
                perSelect.append(Double(DispatchTime.now().uptimeNanoseconds - t0) / n)
                cpuPerSelect.append((threadCPUNanoseconds() - cpu0) / n)
                bench.scene.finishAllTransitions()
            }
            largeNs.append(perSelect[0])
            smallNs.append(perSelect[1])
            ratios.append(perSelect[0] / perSelect[1])
            cpuRatios.append(cpuPerSelect[0] / cpuPerSelect[1])
        }
        print(String(format: "select: %d containers %.1f µs per select, %d containers %.1f µs per select", transitions,
                     engineMedian(largeNs) / 1000, small, engineMedian(smallNs) / 1000))
        print(String(format: "large ÷ small: %.2f× (median of %d rounds; per round %@)", engineMedian(ratios), rounds,
                     ratios.map { String(format: "%.2f", $0) }.joined(separator: " ")))
        print(String(format: "large ÷ small, CPU time: %.2f× (per round %@)", engineMedian(cpuRatios),
                     cpuRatios.map { String(format: "%.2f", $0) }.joined(separator: " ")))
    }
}

/// A manual scene of custom containers of two view controllers, selected all at once.
final class EngineScene {
    let scene: Scene
    let sink: BenchSink
    let frames: Bool
    var containers: [ContainerViewController] = []
    let animator: SlideAnimator?
    /// With `daemon`: the in-process daemon the scene's events go to, and its frame subscriber's output.
    let daemon: Daemon?
    let output: KeptOutput?

    init(containers count: Int, fps: Int, frames: Bool, serialize: Bool, duration: Double?, daemon: Bool = false) throws {
        var config = EngineConfig()
        config.maxViewsPerScene = max(10_000, count * 3 + 10)
        scene = Scene(id: "bench", size: Size(w: 320, h: 480), clock: .manual, fps: fps, config: config)
        self.frames = frames
        sink = BenchSink(serialize: serialize, listening: frames)
        scene.sink = sink
        if daemon {
            var config = DaemonConfig()
            config.pluginsDir = "/nonexistent"
            let inProcess = Daemon(config: config, logger: Logger(label: "bench"))
            let output = KeptOutput()
            let connection = inProcess.connect(output: output)
            let subscribe = #"{"jsonrpc":"2.0","id":1,"method":"events.subscribe","params":{"types":["frame"]}}"#
            guard inProcess.handle(line: subscribe, from: connection)?.contains("\"subscription\"") == true else {
                throw ValidationError("the in-process daemon refused the frame subscription")
            }
            scene.sink = inProcess
            self.daemon = inProcess
            self.output = output
        } else {
            self.daemon = nil
            self.output = nil
        }
        animator = duration.map { SlideAnimator(duration: $0) }
        scene.animatorProvider = animator
        for i in 0..<count {
            let a = try scene.createViewController(id: "a\(i)", title: nil, color: nil)
            let b = try scene.createViewController(id: "b\(i)", title: nil, color: nil)
            containers.append(try scene.createContainer(id: "c\(i)", kind: .custom, items: [a, b]))
        }
    }

    /// The first container's presentation values after a select of `index`: (from alpha, |from tx|, to alpha,
    /// |to tx|), to hold the C reference to the engine's values.
    func firstValues(_ index: Int) throws -> (Double, Double, Double, Double) {
        guard let a = scene.viewController("a0")?.view, let b = scene.viewController("b0")?.view else {
            throw ValidationError("the bench scene has no first container")
        }
        let (from, to) = index == 1 ? (a, b) : (b, a)
        func values(_ v: View) -> (Double, Double) {
            (v.presentation.get(.alpha).first ?? .nan, abs(v.presentation.get(.transform).dropFirst(12).first ?? .nan))
        }
        let f = values(from), t = values(to)
        return (f.0, f.1, t.0, t.1)
    }

    /// Selects `index` in every container (the built-in default animator unless a duration was asked for).
    func selectAll(_ index: Int) throws {
        for c in containers {
            let start = try scene.select(c, index: index, animator: animator?.name)
            guard start.transition != nil else { throw ValidationError("select \(index) of \(c.id) started no transition") }
        }
    }
}

/// The frame subscriber's output in `--daemon`: each line's bytes, kept as a socket's output buffer keeps them.
final class KeptOutput: ConnectionOutput {
    var isWritable: Bool { true }
    var bytes: [UInt8] = []
    var lines = 0
    func send(_ line: String) {
        var line = line
        line.withUTF8 { send(bytes: $0) }
    }
    func send(bytes line: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: line)
        bytes.append(UInt8(ascii: "\n"))
        lines += 1
    }
    func flush() {}
    func close() {}
}

/// The C reference's transitions (Sources/CEngineReference): per transition the from-view (transform identity →
/// translation −336, alpha 1 → 0) and the to-view (translation 336 → identity, alpha 0 → 1), on the default
/// animator's spring — the engine's 4 animated properties per transition, with the engine's per-property work
/// (one shared spring evaluation per transition, 6 + 1 lerps, the dirty bits).
final class ReferenceViews {
    var transitions: [ref_transition]

    /// `reversed`: the transitions go back (a select of the first item after the second), the engine's default
    /// animator moving both views the other way (from-view 0 → 336, to-view −336 → 0).
    init(transitions count: Int, begin: Int64, duration: Double, reversed: Bool = false) {
        let spring = ref_spring_make(0.75, 0.5, Spring.ratioFormOmega(zeta: 0.75, velocity: 0.5, duration: duration))
        func view(fromTX: Double, toTX: Double, alphaFrom: Double, alphaTo: Double) -> ref_view {
            var v = ref_view()
            v.from = (1, 0, 0, 1, fromTX, 0)
            v.to = (1, 0, 0, 1, toTX, 0)
            v.alpha_from = alphaFrom
            v.alpha_to = alphaTo
            v.transform = (1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, fromTX, 0, 0, 1)
            v.alpha = alphaFrom
            return v
        }
        let activeNs = Int64((duration * 1e9).rounded())
        transitions = []
        transitions.reserveCapacity(count)
        for _ in 0..<count {
            var t = ref_transition()
            t.begin = begin
            t.active_ns = activeNs
            t.duration = duration
            t.spring = spring
            let travel: Double = reversed ? 336 : -336
            t.views = (view(fromTX: 0, toTX: travel, alphaFrom: 1, alphaTo: 0),
                       view(fromTX: -travel, toTX: 0, alphaFrom: 0, alphaTo: 1))
            transitions.append(t)
        }
    }

    /// Ticks at each of `times`; returns the wall and thread CPU nanoseconds.
    func run(_ times: [Int64]) -> (wall: Double, cpu: Double) {
        let count = Int32(transitions.count)
        let wall0 = DispatchTime.now().uptimeNanoseconds, cpu0 = threadCPUNanoseconds()
        transitions.withUnsafeMutableBufferPointer { buffer in
            for time in times { ref_tick(buffer.baseAddress, count, time) }
        }
        return (Double(DispatchTime.now().uptimeNanoseconds - wall0), threadCPUNanoseconds() - cpu0)
    }

    /// The first transition's presentation values after the last tick: (from alpha, |from tx|, to alpha, |to tx|).
    var firstValues: (Double, Double, Double, Double) {
        let t = transitions[0]
        return (t.views.0.alpha, abs(t.views.0.transform.12), t.views.1.alpha, abs(t.views.1.transform.12))
    }
}

/// This thread's CPU time in nanoseconds.
func threadCPUNanoseconds() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts)
    return Double(ts.tv_sec) * 1e9 + Double(ts.tv_nsec)
}

func engineMedian(_ values: [Double]) -> Double {
    guard !values.isEmpty else { return 0 }
    let sorted = values.sorted()
    return sorted[sorted.count / 2]
}
