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
    /// Modal presentation: what this view controller presents, and the presentation it is shown in.
    /// Nil once the presented view controller is gone: held through its `anchor`, not `weak` (see `Anchor`).
    public internal(set) var presentedViewController: ViewController? {
        get { presentedAnchor?.object }
        set { presentedAnchor = newValue?.anchor }
    }
    private var presentedAnchor: Anchor<ViewController>?
    public internal(set) var presentation: Presentation?
    public var presentingViewController: ViewController? { presentation?.presenting }

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

/// The container kinds of docs/PROTOCOL.md.
public enum ContainerKind: String, Sendable, CaseIterable {
    case custom, tab, navigation, paging
}

/// What a container does with a transition request while another one runs.
public enum WhenBusy: String, Sendable {
    case reject, queue, interrupt
}

/// A declarative rule of `container.set_delegate`: the first rule whose `when` matches picks the animator.
public struct TransitionRule: Sendable, Equatable {
    public var kind: String?
    public var from: String?
    public var to: String?
    public var direction: String?
    public var animator: String
    public var interaction: String?

    public init(kind: String? = nil, from: String? = nil, to: String? = nil, direction: String? = nil,
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
        (kind == nil || kind == op.kind.rawValue) && (from == nil || from == op.from.id)
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
    public let direction: String?
}

/// How a paging container makes its pages (seed 004's data source).
public struct PageTemplate: Sendable, Equatable {
    public var titlePrefix: String
    public var colors: [Color]

    public init(titlePrefix: String = "Page ", colors: [Color] = []) {
        self.titlePrefix = titlePrefix
        self.colors = colors
    }

    public static let defaultColors: [Color] = ["#ff3b30", "#ff9500", "#ffcc00", "#34c759", "#007aff", "#5856d6"]
        .compactMap { Color(hex: $0) }

    func title(of page: Int) -> String { titlePrefix + String(page) }

    func color(of page: Int) -> Color {
        let palette = colors.isEmpty ? PageTemplate.defaultColors : colors
        return palette.isEmpty ? .white : palette[page % palette.count]
    }
}

/// A container view controller.
///
/// - `custom` is seed 000's ContainerViewController: `items` are the view controllers it switches between; only
///   the selected one is a child (it is added and removed as the selection changes).
/// - `tab` is UITabBarController: every item is a child for good; only the selected one's view is on screen.
/// - `navigation` is UINavigationController: `items` is the stack (root first) and every item is a child.
/// - `paging` is seed 004's DTContainerViewController: `pageCount` pages made on demand from `template`, at most
///   `reuse` view controllers alive (`alive`, least recently used first), reused like table cells; only the
///   selected page's view controller is a child.
public final class ContainerViewController: ViewController {
    public let containerKind: ContainerKind
    /// custom/tab: the view controllers in index order; navigation: the stack, root first; paging: unused.
    public internal(set) var items: [ViewController]
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

    // Paging.
    public internal(set) var pageCount = 0
    public internal(set) var reuse = 0
    public internal(set) var template = PageTemplate()
    /// The paging container's view controllers, least recently used first.
    public internal(set) var alive: [ViewController] = []
    /// The page each alive view controller shows now, by view controller id.
    public internal(set) var pageOf: [String: Int] = [:]
    var nextPageVC = 1
    /// The internal host of a modal presentation's transitions (not a view controller anyone can name).
    public internal(set) var isModalHost = false

    init(id: String, title: String?, view: View, kind: ContainerKind, items: [ViewController], whenBusy: WhenBusy) {
        self.containerKind = kind
        self.items = items
        self.whenBusy = whenBusy
        super.init(id: id, title: title, view: view)
    }

    public override var kind: String { containerKind.rawValue }

    public override var visibleChildren: [ViewController] {
        guard let shown = selected else { return [] }
        return [shown]
    }

    /// The view controller on screen: the selected item, the top of the stack or the current page's.
    public var selected: ViewController? {
        switch containerKind {
        case .navigation:
            return items.last
        case .paging:
            guard let page = selectedIndex else { return nil }
            return alive.first { vc in pageOf[vc.id] == page && children.contains { $0 === vc } }
        case .custom, .tab:
            guard let selectedIndex, selectedIndex < items.count else { return nil }
            return items[selectedIndex]
        }
    }
}

/// A transition request waiting for its container (`when_busy: queue`). It keeps the id it was given.
struct QueuedTransition {
    let id: String
    let kind: TransitionKind
    let start: (String) throws(EngineError) -> TransitionStart
}
