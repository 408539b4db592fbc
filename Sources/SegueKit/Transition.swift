/// One transition between two view controllers of a container.
public final class Transition {
    public let id: String
    public let kind: TransitionKind
    /// Strong: a modal transition's host lives only as long as its presentation, the transition longer.
    public let container: ContainerViewController
    public let from: ViewController
    public let to: ViewController
    public let fromIndex: Int?
    public let toIndex: Int?
    /// Push is forward, pop backward, select by index.
    public let direction: TransitionDirection?
    public internal(set) var animatorName: String
    var animator: any Animator
    public internal(set) var state: TransitionState = .animating
    public internal(set) var duration: Double = 0
    public let startedAt: Int64
    public internal(set) var endedAt: Int64?
    public internal(set) var forced = false
    public internal(set) var failedOver = false
    public internal(set) var completeCalls = 0
    public internal(set) var problems: [TransitionProblem] = []
    /// Raises in the callbacks of the transition's plugins (timers, completions, interaction and presentation
    /// callbacks): the first 16 distinct messages, each with how often it came (`Scene.noteRaise`).
    public internal(set) var raises: [(message: String, count: Int)] = []
    /// A present's or dismiss's container subviews when `animate` was called: what the presentation plugin put
    /// there (a dimming view), which is not the animator's to remove.
    public internal(set) var presentationViews: [View] = []
    /// Scene time (ns) at which the watchdog completes the transition.
    var watchdogDeadline: Int64 = .max
    /// Set once the context exists (right after init).
    public internal(set) var context: TransitionContext?
    /// What the transition changes in its container besides from and to.
    var change = ContainerChange()
    /// The recorded timeline (for render.*): the container's views at every tick of the transition.
    public internal(set) var timeline = Timeline()
    /// The subtree the timeline records: the container's view, or the whole window for a present or dismiss (so
    /// the presenting view is in the picture).
    public internal(set) var timelineRoot: View?

    // Interaction (docs/DESIGN.md §3, percent driven).
    /// Started with `interactive` (paused at 0, driven by update/finish/cancel).
    public internal(set) var startedInteractive = false
    /// The interaction plugin `gesture.pan` is routed to, if any.
    public internal(set) var interactionName: String?
    var interaction: (any InteractionController)?
    /// While scrubbed, finishing or cancelling: the animations held out of the scene's list, at the
    /// transition's own time.
    var drive: TransitionDrive?
    /// Scene time minus the transition's own time (grows when a driven transition is handed back to the clock).
    var timeOffset: Int64 = 0
    /// What the views looked like before the animator ran: a cancelled transition puts them back exactly.
    var baseline: TransitionBaseline?
    /// `ctx.coordinator:on_interaction_change` handlers, in registration order.
    var interactionChangeHandlers: [(_ cancelled: Bool, _ velocity: Double) -> Void] = []
    /// Scrub, finish and cancel phases, for render.timeline (scene ns; `end` nil while open).
    public internal(set) var phases: [TransitionPhase] = []
    /// The speed and curve of the last finish or cancel.
    public internal(set) var completionSpeed: Double?
    /// This transition's anchor, made the first time an animation group links to it; cleared in deinit.
    private var ownAnchor: Anchor<Transition>?

    init(id: String, kind: TransitionKind, container: ContainerViewController, from: ViewController,
         to: ViewController, fromIndex: Int?, toIndex: Int?, direction: TransitionDirection?, animator: any Animator, startedAt: Int64)
    {
        self.id = id
        self.kind = kind
        self.container = container
        self.from = from
        self.to = to
        self.fromIndex = fromIndex
        self.toIndex = toIndex
        self.direction = direction
        self.animator = animator
        self.animatorName = animator.name
        self.startedAt = startedAt
    }

    deinit { ownAnchor?.object = nil }

    /// The anchor animation groups hold (see `AnimationGroup.transition`).
    var anchor: Anchor<Transition> { Anchor.kept(in: &ownAnchor, for: self) }

    var leaving: [ViewController] { change.leaving }
    var entering: [ViewController] { change.entering }
    var oldStack: [ViewController] { change.oldStack }
    var newStack: [ViewController] { change.newStack }

    public var isEnded: Bool { state == .completed || state == .cancelled }

    /// Interactive, finishing or cancelling.
    public var isDriven: Bool { drive != nil }
}
