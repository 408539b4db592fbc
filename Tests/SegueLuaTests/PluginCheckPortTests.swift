import SegueJSON
import SegueKit
import Testing

@testable import SegueLua

/// The check judges the seeds' own animators as their code deserves (Tests/Fixtures/check-ports).
@Suite("plugins.check on the seeds' ports")
struct PluginCheckPortTests {
    static func host() -> PluginHost {
        let host = PluginHost(directory: repositoryRoot + "/Tests/Fixtures/check-ports")
        host.loadAll()
        return host
    }

    /// The failed cases' codes, leaving out the cases that passed.
    static func failures(_ result: CheckReport) -> [String: [String]] { problemCodes(result).filter { !$0.value.isEmpty } }

    @Test("seed 000's PrivateAnimatedTransition, which never resets the from-view's alpha: from_view_not_restored")
    func privateAnimatedTransition() throws {
        let result = try Self.host().check(name: "private-animated-transition")
        #expect(result.passed == false)
        let failures = Self.failures(result)
        #expect(failures["select forward"] == ["from_view_not_restored"], "\(failures)")
        #expect(failures["push"] == ["from_view_not_restored"], "\(failures)")
        // A cancel puts the from-view back as it was: nothing to restore there.
        #expect(failures["select interactive cancel at 0.3"] == nil, "\(failures)")
    }

    @Test("seed 003's flip completing YES whatever happened: completed_when_cancelled in push and pop")
    func flipAlwaysTrue() throws {
        let result = try Self.host().check(name: "flip-always-true")
        #expect(result.passed == false)
        let failures = Self.failures(result)
        for kind in ["push", "pop"] {
            #expect(failures["\(kind) interactive cancel at 0.3"]?.contains("completed_when_cancelled") == true, "\(failures)")
            #expect(failures["\(kind) interactive finish at 0.7"] == nil, "\(failures)")
            #expect(failures[kind] == nil, "\(failures)")
        }
    }

    @Test("seed 001's panel animator with its presentation: completed_when_cancelled in present and dismiss")
    func panelAlwaysTrue() throws {
        let result = try Self.host().check(name: "panel-slide", presentation: "panel")
        #expect(result.passed == false)
        #expect(result.presentation == "panel")
        let failures = Self.failures(result)
        for kind in ["present", "dismiss"] {
            #expect(failures["\(kind) (custom) interactive cancel at 0.3"]?.contains("completed_when_cancelled") == true,
                    "\(failures)")
            #expect(failures["\(kind) (custom)"] == nil, "\(failures)")
        }
        // With its presentation plugin the animator is not run full screen.
        let skipped = result.skipped.map(\.name)
        #expect(skipped.contains("present (fullScreen)") && skipped.contains("dismiss (fullScreen)"))
    }

    @Test("the truthful panel animator passes with its presentation plugin")
    func panelTruthful() throws {
        let result = try Self.host().check(name: "panel-slide-truthful", presentation: "panel")
        #expect(result.passed == true, "\(Self.failures(result))")
        #expect(result.cases.count == 6)
    }

    @Test("the built-in default-slide is checkable and passes, every case")
    func defaultSlide() throws {
        let result = try Self.host().check(name: "default-slide")
        #expect(result.passed == true, "\(Self.failures(result))")
        #expect(result.cases.count == CheckCase.battery.count)
    }

    @Test("presentation and delegate must name loaded plugins of their kind", arguments: [
        ("nope", nil, "presentation", EngineError.Code.notFound),
        ("panel-slide", nil, "presentation", .invalidParams),
        (nil, "nope", "delegate", .notFound),
        (nil, "panel", "delegate", .invalidParams),
    ] as [(String?, String?, String, EngineError.Code)])
    func presentationAndDelegateChecked(presentation: String?, delegate: String?, param: String, code: EngineError.Code) {
        do {
            _ = try Self.host().makeCheck(name: "panel-slide", presentation: presentation, delegate: delegate)
            Issue.record("accepted")
        } catch {
            #expect(error.code == code && error.param == param, "\(error)")
        }
    }

    @Test("a check runs one case per step and its scenes are gone between steps")
    func stepByStep() throws {
        let host = Self.host()
        let check = try host.makeCheck(name: "flip-always-true")
        #expect(check.planned.count == 6)
        var steps = 0
        while !check.isFinished {
            check.step()
            steps += 1
            #expect(host.instances.isEmpty)
            #expect(check.report.cases.count == steps)
        }
        #expect(steps == 6)
    }
}
