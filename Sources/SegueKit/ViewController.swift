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
    public internal(set) weak var parent: ViewController?
    public internal(set) var children: [ViewController] = []
    public internal(set) var appearance: Appearance = .disappeared
    /// This view controller's own preferred animators by transition kind (seed 003's pattern).
    public internal(set) var preferredAnimators: [String: String] = [:]

    init(id: String, title: String?, view: View) {
        self.id = id
        self.title = title
        self.view = view
        view.owner = self
    }

    /// `vc` for plain view controllers; the container kind for containers.
    public var kind: String { "vc" }

    /// The children whose views are on screen when this view controller is (appearance is forwarded to them).
    public var visibleChildren: [ViewController] { [] }

    public var isVisible: Bool { appearance == .appeared || appearance == .appearing }
}

/// The container kinds of PROTOCOL.md.
public enum ContainerKind: String, Sendable, CaseIterable {
    case custom, tab, navigation, paging
}

/// What a container does with a transition request while another one runs.
public enum WhenBusy: String, Sendable {
    case reject, queue, interrupt
}

/// A container view controller. `custom` is seed 000's ContainerViewController: an array of view controllers of
/// which only the selected one is a child (it is added and removed as the selection changes).
public final class ContainerViewController: ViewController {
    public let containerKind: ContainerKind
    /// The view controllers the container switches between, in index order.
    public internal(set) var items: [ViewController]
    public internal(set) var selectedIndex: Int?
    public internal(set) var activeTransition: Transition?
    public internal(set) var whenBusy: WhenBusy

    init(id: String, title: String?, view: View, kind: ContainerKind, items: [ViewController], whenBusy: WhenBusy) {
        self.containerKind = kind
        self.items = items
        self.whenBusy = whenBusy
        super.init(id: id, title: title, view: view)
    }

    public override var kind: String { containerKind.rawValue }

    public override var visibleChildren: [ViewController] {
        guard let selectedIndex, selectedIndex < items.count else { return [] }
        return [items[selectedIndex]]
    }

    public var selected: ViewController? {
        guard let selectedIndex, selectedIndex < items.count else { return nil }
        return items[selectedIndex]
    }
}
