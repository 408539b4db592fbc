import SegueJSON
import SegueKit
import Testing

@testable import SegueLua

/// The codes of the problems of every failed case of a check result, by case.
func problemCodes(_ result: CheckReport) -> [String: [String]] {
    var codes: [String: [String]] = [:]
    for c in result.cases { codes[c.name] = c.problems.map(\.code.rawValue) }
    return codes
}

func allCodes(_ result: CheckReport) -> Set<String> { Set(problemCodes(result).values.flatMap { $0 }) }

@Suite("plugins.check")
struct PluginCheckTests {
    @Test("every bundled animator passes the check (each declares the kinds it is written for)")
    func bundledAnimatorsPass() throws {
        let host = PluginHost(directory: repositoryRoot + "/plugins")
        host.loadAll()
        let animators = host.records.filter { $0.kind == .animator && $0.status == "loaded" }.map(\.name)
        #expect(animators.count >= 9)
        for name in animators {
            let result = try host.check(name: name)
            #expect(result.passed == true, "\(name): \(problemCodes(result))")
            #expect(result.cases.count >= 2, "\(name)")
        }
    }

    @Test("the bundled side-panel animator passes with its presentation plugin")
    func sidePanelWithItsPresentation() throws {
        let host = PluginHost(directory: repositoryRoot + "/plugins")
        host.loadAll()
        let result = try host.check(name: "side-panel-slide", presentation: "side-panel")
        #expect(result.passed == true, "\(problemCodes(result))")
        #expect(result.cases.count == 6)
    }

    @Test("the modal and interactive cases find their problems", arguments: [
        ("seedstyle", "select", "animate = function(ctx) local to = ctx:view('to') ctx.container:add(to) segue.animate({ duration = 0.2 }, function() to.alpha = 1 end, function() ctx:complete(true) end) end",
         "select interactive cancel at 0.3", "completed_when_cancelled"),
        ("lostpresent", "present", "animate = function(ctx) ctx:complete(true) end", "present (custom)", "missing_to_view"),
        ("fadepresenter", "present", "animate = function(ctx) ctx.container:add(ctx:view('to')) local f = ctx:vc('from').view f.alpha = 0 ctx:complete(true) end",
         "present (custom)", "from_view_not_restored"),
        ("stuckdismiss", "dismiss", "animate = function(ctx) end", "dismiss (fullScreen)", "never_completed"),
        ("fullscreenonly", "present", "animate = function(ctx) if ctx.presentation_style == 'custom' then error('custom?') end ctx.container:add(ctx:view('to')) ctx:complete(true) end",
         "present (custom)", "raised"),
    ])
    func modalAndInteractiveCases(name: String, kind: String, animate: String, checkCase: String, code: String) throws {
        let dir = try makePluginFolder([
            "\(name).lua": "return segue.animator { kinds = { '\(kind)' }, duration = function() return 0.2 end, \(animate) }",
        ])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let result = try host.check(name: name)
        #expect(result.passed == false)
        #expect(problemCodes(result)[checkCase]?.contains(code) == true, "\(problemCodes(result))")
    }

    @Test("each kind of broken animator is reported with its stable code", arguments: [
        ("never", "animate = function(ctx) ctx.container:add(ctx:view('to')) end", "never_completed"),
        ("twice", "animate = function(ctx) ctx.container:add(ctx:view('to')) ctx:complete(true) ctx:complete(true) end", "completed_twice"),
        ("raises", "animate = function(ctx) error('boom') end", "raised"),
        ("slow", "animate = function(ctx) ctx.container:add(ctx:view('to')) segue.after(1.0, function() ctx:complete(true) end) end", "too_slow"),
        ("extra", "animate = function(ctx) ctx.container:add(ctx:view('to')) ctx.container:add(segue.view{frame = segue.rect(0, 0, 10, 10)}) ctx:complete(true) end", "extra_views"),
        ("noto", "animate = function(ctx) ctx:complete(true) end", "missing_to_view"),
        ("faded", "animate = function(ctx) ctx.container:add(ctx:view('to')) ctx:view('from').alpha = 0 ctx:complete(true) end", "from_view_not_restored"),
        ("endedraises", "animate = function(ctx) ctx.container:add(ctx:view('to')) ctx:complete(true) end, ended = function() error('in ended') end", "raised"),
    ])
    func brokenAnimators(name: String, animate: String, code: String) throws {
        let dir = try makePluginFolder([
            "\(name).lua": "return segue.animator { duration = function() return 0.2 end, \(animate) }",
        ])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let result = try host.check(name: name)
        #expect(result.passed == false)
        #expect(allCodes(result).contains(code), "\(problemCodes(result))")
    }

    @Test("an error inside a segue.animate block carries one traceback, reaching down into the block")
    func oneTracebackFromAnimateBlock() throws {
        let dir = try makePluginFolder([
            "nilview.lua": """
                return segue.animator { duration = function() return 0.2 end, animate = function(ctx)
                  local missing = ctx.nothing
                  segue.animate({ duration = 0.2 }, function()
                    missing.alpha = 1
                  end, function() ctx:complete(true) end)
                end }
                """,
        ])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let result = try host.check(name: "nilview")
        let messages = result.cases.flatMap(\.problems)
            .filter { $0.code == .raised }.map(\.message)
        #expect(!messages.isEmpty)
        for message in messages {
            #expect(message.components(separatedBy: "stack traceback:").count == 2, "\(message)")
            #expect(message.contains("nilview.lua:4"), "\(message)")
        }
    }

    @Test("an unknown name and a plugin that is no animator are refused")
    func refused() throws {
        let dir = try makePluginFolder([
            "d.lua": "return segue.delegate { animator_for = function(op) return nil end }",
        ])
        let host = PluginHost(directory: dir)
        host.loadAll()
        #expect(throws: EngineError.self) { try host.check(name: "nope") }
        #expect(throws: EngineError.self) { try host.check(name: "d") }
    }

    @Test("the check leaves no plugin state behind")
    func noStateLeft() throws {
        let host = PluginHost(directory: repositoryRoot + "/plugins")
        host.loadAll()
        _ = try host.check(name: "dt-slide")
        #expect(host.instances.isEmpty)
    }
}

@Suite("plugins/README.md's tutorial")
struct TutorialTests {
    /// The first ```lua block of plugins/README.md (the tutorial's fade-up), unindented.
    static func tutorialSource() throws -> String {
        let text = try String(contentsOfFile: repositoryRoot + "/plugins/README.md", encoding: .utf8)
        guard let start = text.range(of: "```lua\n") else { return "" }
        let rest = text[start.upperBound...]
        guard let end = rest.range(of: "```") else { return "" }
        return rest[..<end.lowerBound].split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.hasPrefix("   ") ? String($0.dropFirst(3)) : String($0) }.joined(separator: "\n")
    }

    @Test("the tutorial's fade-up loads and passes the check, as the guide shows")
    func tutorialPasses() throws {
        let source = try TutorialTests.tutorialSource()
        #expect(source.contains("name = \"fade-up\""))
        let host = PluginHost(directory: try makePluginFolder(["fade-up.lua": source]))
        host.loadAll()
        let result = try host.check(name: "fade-up")
        #expect(result.passed == true, "\(problemCodes(result))")
    }

    @Test("fading the from-view out without a reset fails with from_view_not_restored, as the guide shows")
    func fadeOutFails() throws {
        let source = try TutorialTests.tutorialSource()
            .replacingOccurrences(of: "name = \"fade-up\"", with: "name = \"fade-out\"")
            .replacingOccurrences(of: "to.alpha = 1\n", with: "to.alpha = 1\n    from.alpha = 0\n")
        let host = PluginHost(directory: try makePluginFolder(["fade-out.lua": source]))
        host.loadAll()
        let result = try host.check(name: "fade-out")
        #expect(result.passed == false)
        let codes = problemCodes(result)
        // fade-up declares select, push and pop: 4 straight cases and 3 × 2 interactive ones.
        #expect(codes.count == 10)
        // Every case that ends with the transition done leaves the from-view faded; a cancel puts it back.
        let cancels = codes.keys.filter { $0.hasSuffix("cancel at 0.3") }
        #expect(cancels.count == 3)
        #expect(codes.filter { !cancels.contains($0.key) }.values.allSatisfy { $0 == ["from_view_not_restored"] }, "\(codes)")
        #expect(cancels.allSatisfy { codes[$0] == [] }, "\(codes)")
    }
}

@Suite("Animators that declare their kinds")
struct DeclaredKindsTests {
    @Test("kinds limits the check to those cases; the others are listed as skipped")
    func kindsLimitTheCheck() throws {
        let dir = try makePluginFolder([
            "dismiss-only.lua": """
                return segue.animator { kinds = { "dismiss", "pop" }, duration = 0.2, animate = function(ctx)
                  ctx:complete(not ctx.cancelled) end }
                """,
            "bad-kinds.lua": "return segue.animator { kinds = { 'sideways' }, animate = function(ctx) end }",
            "bad-kinds-type.lua": "return segue.animator { kinds = 'pop', animate = function(ctx) end }",
        ])
        let host = PluginHost(directory: dir)
        let events = host.loadAll()
        let failed = events.filter { $0.type == "plugin.failed" }.map(\.name).sorted()
        #expect(failed == ["bad-kinds", "bad-kinds-type"])
        #expect(events.first { $0.name == "bad-kinds" }?.message?.contains("kinds[1] must be one of") == true)
        let result = try host.check(name: "dismiss-only")
        #expect(result.cases.map(\.name)
            == ["pop", "dismiss (custom)", "dismiss (fullScreen)", "pop interactive finish at 0.7",
                "pop interactive cancel at 0.3", "dismiss (custom) interactive finish at 0.7",
                "dismiss (custom) interactive cancel at 0.3"])
        #expect(result.skipped.count == CheckCase.battery.count - 7)
        // It does not add the to-view (a dismissal's to-view is already there): in a pop that is a problem.
        #expect(allCodes(result).contains("missing_to_view"))
    }
}
