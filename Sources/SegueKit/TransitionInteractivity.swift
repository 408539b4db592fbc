/// How a transition is driven interactively (docs/DESIGN.md §3, percent driven): whether it started interactive,
/// its interaction plugin, its own time's offset from the scene's, the coordinator's interaction-change handlers,
/// its scrub, finish and cancel phases and the speed of the last finish or cancel.
struct TransitionInteractivity {
    var startedInteractive = false
    var interactionName: String?
    var interaction: (any InteractionController)?
    var timeOffset: Int64 = 0
    var changeHandlers: [(_ cancelled: Bool, _ velocity: Double) -> Void] = []
    var phases: [TransitionPhase] = []
    var completionSpeed: Double?
    /// The kind of the gesture driving it and the phase of its last sample (phases must come in order).
    var gestureKind: PanGesture.Kind?
    var gesturePhase: PanGesture.Phase?
    /// The curve of the last finish or cancel (the coordinator context's `completion_curve`).
    var completionCurve: CubicBezier?
    /// The animator's interruptible animator (`interruptible_animator(ctx)`), asked once and kept: it drives the
    /// transition (pause, update, finish and cancel map to its pause, fraction, continue and reversal).
    var interruptibleAnimator: PropertyAnimator?
    /// Started by an edge swipe (`Scene.edgePan`): later samples with `edge` drive it.
    var edgePop = false
    /// A zoom dismissal or pop started interactive: the gesture poses the leaving view directly (ZoomDrag.swift).
    var zoomDrag: ZoomDrag?
}

extension Transition {
    /// Started with `interactive` (paused at 0, driven by update/finish/cancel).
    public internal(set) var startedInteractive: Bool {
        get { interactive.startedInteractive }
        _modify { yield &interactive.startedInteractive }
    }
    /// The interaction plugin `gesture.pan` is routed to, if any.
    public internal(set) var interactionName: String? {
        get { interactive.interactionName }
        _modify { yield &interactive.interactionName }
    }
    var interaction: (any InteractionController)? {
        get { interactive.interaction }
        _modify { yield &interactive.interaction }
    }
    /// Scene time minus the transition's own time (grows when a driven transition is handed back to the clock).
    var timeOffset: Int64 {
        get { interactive.timeOffset }
        _modify { yield &interactive.timeOffset }
    }
    /// `ctx.coordinator:on_interaction_change` handlers, in registration order.
    var interactionChangeHandlers: [(_ cancelled: Bool, _ velocity: Double) -> Void] {
        get { interactive.changeHandlers }
        _modify { yield &interactive.changeHandlers }
    }
    /// Scrub, finish and cancel phases, for render.timeline (scene ns; `end` nil while open).
    public internal(set) var phases: [TransitionPhase] {
        get { interactive.phases }
        _modify { yield &interactive.phases }
    }
    /// The interruptible animator driving the transition, if its animator gave one.
    public internal(set) var interruptibleAnimator: PropertyAnimator? {
        get { interactive.interruptibleAnimator }
        _modify { yield &interactive.interruptibleAnimator }
    }
    /// The curve of the last finish or cancel.
    public internal(set) var completionCurve: CubicBezier? {
        get { interactive.completionCurve }
        _modify { yield &interactive.completionCurve }
    }
    /// The edge-swipe pop (`gesture.pan` with `edge`, UINavigationController's interactivePopGestureRecognizer).
    public var isEdgePop: Bool { interactive.edgePop }
    /// The speed and curve of the last finish or cancel.
    public internal(set) var completionSpeed: Double? {
        get { interactive.completionSpeed }
        _modify { yield &interactive.completionSpeed }
    }
}
