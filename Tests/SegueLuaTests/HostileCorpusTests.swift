import Foundation
import SegueJSON
import SegueKit
import Testing

@testable import SegueLua

/// One file of Tests/Fixtures/hostile and what its `-- expect:` lines say must happen.
struct HostileCase: CustomTestStringConvertible, Sendable {
    let file: String
    let expectations: [(kind: String, text: String)]

    var testDescription: String { file }
    var name: String { String(file.dropLast(4)) }
    func expects(_ kind: String) -> [String] { expectations.filter { $0.kind == kind }.map(\.text) }

    static let directory = repositoryRoot + "/Tests/Fixtures/hostile"

    static let all: [HostileCase] = {
        let names = ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).filter { $0.hasSuffix(".lua") }.sorted()
        return names.map { file in
            let text = (try? String(contentsOfFile: directory + "/" + file, encoding: .utf8)) ?? ""
            let expectations = text.split(separator: "\n").compactMap { line -> (String, String)? in
                guard line.hasPrefix("-- expect: ") else { return nil }
                let rest = line.dropFirst("-- expect: ".count)
                let kind = rest.prefix { $0 != " " }
                return (String(kind), String(rest.dropFirst(kind.count).drop { $0 == " " }))
            }
            return HostileCase(file: file, expectations: expectations.map { (kind: $0.0, text: $0.1) })
        }
    }()
}

/// Loads the corpus once per test (each test gets its own host, so no state is shared).
func hostileHost() -> (PluginHost, [PluginEvent]) {
    var settings = LuaSettings()
    settings.memoryLimitBytes = 16 << 20
    // The instruction budget is the deterministic limit these tests name; the wall clock (tested on its own) is
    // set far enough away that a slow debug build never reaches it first.
    settings.callTimeoutMs = 20_000
    let host = PluginHost(directory: HostileCase.directory, settings: settings)
    let events = host.loadAll()
    return (host, events)
}

@Suite("Hostile and broken plugins")
struct HostileCorpusTests {
    @Test("the corpus has at least 20 plugins, each with an expectation")
    func corpusSize() {
        #expect(HostileCase.all.count >= 20)
        for c in HostileCase.all { #expect(!c.expectations.isEmpty, "\(c.file) has no -- expect: line") }
    }

    @Test("each hostile plugin is contained: the transition ends, the scene is consistent, the problem is named",
          arguments: HostileCase.all)
    func contained(_ c: HostileCase) throws {
        let (host, loadEvents) = hostileHost()
        if let expected = c.expects("load_failed").first {
            let failed = loadEvents.first { $0.type == "plugin.failed" && $0.file.hasSuffix("/" + c.file) }
            #expect(failed?.message?.contains(expected) == true, "\(c.file): \(failed?.message ?? "did not fail")")
            let record = host.records.first { $0.file.hasSuffix("/" + c.file) }
            #expect(record?.status == "failed")
            #expect(record?.error?.contains(expected) == true)
            return
        }
        let name = host.records.first { $0.file.hasSuffix("/" + c.file) && $0.status == "loaded" }?.name
        let animator = try #require(name, "\(c.file) did not load: \(loadEvents.filter { $0.file.hasSuffix(c.file) })")
        let recorder = Recorder()
        recorder.host = host
        let (scene, container, a, b) = try makeScene(host: host, recorder: recorder)
        let viewsBefore = scene.views
        let transition = try #require(try scene.select(container, index: 1, animator: animator).transition)
        var steps = 0
        while !transition.isEnded && steps < 600 {
            scene.advance(by: 1_000_000_000 / 60)
            steps += 1
        }
        scene.advance(by: 1_000_000_000)  // late timers and completions

        // The transition ended, completed, and the scene is exactly as a completed select leaves it.
        #expect(transition.state == .completed, "\(c.file): \(transition.state)")
        #expect(container.view.subviews.map(\.id) == [b.view.id], "\(c.file)")
        #expect(a.view.superview == nil)
        #expect(a.appearance == .disappeared && b.appearance == .appeared, "\(c.file)")
        #expect(container.selectedIndex == 1)
        #expect(scene.runningAnimationCount == 0 || transition.state == .completed)

        // The problem is reported by name.
        let messages = transition.problems.map(\.message)
        if !c.expects("failed_over").isEmpty {
            // What the failed call did was undone and the default animator finished: no view of the plugin's is
            // left anywhere, and the to-view ends untransformed.
            #expect(b.view.model.transform == .identity, "\(c.file)")
            #expect(scene.views == viewsBefore, "\(c.file): \(scene.views) views, \(viewsBefore) before")
        }
        for text in c.expects("failed_over") {
            #expect(transition.failedOver, "\(c.file) did not fail over")
            #expect(messages.contains { $0.contains(text) }, "\(c.file): \(messages.map { String($0.prefix(200)) })")
            #expect(recorder.types("transition.").contains("transition.failed_over"))
        }
        if !c.expects("watchdog").isEmpty {
            #expect(transition.forced, "\(c.file) was not completed by the watchdog")
            #expect(recorder.types("transition.").contains("transition.watchdog"))
        }
        let warnings = recorder.events.filter { $0.type == "plugin.warning" }.compactMap { $0.payload.message }
        for text in c.expects("warning") {
            #expect(warnings.contains { $0.contains(text) }, "\(c.file): \(warnings.map { String($0.prefix(200)) })")
        }
        let logs = recorder.events.filter { $0.type == "log" }.compactMap { $0.payload.message }
        for text in c.expects("log") {
            #expect(logs.contains { $0.contains(text) }, "\(c.file): \(logs)")
        }
        if !c.expects("completed").isEmpty {
            #expect(!transition.failedOver && !transition.forced && warnings.isEmpty, "\(c.file)")
        }

        // The scene keeps working: back to the first child with the built-in default.
        let back = try #require(try scene.select(container, index: 0).transition)
        scene.advance(by: 1_100_000_000)
        #expect(back.state == .completed)
        #expect(container.view.subviews.map(\.id) == [a.view.id])
    }

    @Test("a poisoned state hurts only its own plugin: another plugin and another scene still work")
    func isolation() throws {
        let (host, _) = hostileHost()
        let recorder = Recorder()
        recorder.host = host
        let (scene, container, _, _) = try makeScene(host: host, recorder: recorder)
        _ = try scene.select(container, index: 1, animator: "poisoned-string-metatable")
        scene.advance(by: 1_100_000_000)
        let ok = try #require(try scene.select(container, index: 0, animator: "twin").transition)
        scene.advance(by: 200_000_000)
        #expect(ok.state == .completed && !ok.failedOver)
    }
}

@Suite("Runaway plugins are quarantined per scene")
struct QuarantineTests {
    @Test("a timer chain that runs out of budget on every frame is disabled after 3 stops; a reload starts over")
    func timerChain() throws {
        let source = """
            local function burn() segue.after(0.01, burn) while true do end end
            return segue.animator { duration = 0.1, animate = function(ctx)
              ctx.container:add(ctx:view("to")) ctx:complete(true) segue.after(0.01, burn) end }
            """
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["burner.lua": source])
        _ = try scene.select(container, index: 1, animator: "burner")
        scene.advance(by: 2_000_000_000)  // 120 frames: without quarantine, 120 full budgets
        let warnings = recorder.events.filter { $0.type == "plugin.warning" }.compactMap { $0.payload.message }
        #expect(warnings.filter { $0.contains("instruction budget exceeded") }.count == 3)
        #expect(warnings.contains { $0.contains("plugin disabled in this scene") })
        // Disabled: the next transition with it fails over at once to the default.
        let next = try #require(try scene.select(container, index: 0, animator: "burner").transition)
        #expect(next.failedOver)
        #expect(next.problems.first?.message.contains("plugin disabled") == true)
        scene.advance(by: 1_100_000_000)
        #expect(next.state == .completed)
        // A reload makes a fresh state.
        let host = try #require(recorder.host)
        _ = host.reload(named: "burner")
        let fresh = try #require(try scene.select(container, index: 1, animator: "burner").transition)
        #expect(!fresh.failedOver)
    }
}

@Suite("A plugin's calls share a per-frame ceiling")
struct TurnBudgetTests {
    @Test("many completions that each stay under the budget stop after 4 budgets' worth in one frame")
    func manyHeavyCompletions() throws {
        let source = """
            return segue.animator { duration = 0.1, animate = function(ctx)
              local to = ctx:view("to")
              ctx.container:add(to)
              to.alpha = 0
              for i = 1, 50 do
                segue.animate({ duration = 0.1 }, function() to.alpha = 1 end, function()
                  segue.log("burn") for k = 1, 4e6 do end
                end)
              end
              segue.after(0.1, function() ctx:complete(true) end)
            end }
            """
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["heavy.lua": source])
        let t = try #require(try scene.select(container, index: 1, animator: "heavy").transition)
        scene.advance(by: 1_500_000_000)
        let burns = recorder.events.filter { $0.type == "log" && $0.payload.message == "burn" }.count
        // 50 blocks: 49 are superseded at once (finished = false) and one runs to the end; each completion burns
        // 4 M instructions, so at most 5 of them fit in the 4 × 5 M ceiling of their instant.
        #expect(burns >= 1 && burns <= 5, "\(burns)")
        let warnings = recorder.events.filter { $0.type == "plugin.warning" }.compactMap { $0.payload.message }
        #expect(warnings.contains { $0.contains("budgets in one frame") })
        #expect(t.state == .completed)
    }
}

@Suite("Bounded messages")
struct BoundedMessageTests {
    @Test("an enormous log line or error message is cut to 8 KiB")
    func bounded() throws {
        let source = """
            return segue.animator { duration = 0.1, animate = function(ctx)
              segue.log(("x"):rep(1e6))
              error(("y"):rep(1e6))
            end }
            """
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["loud.lua": source])
        let t = try #require(try scene.select(container, index: 1, animator: "loud").transition)
        let log = recorder.events.first { $0.type == "log" }?.payload.message ?? ""
        #expect(log.hasPrefix("xxxx") && log.utf8.count < 9000 && log.hasSuffix("more bytes)"))
        let reason = t.problems.first?.message ?? ""
        #expect(reason.contains("yyyy") && reason.utf8.count < 9000)
    }
}

@Suite("Plugin states keep no finished transition alive")
struct ContextLifetimeTests {
    @Test("after completed and failed-over transitions, the plugin's state holds no transition context")
    func noContextLeft() throws {
        let source = """
            local n = 0
            return segue.animator { duration = 0.1, animate = function(ctx)
              n = n + 1
              if n % 2 == 0 then error("every other one raises") end
              ctx.container:add(ctx:view("to"))
              ctx:complete(true)
            end }
            """
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["alt.lua": source])
        var failedOver = 0
        for i in 0..<6 {
            let t = try #require(try scene.select(container, index: (i + 1) % 2, animator: "alt").transition)
            if t.failedOver { failedOver += 1 }
            scene.advance(by: 1_100_000_000)
            #expect(t.state == .completed)
        }
        #expect(failedOver == 3)
        let instance = try #require(recorder.host?.instances.values.first?.values.first)
        #expect(instance.knownContexts.isEmpty, "\(instance.knownContexts.count) contexts left")
    }
}
