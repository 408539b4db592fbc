/// The kinds of transition.
public enum TransitionKind: String, Sendable, CaseIterable {
    case select, push, pop, set, present, dismiss
    /// A split view's `split.set_column` and display-mode changes.
    case column
    case displayMode = "display_mode"
}

/// Which way a transition goes: push and present forward, pop and dismiss backward, a select by index.
public enum TransitionDirection: String, Sendable, CaseIterable {
    case forward, backward
}

/// The states of docs/PROTOCOL.md's `transition.get`.
public enum TransitionState: String, Sendable {
    case queued, animating, interactive, finishing, cancelling, completed, cancelled
}

/// A problem recorded on a transition (stable code, message).
public struct TransitionProblem: Sendable, Equatable {
    /// The stable codes of docs/DESIGN.md §3 "Animator check".
    public enum Code: String, Sendable, CaseIterable {
        case neverCompleted = "never_completed"
        case completedTwice = "completed_twice"
        case raised
        case tooSlow = "too_slow"
        case extraViews = "extra_views"
        case missingToView = "missing_to_view"
        case fromViewNotRestored = "from_view_not_restored"
        case appearanceInconsistent = "appearance_inconsistent"
        case completedWhenCancelled = "completed_when_cancelled"
        // Found by `plugins.check` from the plugin's warnings and its interaction cases.
        case raisedInCallback = "raised_in_callback"
        case unknownName = "unknown_name"
        case unknownCurve = "unknown_curve"
        case unknownOption = "unknown_option"
        case percentNotFollowing = "percent_not_following"

        /// The check's problem for a plugin's warning: its own code, or `raised_in_callback` for one without.
        public init(_ warning: PluginWarning.Code) {
            switch warning {
            case .unknownName: self = .unknownName
            case .unknownCurve: self = .unknownCurve
            case .unknownOption: self = .unknownOption
            case .raisedInCallback: self = .raisedInCallback
            case .completedTwice: self = .completedTwice
            case .other: self = .raisedInCallback
            }
        }
    }

    public let code: Code
    public let message: String

    public init(_ code: Code, _ message: String) {
        self.code = code
        self.message = message
    }
}

/// What a transition changes in its container besides from and to: for navigation the view controllers leaving
/// the stack besides `from` (pop_to_root, set; a dismiss's presentations above) and joining it besides `to`
/// (set), the stack as it was (restored on cancel) and as it will be; for a split view its column or display mode.
struct ContainerChange {
    var leaving: [ViewController] = []
    var entering: [ViewController] = []
    var oldStack: [ViewController] = []
    var newStack: [ViewController] = []
    var split: SplitChange?
}

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
    /// What the ended transition holds, as `estimatedBytes` measured it when it ended (0 while it runs): what
    /// `engine.timeline_retention_bytes` counts.
    public internal(set) var retainedBytes = 0

    /// The heap bytes the transition keeps while retained, estimated: a fixed share for the record itself, its
    /// context, its container change lists and phases (`Transition.recordBytes`), plus its timeline's samples
    /// and animations (`Timeline.estimatedBytes`).
    public var estimatedBytes: Int { Transition.recordBytes + timeline.estimatedBytes }

    /// The fixed share of `estimatedBytes`: the transition object, its context and what they hold apart from the
    /// timeline. With it a default transition of a two-child container is estimated at 5.8 KB, against ~5 KB of
    /// resident memory per further retained transition measured by `segue-bench memory` (debug build, 200 scenes):
    /// the estimate errs high.
    public static let recordBytes = 2048

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

/// One interactive phase of a transition.
public struct TransitionPhase: Sendable, Equatable {
    public enum Kind: String, Sendable { case scrub, finish, cancel }
    public let kind: Kind
    public let start: Int64
    public internal(set) var end: Int64?
}
