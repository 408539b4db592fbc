import ArgumentParser
import CLuaShim
import Foundation
import SegueClient
import SegueJSON
import SegueKit
import SegueLua

/// `segue-bench lua`: the Lua plugin host's docs/DESIGN.md §5 targets.
struct Lua: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Lua plugin host: call overhead, select vs ping, loading 100 plugins, save-to-live, memory per plugin.",
        discussion: """
            In-process: the cost of one Swift→Lua animator call (a trivial `duration(ctx)`), next to the same call \
            into the built-in Swift animator; the time to load a folder of 100 plugins and the memory that takes. \
            Against a segued started next to this binary on a temporary socket and plugins folder: container.select \
            with the dt-slide Lua animator, request to response, against daemon.ping on the same connection (the \
            clock is advanced between selects, untimed); and save-to-live, from the rename of a changed plugin over \
            the old file to its plugin.loaded event. `host`: ns per host operation inside a plugin function (a \
            context field, a method, a view property read or write), beyond an empty loop, each result checked.
            """)

    @Option(help: "Swift→Lua calls to time.")
    var calls: Int = 1_000_000

    @Option(help: "Interleaved rounds of the call figure (Swift→Lua, then the bare C reference).")
    var rounds: Int = 5

    @Option(help: "Round trips of each kind (select, ping).")
    var roundTrips: Int = 5_000

    @Option(help: "Saves to time for save-to-live.")
    var saves: Int = 30

    @Option(help: "Run only these parts, comma-separated: call, host, load, select, select-in-process, save (default: all).")
    var only: String?

    func run() throws {
        let plugins = try LuaBenchSupport.pluginsFolder()
        let parts = only.map { Set($0.split(separator: ",").map(String.init)) } ?? ["call", "load", "select", "save"]
        if parts.contains("call") { try callOverhead(plugins) }
        if parts.contains("host") { try hostOperations() }
        if parts.contains("load") { try loadHundred(plugins) }
        if parts.contains("select") { try selectVersusPing(plugins) }
        if parts.contains("select") || parts.contains("select-in-process") { try selectInProcess(plugins) }
        if parts.contains("save") { try saveToLive(plugins) }
    }

    /// ns per host operation: each snippet runs 100 times in a loop inside `duration(ctx)` (of a context whose
    /// transition has run), timed against the same loop with no body; the snippet's last result is checked after
    /// the loop, so a snippet that stopped doing its work fails the benchmark instead of timing nothing.
    func hostOperations() throws {
        let snippets: [(body: String, check: String)] = [
            ("", "true"),
            ("r = ctx.direction", "r == 'forward'"),
            ("r = ctx.duration", "r == 0.3"),
            ("r = ctx.container", "r == C"),
            ("r = ctx:view('from')", "r == F"),
            ("r = F.bounds", "r.w == 320"),
            ("r = F.bounds.w", "r == 320"),
            ("F.alpha = 1", "F.alpha == 1"),
            ("F.transform = I", "F.transform.a == 1"),
            ("C:add(F)", "F.superview == C"),
            ("r = segue.transform.translate(1, 0)", "r.tx == 1"),
        ]
        let dir = try LuaBenchSupport.temporaryFolder()
        var source = "local list = {}\n"
        for (n, snippet) in snippets.enumerated() {
            source += """
                list[#list + 1] = segue.animator { name = 'op\(n)',
                  duration = function(ctx)
                    local F, C, I, r = ctx:view('from'), ctx.container, segue.transform.identity, nil
                    for i = 1, 100 do \(snippet.body) end
                    if \(snippet.check) then return 0.3 end
                    return -1
                  end,
                  animate = function(ctx) ctx:complete(true) end }

                """
        }
        source += "return list\n"
        try source.write(toFile: dir + "/ops.lua", atomically: true, encoding: .utf8)
        // A budget no loop here reaches in one instant of the manual clock (the clock does not move).
        var settings = LuaSettings()
        settings.instructionBudget = 1 << 40
        let host = PluginHost(directory: dir, settings: settings)
        host.loadAll()
        defer { withExtendedLifetime(host) {} }  // the scene holds its animator provider weakly
        let (scene, container) = try LuaBenchSupport.twoPageScene(host: host)
        guard let transition = try scene.select(container, index: 1, animator: "op0").transition,
            let context = transition.context
        else { throw ValidationError("could not set up the host benchmark") }
        var base = 0.0
        print("ns per host operation inside a plugin function, beyond an empty loop (best of 5 × 20 000 calls × 100):")
        for (n, snippet) in snippets.enumerated() {
            guard let lua = try host.animator(named: "op\(n)", for: scene) else { throw ValidationError("op\(n)") }
            var best = Double.infinity
            for _ in 0..<5 {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<20_000 {
                    guard try lua.transitionDuration(using: context) == 0.3 else {
                        throw ValidationError("snippet '\(snippet.body)': its check '\(snippet.check)' failed")
                    }
                }
                best = min(best, Double(DispatchTime.now().uptimeNanoseconds - start) / 20_000)
            }
            if n == 0 {
                base = best
                continue
            }
            print(String(format: "%8.1f ns  %@", (best - base) / 100, snippet.body))
        }
    }

    func callOverhead(_ plugins: String) throws {
        let dir = try LuaBenchSupport.temporaryFolder()
        try "return segue.animator { duration = function(ctx) return 0.3 end, animate = function(ctx) ctx:complete(true) end }"
            .write(toFile: dir + "/trivial.lua", atomically: true, encoding: .utf8)
        let (host, scene, container) = try LuaBenchSupport.twoPageScene(plugins: dir)
        guard let transition = try scene.select(container, index: 1, animator: "trivial").transition,
            let context = transition.context, let lua = try host.animator(named: "trivial", for: scene)
        else { throw ValidationError("could not set up the call benchmark") }
        let swift = DefaultSlideAnimator()
        func time(_ body: () throws -> Double) rethrows -> Double {
            var sink = 0.0
            for _ in 0..<10_000 { sink += try body() }
            let start = DispatchTime.now().uptimeNanoseconds
            for _ in 0..<calls { sink += try body() }
            let ns = Double(DispatchTime.now().uptimeNanoseconds - start) / Double(calls)
            if sink == -1 { print("") }
            return ns
        }
        // Interleaved rounds, each: the call through LuaAnimator, then the bare C reference (reference.c) on the
        // same function; the figure is the median ratio.
        var ratios: [Double] = [], luaTimes: [Double] = [], bareTimes: [Double] = []
        for _ in 0..<rounds {
            let luaNs = try time { try lua.transitionDuration(using: context) }
            let bareNs = segue_reference_pcall_ns("return function(ctx) return 0.3 end", Int64(calls))
            guard bareNs > 0 else { throw ValidationError("the C reference failed") }
            luaTimes.append(luaNs)
            bareTimes.append(bareNs)
            ratios.append(luaNs / bareNs)
        }
        let swiftNs = time { swift.transitionDuration(using: context) }
        func median(_ a: [Double]) -> Double { a.sorted()[a.count / 2] }
        print(String(format: "Swift→Lua animator call (duration(ctx), trivial)  %.0f ns per call (median of %d rounds)",
                     median(luaTimes), rounds))
        print(String(format: "bare lua_pcall with the count hook, in C (same function)  %.0f ns per call", median(bareTimes)))
        print(String(format: "ratio Swift→Lua call / bare lua_pcall  %.2f× (median; rounds %@); Swift animator %.0f ns",
                     median(ratios), ratios.map { String(format: "%.2f", $0) }.joined(separator: " "), swiftNs))
    }

    func loadHundred(_ plugins: String) throws {
        let dir = try LuaBenchSupport.temporaryFolder()
        let source = try String(contentsOfFile: plugins + "/dt-slide.lua", encoding: .utf8)
        for i in 0..<100 {
            let renamed = source.replacingOccurrences(of: "\"dt-slide\"", with: "\"dt-slide-\(i)\"")
                .replacingOccurrences(of: "\"dt-slide-delegate\"", with: "\"dt-slide-delegate-\(i)\"")
            try renamed.write(toFile: dir + "/p\(i).lua", atomically: true, encoding: .utf8)
        }
        var times: [Double] = []
        var perPlugin = 0.0
        var rssPerPlugin = 0.0
        for round in 0..<5 {
            let rssBefore = LuaBenchSupport.residentBytes()
            let host = PluginHost(directory: dir)
            let start = DispatchTime.now().uptimeNanoseconds
            let events = host.loadAll()
            times.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            let loaded = events.filter { $0.type == "plugin.loaded" }.count
            guard loaded >= 100 else { throw ValidationError("only \(loaded) plugins loaded: \(events.prefix(3))") }
            let records = host.records
            perPlugin = Double(records.map(\.memoryBytes).reduce(0, +)) / Double(records.count)
            if round == 0 { rssPerPlugin = Double(LuaBenchSupport.residentBytes() - rssBefore) / Double(records.count) }
            withExtendedLifetime(host) {}
        }
        times.sort()
        print(String(format: "load 100 plugin files (dt-slide: animator + delegate each)  median %.1f ms (min %.1f, max %.1f)",
                     times[times.count / 2], times[0], times[times.count - 1]))
        print(String(format: "memory per loaded plugin: Lua state with the plugin %.0f KB; process RSS growth per loaded plugin %.1f KB",
                     perPlugin / 1024, rssPerPlugin / 1024))
    }

    /// One connection, alternating a `container.select` with the dt-slide Lua animator that starts a real transition
    /// and a `daemon.ping`; between rounds (untimed) the clock is advanced past the transition's end, and the same
    /// select back with the built-in animator (so the next Lua select moves again). Every select's reply is checked:
    /// it must name its animator and a duration > 0, or the run fails (a select of the index already selected starts
    /// nothing and would time a no-op).
    func selectVersusPing(_ plugins: String) throws {
        let daemon = try SpawnedDaemon(arguments: ["--plugins", plugins])
        defer { daemon.stop() }
        let client = try SegueClient(socketPath: daemon.socket)
        _ = try client.call("scene.create", ["size": ["w": 320, "h": 480], "clock": "manual"])
        _ = try client.call("vc.create", ["id": "a"])
        _ = try client.call("vc.create", ["id": "b"])
        _ = try client.call("container.create", ["id": "c", "kind": "custom", "children": ["a", "b"]])
        _ = try client.call("scene.set_root", ["vc": "c"])
        var select: [UInt64] = []
        var builtIn: [UInt64] = []
        var ping: [UInt64] = []
        let pingLine = #"{"jsonrpc":"2.0","id":2,"method":"daemon.ping"}"#
        let luaSelect = #"{"jsonrpc":"2.0","id":1,"method":"container.select","params":{"container":"c","index":1,"animator":"dt-slide"}}"#
        let swiftSelect = #"{"jsonrpc":"2.0","id":4,"method":"container.select","params":{"container":"c","index":0}}"#
        /// Advances the clock past the end of a transition of `duration` seconds.
        func finish(_ duration: Double) throws {
            let ms = Int((duration * 1000).rounded(.up)) + 100
            try client.send(line: #"{"jsonrpc":"2.0","id":3,"method":"clock.advance","params":{"ms":\#(ms)}}"#)
            guard let reply = try client.readLine(), reply.contains("\"result\"") else {
                throw ValidationError("clock.advance failed")
            }
        }
        for i in 0..<(roundTrips + 200) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            try client.send(line: luaSelect)
            let reply = try client.readLine()
            let t1 = DispatchTime.now().uptimeNanoseconds
            try client.send(line: pingLine)
            let pong = try client.readLine()
            let t2 = DispatchTime.now().uptimeNanoseconds
            guard pong?.contains("\"result\"") == true else { throw ValidationError("daemon.ping failed: \(pong ?? "EOF")") }
            try finish(try LuaBenchSupport.transitionDuration(reply, animator: "dt-slide"))
            // The built-in animator back to index 0 (a real transition too), so the next Lua select moves again.
            let t3 = DispatchTime.now().uptimeNanoseconds
            try client.send(line: swiftSelect)
            let again = try client.readLine()
            let t4 = DispatchTime.now().uptimeNanoseconds
            try finish(try LuaBenchSupport.transitionDuration(again, animator: DefaultSlideAnimator.name))
            if i >= 200 {
                select.append(t1 - t0)
                ping.append(t2 - t1)
                builtIn.append(t4 - t3)
            }
        }
        builtIn.sort()
        select.sort()
        ping.sort()
        func pct(_ a: [UInt64], _ p: Double) -> Double { Double(a[min(a.count - 1, Int(Double(a.count) * p))]) / 1000 }
        print("select vs ping: \(roundTrips) rounds on one connection; every select a real transition (reply checked)")
        print(String(format: "container.select with dt-slide (Lua), request to response  p50 %.1f µs  p99 %.1f µs", pct(select, 0.5), pct(select, 0.99)))
        print(String(format: "container.select with the built-in default-slide (Swift)     p50 %.1f µs  p99 %.1f µs", pct(builtIn, 0.5), pct(builtIn, 0.99)))
        print(String(format: "daemon.ping on the same connection, interleaved          p50 %.1f µs  p99 %.1f µs", pct(ping, 0.5), pct(ping, 0.99)))
        print(String(format: "ratio Lua select/ping (p50)  %.2f×   built-in select/ping (p50)  %.2f×",
                     pct(select, 0.5) / pct(ping, 0.5), pct(builtIn, 0.5) / pct(ping, 0.5)))
    }

    /// The same selects in this process, without the socket: the engine's and the Lua host's share of a select.
    func selectInProcess(_ plugins: String) throws { try selectInProcess(plugins, animator: "dt-slide") }

    func selectInProcess(_ plugins: String, animator: String) throws {
        let (host, scene, container) = try LuaBenchSupport.twoPageScene(plugins: plugins)
        defer { withExtendedLifetime(host) {} }  // the scene holds its animator provider weakly
        var lua: [UInt64] = [], builtIn: [UInt64] = []
        for i in 0..<(roundTrips + 200) {
            let t0 = DispatchTime.now().uptimeNanoseconds
            let started = try scene.select(container, index: 1, animator: animator)
            let t1 = DispatchTime.now().uptimeNanoseconds
            guard let first = started.transition, first.duration > 0 else { throw ValidationError("no Lua transition") }
            _ = scene.advance(by: Int64(first.duration * 1e9) + 100_000_000)
            let t2 = DispatchTime.now().uptimeNanoseconds
            let back = try scene.select(container, index: 0)
            let t3 = DispatchTime.now().uptimeNanoseconds
            guard let second = back.transition, second.duration > 0 else { throw ValidationError("no transition") }
            _ = scene.advance(by: Int64(second.duration * 1e9) + 100_000_000)
            if i >= 200 {
                lua.append(t1 - t0)
                builtIn.append(t3 - t2)
            }
        }
        lua.sort()
        builtIn.sort()
        print(String(format: "in process (no socket): select with %@ p50 %.1f µs; with the built-in p50 %.1f µs",
                     animator, Double(lua[lua.count / 2]) / 1000, Double(builtIn[builtIn.count / 2]) / 1000))
    }

    func saveToLive(_ plugins: String) throws {
        let folder = try LuaBenchSupport.temporaryFolder()
        let source = try String(contentsOfFile: plugins + "/dt-slide.lua", encoding: .utf8)
        try source.write(toFile: folder + "/dt-slide.lua", atomically: true, encoding: .utf8)
        let daemon = try SpawnedDaemon(arguments: ["--plugins", folder])
        defer { daemon.stop() }
        let client = try SegueClient(socketPath: daemon.socket)
        _ = try client.call("events.subscribe", ["types": ["plugin"]])
        var latencies: [Double] = []
        for i in 0..<saves {
            let text = source + "\n-- save \(i)\n"
            let temporary = folder + "/.dt-slide.lua.tmp"
            try text.write(toFile: temporary, atomically: false, encoding: .utf8)
            let start = DispatchTime.now().uptimeNanoseconds
            guard rename(temporary, folder + "/dt-slide.lua") == 0 else { throw ValidationError("rename failed") }
            while true {
                guard let event = try client.nextEvent(timeoutMs: 5000) else { throw ValidationError("no plugin.loaded") }
                if event["type"] == "plugin.loaded", event["name"] == "dt-slide" { break }
            }
            latencies.append(Double(DispatchTime.now().uptimeNanoseconds - start) / 1e6)
            usleep(20_000)
        }
        latencies.sort()
        print(String(format: "save-to-live (rename over → plugin.loaded event, %d saves)  p50 %.1f ms  max %.1f ms",
                     saves, latencies[latencies.count / 2], latencies[latencies.count - 1]))
    }
}

enum LuaBenchSupport {
    /// A manual scene whose root is a custom container of two view controllers (index 0 selected), its animators
    /// from the plugins of `plugins`.
    static func twoPageScene(plugins: String) throws -> (PluginHost, Scene, ContainerViewController) {
        let host = PluginHost(directory: plugins)
        host.loadAll()
        let (scene, container) = try twoPageScene(host: host)
        return (host, scene, container)
    }

    /// A manual 320×480 scene with a custom container of two pages on screen, animators from `host` (which the
    /// caller keeps alive: the scene holds its provider weakly).
    static func twoPageScene(host: PluginHost) throws -> (Scene, ContainerViewController) {
        let scene = Scene(id: "bench", size: Size(w: 320, h: 480), clock: .manual)
        scene.animatorProvider = host
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
        try scene.setRoot(container)
        return (scene, container)
    }

    /// The duration a transition-starting reply names, after checking that it started one with `animator`: the
    /// reply must carry that animator and a duration > 0, else the benchmark would be timing a no-op.
    static func transitionDuration(_ reply: String?, animator: String) throws -> Double {
        guard let reply, let value = try? JSONParser.parse(bytes: Array(reply.utf8)),
            let result = value["result"], result["animator"]?.stringValue == animator,
            let duration = result["duration"]?.doubleValue, duration > 0, result["transition"]?.stringValue != nil
        else {
            throw ValidationError("a timed select started no transition with \(animator): \(reply ?? "EOF")")
        }
        return duration
    }

    static func temporaryFolder() throws -> String {
        let dir = "/tmp/sgb-" + String(UUID().uuidString.prefix(8))
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        return dir
    }

    /// The repository's plugins folder (from the current folder, else next to the executable's build folder).
    static func pluginsFolder() throws -> String {
        if FileManager.default.fileExists(atPath: "plugins/dt-slide.lua") { return "plugins" }
        throw ValidationError("run from the repository's folder (plugins/dt-slide.lua not found)")
    }

    static func residentBytes() -> Int {
        guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8) else { return 0 }
        let fields = text.split(separator: " ")
        guard fields.count > 1, let pages = Int(fields[1]) else { return 0 }
        return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
    }
}
