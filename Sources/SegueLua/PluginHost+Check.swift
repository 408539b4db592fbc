import SegueKit

/// `plugins.check`: what is checked before a check starts, and the whole check in one call (tests, tools). The
/// daemon runs a `PluginCheck` step by step instead, one case per turn of its event loop.
extension PluginHost {
    /// Problem codes the check reports (stable: scripts match on them).
    public static let checkProblemCodes = TransitionProblem.Code.allCases.map(\.rawValue)

    /// Wall time one case may take (2 s).
    static let checkCaseWallLimitNs: Int64 = 2_000_000_000

    /// Cases of docs/DESIGN.md §3's battery this engine cannot run yet.
    public static let pendingCheckCases: [String] = []

    /// A check of the animator `name` (a loaded animator plugin, or the built-in `default-slide`), its present and
    /// dismiss cases run with the presentation plugin `presentation` and its containers given the delegate plugin
    /// `delegate`. Everything is checked here; nothing runs until `step()`.
    public func makeCheck(name: String, size: Size = Size(w: 320, h: 480), presentation: String? = nil,
                          delegate: String? = nil, strict: Bool = false, animator: String? = nil) throws(EngineError) -> PluginCheck
    {
        // An interaction plugin is driven by the published gesture scripts, through `animator` (default-slide).
        if let record = loadedRecord(name), record.kind == .interaction {
            let through = animator ?? DefaultSlideAnimator.name
            if through != DefaultSlideAnimator.name {
                guard let a = loadedRecord(through) else {
                    throw EngineError(.notFound, "no plugin named '\(through)' is loaded", param: "animator", id: through)
                }
                guard a.kind == .animator else {
                    throw EngineError(.invalidParams, "plugin '\(through)' is \(PluginHost.withArticle(a.kind)), not an animator", param: "animator")
                }
            }
            return PluginCheck(host: self, plugin: through, size: size, presentation: presentation, delegate: delegate,
                               declaredKinds: through == DefaultSlideAnimator.name ? nil : kinds(ofAnimator: through),
                               strict: strict, interaction: name, interactionKinds: kinds(ofAnimator: name))
        }
        if animator != nil {
            throw EngineError(.invalidParams, "'animator' is for checking an interaction plugin; '\(name)' is not one", param: "animator")
        }
        if name != DefaultSlideAnimator.name {
            guard let record = loadedRecord(name) else {
                throw EngineError(.notFound, "no plugin named '\(name)' is loaded", param: "name", id: name)
            }
            guard record.kind == .animator || record.kind == .interaction else {
                throw EngineError(.invalidParams, "plugin '\(name)' is \(PluginHost.withArticle(record.kind)); plugins.check runs animators and interaction plugins", param: "name")
            }
        }
        for (param, plugin, kind) in [("presentation", presentation, PluginKind.presentation), ("delegate", delegate, .delegate)] {
            guard let plugin else { continue }
            guard let record = loadedRecord(plugin) else {
                throw EngineError(.notFound, "no plugin named '\(plugin)' is loaded", param: param, id: plugin)
            }
            guard record.kind == kind else {
                throw EngineError(.invalidParams, "plugin '\(plugin)' is \(PluginHost.withArticle(record.kind)), not a \(kind.rawValue) plugin", param: param)
            }
        }
        return PluginCheck(host: self, plugin: name, size: size, presentation: presentation, delegate: delegate,
                           declaredKinds: name == DefaultSlideAnimator.name ? nil : kinds(ofAnimator: name), strict: strict)
    }

    /// Runs a whole check at once and returns its report.
    public func check(name: String, size: Size = Size(w: 320, h: 480), presentation: String? = nil,
                      delegate: String? = nil, strict: Bool = false, animator: String? = nil) throws(EngineError) -> CheckReport
    {
        let check = try makeCheck(name: name, size: size, presentation: presentation, delegate: delegate, strict: strict,
                                  animator: animator)
        while !check.isFinished { check.step() }
        return check.report
    }

    /// How many scenes hold plugin states now (a check's private scenes must leave none).
    public var scenesWithPluginState: Int { instances.count }

    /// The record of the loaded plugin `name`.
    func loadedRecord(_ name: String) -> PluginRecord? {
        guard let path = byName[name] else { return nil }
        return files[path]?.records.first { $0.name == name }
    }
}
