/// The edge-swipe pop without a plugin: UINavigationController's `interactivePopGestureRecognizer` (docs/PROTOCOL.md
/// "The edge-swipe pop"). A `began` pops the top navigation controller interactively with its built-in slide;
/// `changed` samples scrub it by the finger's share of the width; `ended` finishes or cancels it by segued's rule.
public enum EdgePop {
    /// `ended` finishes past this share of the width…
    public static let finishPercent = 0.5
    /// …or faster than this toward the finish (pt/s, velocity.x), else it cancels (segued's rule: UIKit publishes
    /// none; half-way and 500 pt/s are what custom interactive pops usually use).
    public static let finishVelocity = 500.0

    /// Whether a release at `percent` with horizontal velocity `velocity` finishes the pop.
    public static func finishes(percent: Double, velocity: Double) -> Bool {
        percent > finishPercent || velocity > finishVelocity
    }
}

extension Scene {
    /// The navigation controller an edge swipe without `container` pops: of the navigation controllers whose views
    /// hang from the window, the one drawn last (siblings back to front by `z`, then order; a view after its
    /// superview), skipping what a touch cannot reach — hidden views, views under alpha 0.01 and their subviews
    /// (UIKit's hit-testing rule: `hitTest(_:with:)` ignores them). Nil when none is on screen.
    public func frontmostNavigation() -> ContainerViewController? {
        var found: ContainerViewController?
        var stack: [(View, Int)] = [(window, 0)]
        while let (view, depth) = stack.popLast() {
            guard !view.hidden, view.model.alpha >= 0.01, depth <= Scene.maxViewDepth else { continue }
            if let nav = view.owner as? ContainerViewController, nav.containerKind == .navigation { found = nav }
            // Pushed in reverse drawing order, so the back-most subview is visited first and the front-most last.
            let order = view.subviews.enumerated().sorted { l, r in
                l.element.z != r.element.z ? l.element.z < r.element.z : l.offset < r.offset
            }
            for (_, sub) in order.reversed() { stack.append((sub, depth + 1)) }
        }
        return found
    }

    /// gesture.pan with `edge: "left"`: `began` pops `container` (or the frontmost navigation controller)
    /// interactively — refused (-32002, nothing started) when there is none, its stack holds one item, or a
    /// transition runs in the scene (UIKit ignores touches while one animates); later samples drive the pop that
    /// began. Returns the transition.
    public func edgePan(_ container: ContainerViewController?, _ gesture: PanGesture) throws(EngineError) -> Transition {
        if gesture.phase == .began {
            guard let nav = container ?? frontmostNavigation() else {
                throw EngineError(.invalidState, "no navigation controller is on screen: an edge swipe has nothing to pop")
            }
            try requireNavigation(nav)
            if ledger.activeTransitionCount > 0, let running = ledger.transitionOrder.first(where: { !$0.isEnded }) {
                throw EngineError(.invalidState, "transition '\(running.id)' is running: an edge swipe begins only when "
                    + "no transition runs", id: running.id)
            }
            guard nav.items.count > 1 else {
                throw EngineError(.invalidState, "the stack of '\(nav.id)' holds only its root: there is nothing to pop", id: nav.id)
            }
            let request = TransitionRequest(animated: true, interactive: .percent, animator: nil, whenBusy: .reject,
                                            id: nil, builtIn: true)
            let start = try startTransition(on: nav, kind: .pop, request, makeRetry: { { _ throws(EngineError) in .nothing } }) {
                () throws(EngineError) -> TransitionPlan? in try popPlan(nav, toRoot: false)
            }
            guard let t = start.transition else {
                throw EngineError(.invalidState, "the edge swipe started no pop of '\(nav.id)'", id: nav.id)
            }
            t.interactive.edgePop = true
            t.interactive.gestureKind = .pan
            t.interactive.gesturePhase = .began
            if t.state == .interactive { try updateTransition(t, percent: edgePercent(t, gesture)) }
            return t
        }
        let candidate: Transition?
        if let container { candidate = container.activeTransition } else {
            candidate = ledger.transitionOrder.last { $0.isEdgePop && !$0.isEnded }
        }
        guard let t = candidate, t.isEdgePop, !t.isEnded else {
            throw EngineError(.invalidState, "no edge-swipe pop is under way\(container.map { " in '\($0.id)'" } ?? ""): "
                + "phase \"\(gesture.phase.rawValue)\" needs a \"began\" first")
        }
        try ledger.checkGestureOrder(t, gesture)
        guard t.state == .interactive else {
            throw EngineError(.invalidState, "transition '\(t.id)' is \(t.state.rawValue), not interactive", id: t.id)
        }
        t.interactive.gesturePhase = gesture.phase
        switch gesture.phase {
        case .began, .changed:
            try updateTransition(t, percent: edgePercent(t, gesture))
        case .ended:
            let percent = edgePercent(t, gesture)
            try updateTransition(t, percent: percent)
            try endInteraction(t, cancel: !EdgePop.finishes(percent: percent, velocity: gesture.velocity.x))
        case .cancelled:
            try endInteraction(t, cancel: true)
        }
        return t
    }

    /// The finger's share of the navigation controller's width (translation.x / width, clamped to 0…1).
    func edgePercent(_ t: Transition, _ gesture: PanGesture) -> Double {
        let w = t.container.view.model.bounds.w
        guard w > 0, gesture.translation.x.isFinite else { return 0 }
        return min(max(gesture.translation.x / w, 0), 1)
    }
}
