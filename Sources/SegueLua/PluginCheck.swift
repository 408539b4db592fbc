import SegueKit

/// One run of `plugins.check` for an animator: the cases of `CheckCase.battery` it applies to, run one per
/// `step()`, each in a private manual scene of its own that is made and forgotten inside the step (so a broken case
/// cannot spoil the next, and a check stopped between steps leaves nothing behind). The daemon calls `step()` once
/// per turn of its event loop, so no check holds the loop longer than one case; `PluginHost.check` runs them all.
public final class PluginCheck {
    public let plugin: String
    public let size: Size
    /// The presentation plugin the present and dismiss cases run with (then in the custom style only).
    public let presentation: String?
    /// The delegate plugin the check's containers get (its `interaction_for` may give interactive cases theirs).
    public let delegate: String?
    let host: PluginHost
    /// The cases to run, in order, and the ones left out with the reason.
    public let planned: [CheckCase]
    let skipped: [(CheckCase, String)]
    private var results: [CheckReport.Case] = []
    private var allPassed = true
    /// Warnings fail the check too.
    public let strict: Bool
    /// For an interaction plugin's check: the plugin the gesture scripts drive (`plugin` is then its animator).
    public let interaction: String?
    /// The forward direction found for each kind (`forwardDirection`).
    private var directions: [String: (dx: Double, dy: Double)?] = [:]

    init(host: PluginHost, plugin: String, size: Size, presentation: String?, delegate: String?, declaredKinds: [String]?,
         strict: Bool = false, interaction: String? = nil, interactionKinds: [String]? = nil)
    {
        self.strict = strict
        self.interaction = interaction
        self.host = host
        self.plugin = plugin
        self.size = size
        self.presentation = presentation
        self.delegate = delegate
        var planned: [CheckCase] = []
        var skipped: [(CheckCase, String)] = []
        let battery: [CheckCase]
        if interaction != nil {
            // Each kind the interaction plugin is written for, with each published gesture script.
            let kinds: [(CheckCase.Operation, PresentationStyle?)] = [
                (.selectForward, nil), (.push, nil), (.pop, nil), (.present, .custom), (.dismiss, .custom),
            ]
            var cases: [CheckCase] = []
            for (operation, style) in kinds {
                for script in GestureScript.published {
                    var c = CheckCase(operation: operation, style: style, interactive: nil)
                    c.gesture = script
                    if let interactionKinds, !interactionKinds.contains(c.kind) {
                        let list = interactionKinds.map { "\"\($0)\"" }.joined(separator: ", ")
                        skipped.append((c, "the interaction plugin declares kinds = {\(list)}"))
                    } else {
                        cases.append(c)
                    }
                }
            }
            battery = cases
        } else {
            battery = CheckCase.battery
        }
        for checkCase in battery {
            if let declaredKinds, !declaredKinds.contains(checkCase.kind) {
                let list = declaredKinds.map { "\"\($0)\"" }.joined(separator: ", ")
                skipped.append((checkCase, "the animator declares kinds = {\(list)}"))
            } else if let presentation, checkCase.style == .fullScreen {
                skipped.append((checkCase, "present and dismiss run with presentation '\(presentation)' (custom style)"))
            } else {
                planned.append(checkCase)
            }
        }
        self.planned = planned
        self.skipped = skipped
    }

    /// True once every planned case has run.
    public var isFinished: Bool { results.count >= planned.count }

    /// The case the next `step()` runs.
    public var nextCase: CheckCase? { isFinished ? nil : planned[results.count] }

    /// Runs the next case (nothing when finished).
    public func step() {
        guard let checkCase = nextCase else { return }
        let result = CheckReport.Case(name: checkCase.name, problems: run(checkCase), strict: strict)
        if !result.passed { allPassed = false }
        results.append(result)
    }

    /// The report for the cases run so far.
    public var report: CheckReport {
        CheckReport(
            plugin: interaction ?? plugin, passed: allPassed, strict: strict, cases: results,
            skipped: skipped.map { CheckReport.Skipped(name: $0.0.name, reason: $0.1) },
            pending: PluginHost.pendingCheckCases, presentation: presentation, delegate: delegate)
    }

    typealias Problem = CheckReport.Problem

    /// Collects what the scene reports during a case.
    final class Recorder: EventSink {
        var warnings: [PluginWarning] = []
        func emit(_ event: EngineEvent) {
            if case .pluginWarning(_, let file, let message, let line, let code) = event.payload {
                warnings.append(PluginWarning(code: code ?? .other,
                                              message: message, file: file, line: line))
            }
        }
        func isListening(to kind: EngineEvent.Kind, in scene: String) -> Bool { kind == .pluginWarning }
    }

    /// What a case starts from: its root container, the from and to view controllers, and how to start it.
    struct Setup {
        let container: ContainerViewController
        let from: ViewController
        let to: ViewController
        let start: () throws(EngineError) -> TransitionStart
    }

    private func run(_ checkCase: CheckCase) -> [Problem] {
        if let script = checkCase.gesture { return runGesture(checkCase, script) }
        let (scene, recorder) = makeScene("check-\(plugin)")
        defer { discard(scene) }
        do throws(EngineError) {
            let setup = try prepare(checkCase, in: scene)
            let from = setup.from, to = setup.to
            let fromBefore = (alpha: from.view.model.alpha, transform: from.view.model.transform, hidden: from.view.hidden)
            // What the presentation plugin keeps in a presentation's container (a dimming view) is not the animator's.
            let kept = checkCase.operation == .dismiss ? (from.presentation?.containerView.subviews ?? []) : []
            guard let transition = try setup.start().transition else {
                return [Problem(code: .neverCompleted, message: "the transition did not start")]
            }
            // Whether the presenting view stays on screen under the presentation (custom, no removes_presenter_view).
            let presented = checkCase.operation == .present ? to : from
            let presenterStays = presented.presentation.map { !$0.removesPresenterView } ?? false
            if let ending = checkCase.interactive {
                // An animator that completes inside animate leaves nothing to drive: for a cancel case that is
                // the verdict (the interaction could not cancel it), not the engine's refusal of the update.
                guard !transition.isEnded else {
                    var problems = drive(transition, scene: scene, recorder: recorder)
                    if ending == .cancel {
                        problems.add(.completedWhenCancelled, "the transition completed inside animate, before "
                            + "the interaction could cancel it at \(Self.format(ending.percent)) (an interactive "
                            + "transition completes when the interaction ends)")
                    }
                    return problems
                }
                try scene.updateTransition(transition, percent: ending.percent)
                try scene.endInteraction(transition, cancel: ending == .cancel)
            }
            var problems = drive(transition, scene: scene, recorder: recorder)
            judge(transition, checkCase, container: setup.container, from: from, to: to, fromBefore: fromBefore,
                  presenterStays: presenterStays, kept: kept, problems: &problems)
            return problems
        } catch {
            return [Problem(code: .raised, message: error.message)]
        }
    }

    /// Builds the case's scene and says how to start its transition.
    private func prepare(_ checkCase: CheckCase, in scene: Scene) throws(EngineError) -> Setup {
        let a = try scene.createViewController(id: "a", title: "A", color: Color(hex: "#ff3b30"))
        let b = try scene.createViewController(id: "b", title: "B", color: Color(hex: "#007aff"))
        let interactive: Interactivity = checkCase.gesture != nil ? .plugin(interaction ?? "")
            : (checkCase.interactive == nil ? .none : .percent)
        let animator = plugin
        let kind: ContainerKind = checkCase.operation == .push || checkCase.operation == .pop ? .navigation : .custom
        let items = checkCase.operation == .selectForward || checkCase.operation == .selectBackward ? [a, b] : [a]
        let container = try scene.createContainer(id: kind == .navigation ? "nav" : "c", kind: kind, items: items)
        try scene.setRoot(container)
        if let delegate { scene.setDelegate(of: container, plugin: delegate, rules: []) }
        let style = checkCase.style
        let presentation = style == .custom ? self.presentation : nil
        switch checkCase.operation {
        case .selectForward:
            return Setup(container: container, from: a, to: b) { () throws(EngineError) in
                try scene.select(container, index: 1, interactive: interactive, animator: animator)
            }
        case .selectBackward:
            _ = try scene.select(container, index: 1, animated: false)
            return Setup(container: container, from: b, to: a) { () throws(EngineError) in
                try scene.select(container, index: 0, interactive: interactive, animator: animator)
            }
        case .push:
            return Setup(container: container, from: a, to: b) { () throws(EngineError) in
                try scene.push(container, b, interactive: interactive, animator: animator)
            }
        case .pop:
            _ = try scene.push(container, b, animated: false)
            return Setup(container: container, from: b, to: a) { () throws(EngineError) in
                try scene.pop(container, interactive: interactive, animator: animator)
            }
        case .present:
            // The presenting view controller is the presentation context: the root container, as in UIKit.
            return Setup(container: container, from: container, to: b) { () throws(EngineError) in
                try scene.present(b, from: container, style: style, presentation: presentation,
                                  interactive: interactive, animator: animator)
            }
        case .dismiss:
            _ = try scene.present(b, from: container, style: style, presentation: presentation, animated: false)
            return Setup(container: container, from: b, to: container) { () throws(EngineError) in
                try scene.dismiss(b, interactive: interactive, animator: animator)
            }
        }
    }

    /// Runs the scene frame by frame until the transition ends or the watchdog's deadline passes; what the
    /// transition and the scene reported.
    private func drive(_ t: Transition, scene: Scene, recorder: Recorder) -> [Problem] {
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

        var problems: [Problem] = []
        for problem in t.problems { problems.add(problem.code, problem.message) }
        if gaveUp {
            problems.add(.tooSlow, "the case was stopped after \(PluginHost.checkCaseWallLimitNs / 1_000_000_000) s of wall time: the animator's calls keep running out of budget")
        }
        for warning in recorder.warnings {
            switch warning.code {
            case .raisedInCallback:
                problems.add(Problem(code: .init(warning.code), message: warning.message, file: warning.file,
                                     line: warning.line))
            case .completedTwice:
                if !problems.contains(where: { $0.code == .completedTwice }) {
                    problems.add(Problem(code: .completedTwice, message: warning.message, file: warning.file,
                                         line: warning.line))
                }
            case .unknownName, .unknownCurve, .unknownOption:
                problems.add(Problem(code: .init(warning.code), message: warning.message, file: warning.file,
                                     line: warning.line, severity: .warning))
            case .other:
                break
            }
        }
        if !t.isEnded || t.forced {
            problems.add(.neverCompleted, "complete was never called; the watchdog completed the transition")
        } else if !t.failedOver, let ended = t.endedAt, t.duration > 0,
            Double(ended - started) > t.duration * 1.5e9 + Double(frame)
        {
            let took = Double(ended - started) / 1e9
            problems.add(.tooSlow, "complete came after \(Self.format(took)) s, more than 1.5 × the declared \(Self.format(t.duration)) s")
        }
        return problems
    }

    /// What is on screen where once the case is over, how the from-view looks and every view controller's
    /// appearance.
    private func judge(
        _ t: Transition, _ checkCase: CheckCase, container: ContainerViewController, from: ViewController,
        to: ViewController, fromBefore: (alpha: Double, transform: Transform3D, hidden: Bool), presenterStays: Bool,
        kept: [View], problems: inout [Problem]
    ) {
        let containerView = t.context?.containerView ?? container.view
        let cancelled = checkCase.isCancel
        let presentationGone = !(containerView.isAlive && containerView.superview != nil)
        func presentationLeft() -> String {
            let left = containerView.isAlive ? containerView.subviews.map(\.id) : []
            return "the presentation's container view is still on screen\(left.isEmpty ? "" : " with " + left.joined(separator: ", "))"
        }
        // Who should be appeared and who disappeared at the end.
        var expected: [(ViewController, Appearance)]
        switch (checkCase.operation, cancelled) {
        case (.dismiss, false):
            if to.view.superview == nil {
                problems.add(.missingToView, "the presenting view is not on screen after the dismissal")
            }
            if !presentationGone { problems.add(.extraViews, presentationLeft()) }
            expected = [(to, .appeared), (from, .disappeared)]
        case (.present, true):
            if !presentationGone { problems.add(.extraViews, presentationLeft()) }
            if to.view.superview != nil {
                problems.add(.extraViews, "the presented view is still on screen after the cancel")
            }
            if from.view.superview == nil {
                problems.add(.missingToView, "the presenting view is not on screen after the cancel")
            }
            expected = [(from, .appeared), (to, .disappeared)]
        case (.dismiss, true):
            if from.view.superview !== containerView {
                problems.add(.missingToView, "the presented view is not back in its container after the cancel")
            }
            let extra = containerView.subviews.filter { v in v !== from.view && !kept.contains { $0 === v } }
            if !extra.isEmpty {
                problems.add(.extraViews, "views left in the container: \(extra.map(\.id).joined(separator: ", "))")
            }
            expected = [(from, .appeared), (to, presenterStays ? .appeared : .disappeared)]
        case (.selectForward, _), (.selectBackward, _), (.push, _), (.pop, _), (.present, false):
            let shown = cancelled ? from : to
            let gone = cancelled ? to : from
            if shown.view.superview !== containerView {
                problems.add(.missingToView, cancelled
                    ? "the from-view is not back in the container after the cancel"
                    : "the to-view is not in the container after the transition")
            }
            // What the presentation plugin put in before animate (a dimming view) is its own.
            let extra = containerView.subviews.filter { v in v !== shown.view && !t.presentationViews.contains { $0 === v } }
            if !extra.isEmpty {
                problems.add(.extraViews, "views left in the container: \(extra.map(\.id).joined(separator: ", "))")
            }
            // A custom presentation keeps the presenting view controller on screen (no disappear calls).
            let goneAppearance: Appearance = checkCase.operation == .present && presenterStays ? .appeared : .disappeared
            expected = [(shown, .appeared), (gone, goneAppearance)]
        }
        // The from-view is handed back (or kept on screen, under a custom presentation, or back after a cancel): it
        // must look as it did. A dismissed view is not: UIKit's dismissal animators leave it where it went.
        if checkCase.operation != .dismiss || cancelled {
            let m = from.view.model
            var changed: [String] = []
            if m.alpha != fromBefore.alpha { changed.append("alpha \(Self.format(m.alpha))") }
            if m.transform != fromBefore.transform { changed.append("transform") }
            if from.view.hidden != fromBefore.hidden { changed.append("hidden") }
            if !changed.isEmpty {
                problems.add(.fromViewNotRestored, "the from-view was left with \(changed.joined(separator: ", ")) (reset it in the completion)")
            }
        }
        let wrong = expected.filter { $0.0.appearance != $0.1 }
        if !wrong.isEmpty {
            let all = expected.map { "\($0.0.id) is \($0.0.appearance.rawValue) (should be \($0.1.rawValue))" }
            problems.add(.appearanceInconsistent, "after the transition " + all.joined(separator: " and "))
        }
    }

    // MARK: Interaction plugins

    /// Feeds the case's gesture script to the interaction plugin along its forward direction, then judges: the
    /// transition completes or cancels (never both), nothing raised, and the percent follows the translation
    /// (it moves the way the translation moves, sample to sample, while the gesture drives it).
    private func runGesture(_ checkCase: CheckCase, _ script: GestureScript) -> [Problem] {
        guard let direction = forwardDirection(checkCase) else {
            return [Problem(code: .percentNotFollowing, message: "no drag (right, left, down or up, 30 % of the "
                + "scene) moved the percent forward: the plugin never called tr.update with a growing percent")]
        }
        let extent = direction.dx != 0 ? size.w : size.h
        let (scene, recorder) = makeScene("check-\(plugin)")
        defer { discard(scene) }
        do throws(EngineError) {
            let setup = try prepare(checkCase, in: scene)
            guard let t = try setup.start().transition else {
                return [Problem(code: .neverCompleted, message: "the transition did not start")]
            }
            var followed: [Problem] = []
            var last: (fraction: Double, percent: Double)?
            for sample in script.samples {
                if sample.dt > 0 { _ = scene.advance(by: Int64(sample.dt * 1e9)) }
                guard t.state == .interactive else { break }
                let at = sample.fraction * extent, speed = sample.velocity * extent
                try scene.pan(t, PanGesture(phase: sample.phase, translation: Point(x: direction.dx * at, y: direction.dy * at),
                                            velocity: Point(x: direction.dx * speed, y: direction.dy * speed)))
                guard sample.phase == .changed, t.state == .interactive else { continue }
                let p = scene.percent(of: t)
                if let last, (sample.fraction - last.fraction) * (p - last.percent) < -1e-9 {
                    followed.add(.percentNotFollowing, "the translation went from \(Self.format(last.fraction)) to "
                        + "\(Self.format(sample.fraction)) of the scene but the percent from \(Self.format(last.percent)) to \(Self.format(p))")
                }
                last = (sample.fraction, p)
            }
            var problems = drive(t, scene: scene, recorder: recorder)
            for p in followed { problems.add(p) }
            if t.isEnded, t.state != .completed, t.state != .cancelled {
                problems.add(.neverCompleted, "the transition ended \(t.state.rawValue), neither completed nor cancelled")
            }
            return problems
        } catch {
            return [Problem(code: .raised, message: error.message)]
        }
    }

    /// The direction (right, left, down, up) whose drag of 30 % of the scene moves the percent furthest forward,
    /// found once per kind in a scene of its own; nil when none moves it.
    private func forwardDirection(_ checkCase: CheckCase) -> (dx: Double, dy: Double)? {
        if let known = directions[checkCase.kind] { return known }
        var best: (direction: (dx: Double, dy: Double), percent: Double)?
        for direction in [(1.0, 0.0), (-1.0, 0.0), (0.0, 1.0), (0.0, -1.0)] {
            let (scene, _) = makeScene("check-\(plugin)-probe")
            defer { discard(scene) }
            guard let setup = try? prepare(checkCase, in: scene), let t = (try? setup.start())?.transition else { continue }
            let extent = (direction.0 != 0 ? size.w : size.h) * 0.3
            _ = try? scene.pan(t, PanGesture(phase: .began, translation: Point(x: 0, y: 0), velocity: Point(x: 0, y: 0)))
            _ = scene.advance(by: 16_666_667)
            guard t.state == .interactive else { continue }
            _ = try? scene.pan(t, PanGesture(phase: .changed, translation: Point(x: direction.0 * extent, y: direction.1 * extent),
                                             velocity: Point(x: 0, y: 0)))
            let p = t.state == .interactive ? scene.percent(of: t) : 0
            if p > 1e-6, p > best?.percent ?? 0 { best = ((direction.0, direction.1), p) }
        }
        directions[checkCase.kind] = .some(best?.direction)
        return best?.direction
    }

    /// A private manual scene for one case (or one probe), its events recorded, its animators from the host.
    private func makeScene(_ id: String) -> (Scene, Recorder) {
        let scene = Scene(id: id, size: size, clock: .manual)
        let recorder = Recorder()
        scene.sink = recorder
        scene.animatorProvider = host
        return (scene, recorder)
    }

    /// Ends a case's scene: its transitions finished, its plugin states released.
    private func discard(_ scene: Scene) {
        scene.finishAllTransitions()
        host.forget(scene: scene)
    }

    static func format(_ x: Double) -> String {
        let rounded = (x * 1000).rounded() / 1000
        return rounded == rounded.rounded() ? String(Int(rounded)) : String(rounded)
    }
}

extension [PluginCheck.Problem] {
    /// Adds a problem unless the same one (code and message) is already there.
    mutating func add(_ code: TransitionProblem.Code, _ message: String) {
        add(PluginCheck.Problem(code: code, message: message))
    }

    mutating func add(_ problem: PluginCheck.Problem) {
        if !contains(where: { $0.code == problem.code && $0.message == problem.message }) { append(problem) }
    }
}
