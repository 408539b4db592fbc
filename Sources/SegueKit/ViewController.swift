/// UIKit's appearance states.
public enum Appearance: String, Sendable {
    case disappeared, appearing, appeared, disappearing
}

/// A view controller: a view, a parent, children and an appearance state. Containment and appearance callbacks
/// are emitted by the scene as events in UIKit's order.
public class ViewController {
    public let id: String
    public internal(set) var title: String?
    public let view: View
    /// The container this one is a child of, nil once that container is gone. Held through the parent's `anchor`
    /// (not `weak`, which would give every container a side table: see `Anchor`): the parent's deinit clears its
    /// anchor, so this reads nil after it, as a weak reference would.
    public internal(set) var parent: ViewController? {
        get { parentAnchor?.object }
        set { parentAnchor = newValue?.anchor }
    }
    private var parentAnchor: Anchor<ViewController>?
    /// This view controller's anchor, made the first time it becomes a parent or is presented; cleared in deinit.
    private var ownAnchor: Anchor<ViewController>?
    public internal(set) var children: [ViewController] = []
    public internal(set) var appearance: Appearance = .disappeared
    /// This view controller's own preferred animators by transition kind (seed 003's pattern).
    public internal(set) var preferredAnimators: [String: String] = [:]
    /// `preferred_transition: {zoom: …}` (UIViewController.preferredTransition = .zoom): the zoom animator's
    /// source, used when nothing before it in the precedence chooses an animator.
    public internal(set) var preferredZoom: ZoomTransition?
    /// Modal presentation: what this view controller presents, and the presentation it is shown in.
    /// Nil once the presented view controller is gone: held through its `anchor`, not `weak` (see `Anchor`).
    public internal(set) var presentedViewController: ViewController? {
        get { presentedAnchor?.object }
        set { presentedAnchor = newValue?.anchor }
    }
    private var presentedAnchor: Anchor<ViewController>?
    public internal(set) var presentation: Presentation?
    public var presentingViewController: ViewController? { presentation?.presenting }
    /// definesPresentationContext: a currentContext / overCurrentContext presentation from this view controller or
    /// a descendant covers this one's view.
    public internal(set) var definesPresentationContext = false
    /// providesPresentationContextTransitionStyle: a presentation over this context takes this view
    /// controller's transition style.
    public internal(set) var providesPresentationContextTransitionStyle = false
    /// modalTransitionStyle (`transition_style` of vc.create/vc.set): the built-in animation when this view
    /// controller is presented without a `transition_style` of its own, and the one a context that provides its
    /// transition style gives the presentations over it. Nil: UIKit's default, coverVertical.
    public internal(set) var modalTransitionStyle: ModalTransitionStyle?
    /// isModalInPresentation: a sheet drag cannot dismiss it (`sheet.dismiss_attempted` instead).
    public internal(set) var isModalInPresentation = false
    /// preferredContentSize: a form sheet's and a popover's size (nil: the style's default).
    public internal(set) var preferredContentSize: Size?
    /// How many container slots hold this view controller: its places in containers' `items` and in paging
    /// containers' `alive`, kept by those arrays' observers. "Is it in any container" is then one read, not a pass
    /// over every container of the scene (container.create was quadratic in the scene's containers).
    var containerHolds = 0

    /// One container slot list changed from `old` to `new` (ContainerViewController.items, PagingContainer.alive):
    /// the `containerHolds` of both sides follow, in time linear in the two lists.
    static func moveHolds(from old: [ViewController], to new: [ViewController]) {
        for vc in old { vc.containerHolds -= 1 }
        for vc in new { vc.containerHolds += 1 }
    }

    init(id: String, title: String?, view: View) {
        self.id = id
        self.title = title
        self.view = view
        view.owner = self
    }

    deinit {
        ownAnchor?.object = nil
        if view.owner === self { view.owner = nil }
    }

    /// The anchor children and presenters hold (see `parent`, `presentedViewController`).
    var anchor: Anchor<ViewController> { Anchor.kept(in: &ownAnchor, for: self) }

    /// `vc` for plain view controllers; the container kind for containers.
    public var kind: String { "vc" }

    /// The children whose views are on screen when this view controller is (appearance is forwarded to them).
    public var visibleChildren: [ViewController] { [] }

    public var isVisible: Bool { appearance == .appeared || appearance == .appearing }
}

/// A declarative rule of `container.set_delegate`: the first rule whose `when` matches picks the animator.
public struct TransitionRule: Sendable, Equatable {
    public var kind: TransitionKind?
    public var from: String?
    public var to: String?
    public var direction: TransitionDirection?
    public var animator: String
    public var interaction: String?

    public init(kind: TransitionKind? = nil, from: String? = nil, to: String? = nil, direction: TransitionDirection? = nil,
                animator: String, interaction: String? = nil)
    {
        self.kind = kind
        self.from = from
        self.to = to
        self.direction = direction
        self.animator = animator
        self.interaction = interaction
    }

    func matches(_ op: TransitionOperation) -> Bool {
        (kind == nil || kind == op.kind) && (from == nil || from == op.from.id)
            && (to == nil || to == op.to.id) && (direction == nil || direction == op.direction)
    }
}

/// What a transitioning delegate is asked about (docs/PLUGIN_API.md's `op`).
public struct TransitionOperation {
    public let kind: TransitionKind
    public let container: ContainerViewController
    public let from: ViewController
    public let to: ViewController
    public let fromIndex: Int?
    public let toIndex: Int?
    public let direction: TransitionDirection?
}
