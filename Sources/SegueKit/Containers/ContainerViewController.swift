/// The container kinds of docs/PROTOCOL.md, one behaviour type each in this folder.
public enum ContainerKind: String, Sendable, CaseIterable {
    case custom, tab, navigation, paging, split
}

/// What a container does with a transition request while another one runs.
public enum WhenBusy: String, Sendable, CaseIterable {
    case reject, queue, interrupt
}

/// A container view controller: the view controllers it holds, its selection, the transition it runs and the
/// requests queued behind it, its delegate and rules. What its kind does — which requests it takes, the
/// containment and appearance steps, the frames, which children are on screen — is its `behaviour`
/// (CustomContainer, TabContainer, NavigationContainer, PagingContainer, SplitContainer).
public final class ContainerViewController: ViewController {
    let behaviour: any ContainerBehaviour
    /// custom/tab: the view controllers in index order; navigation: the stack, root first; split: the columns
    /// (primary, supplementary, secondary); paging: unused.
    public internal(set) var items: [ViewController] {
        didSet { ViewController.moveHolds(from: oldValue, to: items) }
    }
    /// The selected index (custom/tab), page (paging) or top of the stack (navigation).
    public internal(set) var selectedIndex: Int?
    public internal(set) var activeTransition: Transition?
    public internal(set) var whenBusy: WhenBusy
    /// Transition requests waiting for the running one to end (`when_busy: queue`), oldest first.
    var queue: [QueuedTransition] = []
    /// The ids of the requests waiting in `queue`, first to start first.
    public var queuedIDs: [String] { queue.map(\.id) }
    /// `container.set_delegate`: a delegate plugin, and rules tried after it.
    public internal(set) var delegatePlugin: String?
    public internal(set) var rules: [TransitionRule] = []

    init(id: String, title: String?, view: View, behaviour: any ContainerBehaviour, items: [ViewController],
         whenBusy: WhenBusy)
    {
        self.behaviour = behaviour
        self.items = items
        self.whenBusy = whenBusy
        super.init(id: id, title: title, view: view)
        ViewController.moveHolds(from: [], to: items)
    }

    public var containerKind: ContainerKind { behaviour.kind }

    public override var kind: String { containerKind.rawValue }

    public override var visibleChildren: [ViewController] { behaviour.visibleChildren(of: self) }

    /// The view controller on screen: the selected item, the top of the stack or the current page's.
    public var selected: ViewController? { behaviour.selected(of: self) }

    /// The internal host of a modal presentation's transitions (not a view controller anyone can name).
    public var isModalHost: Bool { behaviour is PresentationHost }

    /// A paging container's pages and reusable view controllers.
    public var paging: PagingContainer? { behaviour as? PagingContainer }

    /// A split view's columns, display mode and collapsed state.
    public var split: SplitContainer? { behaviour as? SplitContainer }

    /// The protocol requests this container takes, for error messages.
    var requests: String {
        switch containerKind {
        case .custom, .tab, .paging: "container.select"
        case .navigation: "nav.push, nav.pop or nav.set"
        case .split: "split.set_column, split.show_column, split.hide_column or split.set_display_mode"
        }
    }
}

/// A transition request waiting for its container (`when_busy: queue`). It keeps the id it was given.
struct QueuedTransition {
    let id: String
    let kind: TransitionKind
    let start: (String) throws(EngineError) -> TransitionStart
}
