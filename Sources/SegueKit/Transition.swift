/// One transition between two view controllers of a container. Its state is grouped by what uses it: the
/// operation it runs (`op`), how it ended (`outcome`), what it recorded (`recording`) and how it is driven
/// interactively (`interactive`); the fields of each are reachable directly (`t.state`, `t.timeline`, …).
public final class Transition {
    public let id: String
    /// What the transition does: its kind, container (strong: a modal transition's host lives only as long as its
    /// presentation, the transition longer), from and to, their indexes and the direction.
    public let op: TransitionOperation
    public internal(set) var animatorName: String
    var animator: any Animator
    public internal(set) var duration: Double = 0
    public let startedAt: Int64
    /// How it is going and how it ended.
    var outcome = TransitionOutcome()
    /// Scene time (ns) at which the watchdog completes the transition.
    var watchdogDeadline: Int64 = .max
    /// Set once the context exists (right after init).
    public internal(set) var context: TransitionContext?
    /// What the transition changes in its container besides from and to.
    var change = ContainerChange()
    /// The timeline, its root, the presentation's views and the baseline a cancel restores.
    var recording = TransitionRecording()
    /// Interaction (docs/DESIGN.md §3, percent driven): how it was started, its plugin, its phases.
    var interactive = TransitionInteractivity()
    /// While scrubbed, finishing or cancelling: the animations held out of the scene's list, at the
    /// transition's own time.
    var drive: TransitionDrive?
    /// The request's `info` (docs/PROTOCOL.md): caller data plugins read as `ctx.info`; nil when none was given.
    public internal(set) var info: InfoValue?
    /// This transition's anchor, made the first time an animation group links to it; cleared in deinit.
    private var ownAnchor: Anchor<Transition>?

    init(id: String, kind: TransitionKind, container: ContainerViewController, from: ViewController,
         to: ViewController, fromIndex: Int?, toIndex: Int?, direction: TransitionDirection?, animator: any Animator, startedAt: Int64)
    {
        self.id = id
        self.op = TransitionOperation(kind: kind, container: container, from: from, to: to, fromIndex: fromIndex,
                                      toIndex: toIndex, direction: direction)
        self.animator = animator
        self.animatorName = animator.name
        self.startedAt = startedAt
    }

    deinit { ownAnchor?.object = nil }

    /// The anchor animation groups hold (see `AnimationGroup.transition`).
    var anchor: Anchor<Transition> { Anchor.kept(in: &ownAnchor, for: self) }

    public var kind: TransitionKind { op.kind }
    public var container: ContainerViewController { op.container }
    public var from: ViewController { op.from }
    public var to: ViewController { op.to }
    public var fromIndex: Int? { op.fromIndex }
    public var toIndex: Int? { op.toIndex }
    /// Push is forward, pop backward, select by index.
    public var direction: TransitionDirection? { op.direction }

    var leaving: [ViewController] { change.leaving }
    var entering: [ViewController] { change.entering }
    var oldStack: [ViewController] { change.oldStack }
    var newStack: [ViewController] { change.newStack }

    public var isEnded: Bool { state == .completed || state == .cancelled }

    /// Interactive, finishing or cancelling.
    public var isDriven: Bool { drive != nil }
}
