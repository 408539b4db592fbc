import SegueJSON
import SegueKit

/// `plugins.check`: runs an animator through the standard battery of docs/DESIGN.md §3 "Animator check", each case in a
/// private manual scene of its own (so a broken case cannot spoil the next), and reports problems with stable codes.
///
/// Cases: select forward and backward (custom container), push and pop (navigation), present and dismiss in the
/// `custom` and `fullScreen` styles, and an interactive select finished at 0.7 and cancelled at 0.3.
extension PluginHost {
    /// Problem codes the check reports (stable: scripts match on them).
    public static let checkProblemCodes = [
        "never_completed", "completed_twice", "raised", "too_slow", "extra_views", "missing_to_view",
        "from_view_not_restored", "appearance_inconsistent", "completed_when_cancelled",
    ]

    /// Wall time one case may take (2 s).
    static let checkCaseWallLimitNs: Int64 = 2_000_000_000

    /// Cases of docs/DESIGN.md §3's battery this engine cannot run yet.
    public static let pendingCheckCases: [String] = []

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
        case presentCustom = "present (custom)"
        case dismissCustom = "dismiss (custom)"
        case presentFullScreen = "present (fullScreen)"
        case dismissFullScreen = "dismiss (fullScreen)"
        case interactiveFinish = "interactive finish at 0.7"
        case interactiveCancel = "interactive cancel at 0.3"

        /// The transition kind the case runs.
        var kind: String {
            switch self {
            case .selectForward, .selectBackward, .interactiveFinish, .interactiveCancel: "select"
            case .push: "push"
            case .pop: "pop"
            case .presentCustom, .presentFullScreen: "present"
            case .dismissCustom, .dismissFullScreen: "dismiss"
            }
        }

        var style: PresentationStyle {
            self == .presentFullScreen || self == .dismissFullScreen ? .fullScreen : .custom
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
            var interactive: Double?
            switch checkCase {
            case .presentCustom, .presentFullScreen, .dismissCustom, .dismissFullScreen:
                container = try scene.createContainer(id: "c", kind: .custom, items: [a])
                try scene.setRoot(container)
                let style = checkCase.style
                if checkCase.kind == "dismiss" {
                    _ = try scene.present(b, from: container, style: style, animated: false)
                    start = { () throws(EngineError) in try scene.dismiss(b, animator: animator) }
                } else {
                    start = { () throws(EngineError) in
                        try scene.present(b, from: container, style: style, animator: animator)
                    }
                }
            case .interactiveFinish, .interactiveCancel:
                container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
                try scene.setRoot(container)
                interactive = checkCase == .interactiveFinish ? 0.7 : 0.3
                start = { () throws(EngineError) in
                    try scene.select(container, index: 1, interactive: .percent, animator: animator)
                }
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
            var from: ViewController = [.selectBackward, .pop].contains(checkCase) ? b : a
            var to: ViewController = from === a ? b : a
            // The presenting view controller is the presentation context: the root container, as in UIKit.
            if checkCase.kind == "present" { (from, to) = (container, b) }
            if checkCase.kind == "dismiss" { (from, to) = (b, container) }
            let fromBefore = (alpha: from.view.model.alpha, transform: from.view.model.transform, hidden: from.view.hidden)
            guard let transition = try start().transition else {
                return [CheckProblem(code: "never_completed", message: "the transition did not start")]
            }
            if let percent = interactive {
                try scene.updateTransition(transition, percent: percent)
                try scene.endInteraction(transition, cancel: checkCase == .interactiveCancel)
            }
            return drive(transition, checkCase, scene: scene, container: container, from: from, to: to,
                         fromBefore: fromBefore, recorder: recorder)
        } catch {
            return [CheckProblem(code: "raised", message: error.message)]
        }
    }

    private func drive(
        _ t: Transition, _ checkCase: CheckCase, scene: Scene, container: ContainerViewController, from: ViewController,
        to: ViewController,
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
        let cancelled = checkCase == .interactiveCancel
        // What is on screen where, once it is over: the view controller that should be showing and the one that
        // should not; a cancelled transition puts the from-view back.
        let shown = cancelled ? from : to
        let gone = cancelled ? to : from
        switch checkCase.kind {
        case "dismiss":
            if to.view.superview == nil {
                add("missing_to_view", "the presenting view is not on screen after the dismissal")
            }
            if containerView.isAlive && containerView.superview != nil {
                let left = containerView.subviews.map(\.id)
                add("extra_views", "the presentation's container view is still on screen\(left.isEmpty ? "" : " with " + left.joined(separator: ", "))")
            }
        default:
            if shown.view.superview !== containerView {
                add("missing_to_view", cancelled
                    ? "the from-view is not back in the container after the cancel"
                    : "the to-view is not in the container after the transition")
            }
            let extra = containerView.subviews.filter { $0 !== shown.view }
            if !extra.isEmpty {
                add("extra_views", "views left in the container: \(extra.map(\.id).joined(separator: ", "))")
            }
        }
        // The from-view is handed back (or kept on screen, under a custom presentation): it must look as it did.
        // A dismissed view is not: UIKit's dismissal animators leave it where it went.
        if checkCase.kind != "dismiss" {
            let m = from.view.model
            var changed: [String] = []
            if m.alpha != fromBefore.alpha { changed.append("alpha \(format(m.alpha))") }
            if m.transform != fromBefore.transform { changed.append("transform") }
            if from.view.hidden != fromBefore.hidden { changed.append("hidden") }
            if !changed.isEmpty {
                add("from_view_not_restored", "the from-view was left with \(changed.joined(separator: ", ")) (reset it in the completion)")
            }
        }
        // A custom presentation keeps the presenting view controller on screen (no disappear calls).
        let goneAppearance: Appearance = checkCase == .presentCustom ? .appeared : .disappeared
        let goneVC = checkCase == .dismissCustom || checkCase == .dismissFullScreen ? from : gone
        if shown.appearance != .appeared || goneVC.appearance != goneAppearance {
            add("appearance_inconsistent",
                "after the transition \(shown.id) is \(shown.appearance.rawValue) (should be appeared) and \(goneVC.id) \(goneVC.appearance.rawValue) (should be \(goneAppearance.rawValue))")
        }
        return problems
    }

    private func format(_ x: Double) -> String {
        let rounded = (x * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}
