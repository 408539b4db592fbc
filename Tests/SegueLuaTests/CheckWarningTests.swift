import SegueJSON
import SegueKit
import Testing

@testable import SegueLua

/// Issue 29: mistakes shown where an animator author looks — warnings and raises as check problems with file and
/// line, strict checks, tracebacks of the plugin's own frames, raises kept on the transition.
@Suite("Check warnings, raises in callbacks, tracebacks")
struct CheckWarningTests {
    static let misspelt = """
        return segue.animator {
          kinds = { 'select' },
          duration = function() return 0.2 end,
          animate = function(ctx)
            local to = ctx:view('to')
            ctx.container:add(to)
            to.alpah = 0.5
            segue.animate({ duration = 0.2, curve = 'easeIn' }, function() to.alpha = 1 end,
              function() ctx:complete(not ctx.cancelled) end)
          end,
        }
        """

    @Test("misspelt names pass a plain check as warnings with file and line, and fail a strict one")
    func warningsAndStrict() throws {
        let host = PluginHost(directory: try makePluginFolder(["zoom.lua": Self.misspelt]))
        host.loadAll()
        let plain = try host.check(name: "zoom")
        #expect(plain.passed, "\(problemCodes(plain))")
        let problems = plain.cases.flatMap(\.problems)
        let name = try #require(problems.first { $0.code.rawValue == "unknown_name" })
        #expect(name.severity == .warning && name.file == "zoom.lua" && name.line == 7, "\(name)")
        #expect(name.message.contains("did you mean 'alpha'?"))
        let curve = try #require(problems.first { $0.code.rawValue == "unknown_curve" })
        #expect(curve.severity == .warning && curve.file == "zoom.lua" && curve.line == 8, "\(curve)")
        let strict = try host.check(name: "zoom", strict: true)
        #expect(!strict.passed)
        #expect(strict.strict && strict.cases.allSatisfy { !$0.passed })
    }

    @Test("a raise in a timer is raised_in_callback with its line, said once; the check fails")
    func raiseInTimer() throws {
        let host = PluginHost(directory: try makePluginFolder(["timer.lua": """
            return segue.animator {
              kinds = { 'select' },
              duration = function() return 0.2 end,
              animate = function(ctx)
                ctx.container:add(ctx:view('to'))
                segue.after(0.05, function()
                  error('boom')
                end)
                segue.after(0.2, function() ctx:complete(not ctx.cancelled) end)
              end,
            }
            """]))
        host.loadAll()
        let result = try host.check(name: "timer")
        #expect(!result.passed)
        let raised = try #require(result.cases.flatMap(\.problems).first { $0.code.rawValue == "raised_in_callback" })
        #expect(raised.file == "timer.lua" && raised.line == 7, "\(raised)")
        #expect(raised.message.hasPrefix("segue.after callback raised: timer.lua:7: boom"), "\(raised.message)")
        #expect(raised.severity == .error)
    }

    @Test("tracebacks name the plugin's functions and leave out the host's frames")
    func traceback() throws {
        let host = PluginHost(directory: try makePluginFolder(["bad.lua": """
            return segue.animator {
              kinds = { 'select' },
              duration = function() return 0.2 end,
              animate = function(ctx)
                ctx:vc(42)
              end,
            }
            """]))
        host.loadAll()
        let result = try host.check(name: "bad")
        let message = try #require(result.cases.first?.problems.first { $0.code.rawValue == "raised" }?.message)
        #expect(message.contains("bad.lua:5: in function 'animate'"), "\(message)")
        #expect(!message.contains("[C]"), "\(message)")
        #expect(!message.contains("segue-prelude"), "\(message)")
        #expect(!message.contains("<bad.lua"), "\(message)")
    }

    @Test("an animator that completes inside animate is completed_when_cancelled in a cancel case, not raised")
    func synchronousCompletion() throws {
        let host = PluginHost(directory: try makePluginFolder(["sync.lua": """
            return segue.animator {
              kinds = { 'select' },
              duration = function() return 0.2 end,
              animate = function(ctx) ctx.container:add(ctx:view('to')) ctx:complete(true) end,
            }
            """]))
        host.loadAll()
        let result = try host.check(name: "sync")
        let codes = problemCodes(result)
        #expect(codes["select interactive cancel at 0.3"] == ["completed_when_cancelled"], "\(codes)")
        #expect(codes["select interactive finish at 0.7"] == [], "\(codes)")
        #expect(!allCodes(result).contains("raised"))
    }

    @Test("a raise in a completion is kept on the transition: first line, counted")
    func raisesOnTransition() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins(["late.lua": """
            return segue.animator {
              duration = function() return 0.1 end,
              animate = function(ctx)
                local to = ctx:view('to')
                ctx.container:add(to)
                local function tick() error('tick') end
                segue.after(0.02, tick) segue.after(0.04, tick)
                segue.animate({ duration = 0.1 }, function() to.alpha = 1 end, function() ctx:complete(true) end)
              end,
            }
            """])
        let start = try scene.select(container, index: 1, animator: "late")
        let t = try #require(start.transition)
        _ = scene.advance(by: 200_000_000)
        #expect(t.isEnded)
        #expect(t.raises.count == 1)
        #expect(t.raises.first?.count == 2)
        #expect(t.raises.first?.message == "segue.after callback raised: late.lua:6: tick")
        let warning = try #require(recorder.events.first { $0.type == "plugin.warning" })
        guard case .pluginWarning(_, let file, _, let line, let code) = warning.payload else {
            Issue.record("not a warning")
            return
        }
        #expect(file == "late.lua" && line == 6 && code == .raisedInCallback)
    }

    @Test("a present whose animator never adds the presented view leaves it off screen (UIKit's blank screen)")
    func blankScreen() throws {
        let (scene, container, _, b, _) = try sceneWithPlugins(["lost.lua": """
            return segue.animator { duration = function() return 0.1 end, animate = function(ctx) ctx:complete(true) end }
            """])
        _ = container
        let home = try scene.createViewController(id: "home", title: "H", color: nil)
        _ = home
        let sheet = try scene.createViewController(id: "sheet", title: "S", color: nil)
        let start = try scene.present(sheet, from: container, style: .fullScreen, animator: "lost")
        let t = try #require(start.transition)
        _ = scene.advance(by: 200_000_000)
        #expect(t.isEnded)
        #expect(t.problems.map(\.code.rawValue).contains("missing_to_view"))
        #expect(sheet.view.superview == nil)
        _ = b
    }
}
