import SegueJSON
import SegueKit

/// `plugins.check`: runs an animator through the standard battery of SPEC §3 "Animator check", each case in a
/// private manual scene of its own (so a broken case cannot spoil the next), and reports problems with stable codes.
///
/// Cases: select forward and backward (custom container), push and pop (navigation). Modal present/dismiss and the
/// interactive finish/cancel cases join the battery when the engine has modal presentation and interactive
/// transitions (issue 4): they are listed under `pending` until then, never reported as passed.
extension PluginHost {
    /// Problem codes the check reports (stable: scripts match on them).
    public static let checkProblemCodes = [
        "never_completed", "completed_twice", "raised", "too_slow", "extra_views", "missing_to_view",
        "from_view_not_restored", "appearance_inconsistent", "completed_when_cancelled",
    ]

    /// Wall time one case may take (2 s).
    static let checkCaseWallLimitNs: Int64 = 2_000_000_000

    /// Cases of SPEC's battery this engine cannot run yet.
    public static let pendingCheckCases = [
        "present (custom)", "dismiss (custom)", "present (fullScreen)", "dismiss (fullScreen)",
        "interactive finish at 0.7", "interactive cancel at 0.3",
    ]

    /// Runs the check for the animator `name` in scenes of `size`.
    public func check(name: String, size: Size = Size(w: 320, h: 480)) throws(EngineError) -> JSONValue {
        guard let path = byName[name], let record = files[path]?.records.first(where: { $0.name == name }) else {
            throw EngineError(.notFound, "no plugin named '\(name)' is loaded", param: "name", id: name)
        }
        guard record.kind == "animator" else {
            throw EngineError(.invalidParams, "plugin '\(name)' is a \(record.kind); plugins.check runs animators", param: "name")
        }
        var cases: [JSONValue] = []
        var skipped: [JSONValue] = []
        let declared = kinds(ofAnimator: name)
        for checkCase in CheckCase.allCases {
            if let declared, !declared.contains(checkCase.kind) {
                skipped.append(.object(JSONObject([
                    ("case", .string(checkCase.rawValue)),
                    ("reason", .string("the animator declares kinds = {\(declared.map { "\"\($0)\"" }.joined(separator: ", "))}")),
                ])))
                continue
            }
            let problems = run(checkCase, animator: name, size: size)
            cases.append(.object(JSONObject([
                ("case", .string(checkCase.rawValue)), ("passed", .bool(problems.isEmpty)),
                ("problems", .array(problems.map { .object(JSONObject([("code", .string($0.code)), ("message", .string($0.message))])) })),
            ])))
        }
        let passed = cases.allSatisfy { $0["passed"]?.boolValue == true }
        return .object(JSONObject([
            ("plugin", .string(name)), ("passed", .bool(passed)), ("cases", .array(cases)),
            ("skipped", .array(skipped)), ("pending", .array(PluginHost.pendingCheckCases.map { .string($0) })),
        ]))
    }

    struct CheckProblem {
        let code: String
        let message: String
    }

    enum CheckCase: String, CaseIterable {
        case selectForward = "select forward"
        case selectBackward = "select backward"
        case push = "push"
        case pop = "pop"

        /// The transition kind the case runs.
        var kind: String {
            switch self {
            case .selectForward, .selectBackward: "select"
            case .push: "push"
            case .pop: "pop"
            }
        }
    }

    /// Collects what the scene reports during a case.
    final class CheckRecorder: EventSink {
        var warnings: [String] = []
        func emit(_ event: EngineEvent) {
            if event.type == "plugin.warning" { warnings.append(event.fields["message"]?.stringValue ?? "") }
        }
        func isListening(to type: String, in scene: String) -> Bool { type == "plugin.warning" }
    }

    private func run(_ checkCase: CheckCase, animator: String, size: Size) -> [CheckProblem] {
        let scene = Scene(id: "check-\(animator)", size: size, clock: .manual)
        let recorder = CheckRecorder()
        scene.sink = recorder
        scene.animatorProvider = self
        defer {
            scene.finishAllTransitions()
            forget(scene: scene)
        }
        do throws(EngineError) {
            let a = try scene.createViewController(id: "a", title: "A", color: Color(hex: "#ff3b30"))
            let b = try scene.createViewController(id: "b", title: "B", color: Color(hex: "#007aff"))
            let container: ContainerViewController
            let start: () throws(EngineError) -> TransitionStart
            switch checkCase {
            case .selectForward, .selectBackward:
                container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
                try scene.setRoot(container)
                if checkCase == .selectBackward { _ = try scene.select(container, index: 1, animated: false) }
                let index = checkCase == .selectForward ? 1 : 0
                start = { () throws(EngineError) in try scene.select(container, index: index, animator: animator) }
            case .push, .pop:
                container = try scene.createContainer(id: "nav", kind: .navigation, items: [a])
                try scene.setRoot(container)
                if checkCase == .pop { _ = try scene.push(container, b, animated: false) }
                start = checkCase == .push
                    ? { () throws(EngineError) in try scene.push(container, b, animator: animator) }
                    : { () throws(EngineError) in try scene.pop(container, animator: animator) }
            }
            let from = checkCase == .selectBackward || checkCase == .pop ? b : a
            let to = from === a ? b : a
            let fromBefore = (alpha: from.view.model.alpha, transform: from.view.model.transform, hidden: from.view.hidden)
            guard let transition = try start().transition else {
                return [CheckProblem(code: "never_completed", message: "the transition did not start")]
            }
            return drive(transition, scene: scene, container: container, from: from, to: to, fromBefore: fromBefore,
                         recorder: recorder)
        } catch {
            return [CheckProblem(code: "raised", message: error.message)]
        }
    }

    private func drive(
        _ t: Transition, scene: Scene, container: ContainerViewController, from: ViewController, to: ViewController,
        fromBefore: (alpha: Double, transform: Transform3D, hidden: Bool), recorder: CheckRecorder
    ) -> [CheckProblem] {
        let started = scene.now
        let frame: Int64 = 1_000_000_000 / 60
        // Past the watchdog's deadline (duration × factor + grace), whatever the animator does.
        let limit = Int64(min(t.duration * scene.config.watchdogFactor * 1e9 + Double(scene.config.watchdogGraceMs) * 1e6, 1e12))
            + 10 * frame
        // A wall-clock bound too: an animator whose timers burn their budget on every frame must not hold the daemon.
        let wallStart = FileSystem.monotonicNanoseconds()
        var gaveUp = false
        while !t.isEnded && scene.now - started <= limit {
            _ = scene.advance(by: frame)
            if FileSystem.monotonicNanoseconds() - wallStart > PluginHost.checkCaseWallLimitNs {
                gaveUp = true
                break
            }
        }
        // Let late completions and timers run (a second complete often comes from one).
        if !gaveUp { _ = scene.advance(by: Int64(max(t.duration, 0.1) * 1e9) + frame) }

        var problems: [CheckProblem] = []
        func add(_ code: String, _ message: String) {
            if !problems.contains(where: { $0.code == code && $0.message == message }) {
                problems.append(CheckProblem(code: code, message: message))
            }
        }
        for problem in t.problems { add(problem.code, problem.message) }
        if gaveUp {
            add("too_slow", "the case was stopped after \(PluginHost.checkCaseWallLimitNs / 1_000_000_000) s of wall time: the animator's calls keep running out of budget")
        }
        for warning in recorder.warnings {
            if warning.contains("raised") { add("raised", warning) }
            if warning.contains("more than once") && !problems.contains(where: { $0.code == "completed_twice" }) {
                add("completed_twice", warning)
            }
        }
        if !t.isEnded || t.forced {
            add("never_completed", "complete was never called; the watchdog completed the transition")
        } else if !t.failedOver, let ended = t.endedAt, t.duration > 0,
            Double(ended - started) > t.duration * 1.5e9 + Double(frame)
        {
            let took = Double(ended - started) / 1e9
            add("too_slow", "complete came after \(format(took)) s, more than 1.5 × the declared \(format(t.duration)) s")
        }
        let containerView = t.context?.containerView ?? container.view
        if to.view.superview !== containerView {
            add("missing_to_view", "the to-view is not in the container after the transition")
        }
        let extra = containerView.subviews.filter { $0 !== to.view }
        if !extra.isEmpty {
            add("extra_views", "views left in the container: \(extra.map(\.id).joined(separator: ", "))")
        }
        let m = from.view.model
        var changed: [String] = []
        if m.alpha != fromBefore.alpha { changed.append("alpha \(format(m.alpha))") }
        if m.transform != fromBefore.transform { changed.append("transform") }
        if from.view.hidden != fromBefore.hidden { changed.append("hidden") }
        if !changed.isEmpty {
            add("from_view_not_restored", "the from-view was left with \(changed.joined(separator: ", ")) (reset it in the completion)")
        }
        if to.appearance != .appeared || from.appearance != .disappeared {
            add("appearance_inconsistent",
                "after the transition the to-view controller is \(to.appearance.rawValue) and the from-view controller \(from.appearance.rawValue)")
        }
        return problems
    }

    private func format(_ x: Double) -> String {
        let rounded = (x * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
