/// UISplitViewController's columns.
public enum SplitColumn: String, Sendable, CaseIterable {
    case primary, supplementary, secondary
}

/// UISplitViewController.Style (the column styles; `unspecified`, the classic interface, is not modelled).
public enum SplitStyle: String, Sendable, CaseIterable {
    case doubleColumn = "double_column"
    case tripleColumn = "triple_column"
}

/// UISplitViewController.DisplayMode. `automatic` is a preference only: the mode in effect never is automatic.
public enum SplitDisplayMode: String, Sendable, CaseIterable {
    case automatic
    case secondaryOnly = "secondary_only"
    case oneBesideSecondary = "one_beside_secondary"
    case oneOverSecondary = "one_over_secondary"
    case twoBesideSecondary = "two_beside_secondary"
    case twoOverSecondary = "two_over_secondary"
    case twoDisplaceSecondary = "two_displace_secondary"

    /// The modes that show two sidebars, for triple-column splits only.
    var showsTwo: Bool { self == .twoBesideSecondary || self == .twoOverSecondary || self == .twoDisplaceSecondary }
}

/// What `container.create {kind: "split"}` chooses besides the columns.
public struct SplitConfiguration: Sendable, Equatable {
    /// Nil: double column for two children, triple for three.
    public var style: SplitStyle?
    public var displayMode: SplitDisplayMode

    public init(style: SplitStyle? = nil, displayMode: SplitDisplayMode = .automatic) {
        self.style = style
        self.displayMode = displayMode
    }
}

/// What a split view's transition changes.
enum SplitChange {
    /// `split.set_column`: the column's view controller `old` is replaced by `new`.
    case column(SplitColumn, old: ViewController, new: ViewController)
    /// A display-mode change (set_display_mode, show_column, hide_column).
    case displayMode(from: SplitDisplayMode, to: SplitDisplayMode)
}

/// UISplitViewController (`kind: "split"`): two or three columns side by side — the primary (320 pt), in triple
/// column style the supplementary (320 pt), and the secondary filling the rest — arranged by a display mode. In a
/// horizontally compact scene it collapses into a navigation container `SPLITID.nav` (primary at the root,
/// supplementary, the secondary on top) and expands again when the scene is regular. A column or display-mode
/// change is a transition with a custom container's select order (docs/DESIGN.md §3). Requests: `split.*`.
public final class SplitContainer: ContainerBehaviour {
    /// Column widths (UIKit documents none: these are segued's, docs/PROTOCOL.md "Split views").
    public static let primaryWidth = 320.0
    public static let supplementaryWidth = 320.0
    /// The built-in animation of a split's transitions.
    static let duration = 0.35

    public let style: SplitStyle
    /// The display mode asked for (may be `automatic`); applied on expand when set while collapsed.
    public internal(set) var preferredDisplayMode: SplitDisplayMode
    /// The display mode in effect while expanded (never `automatic`).
    public internal(set) var displayMode: SplitDisplayMode = .secondaryOnly
    public internal(set) var primary: ViewController
    public internal(set) var supplementary: ViewController?
    public internal(set) var secondary: ViewController
    /// The navigation container the split collapsed into, nil while expanded.
    public internal(set) var collapsedNavigation: ContainerViewController?

    init(_ configuration: SplitConfiguration, columns: [ViewController]) throws(EngineError) {
        let style = configuration.style ?? (columns.count == 3 ? .tripleColumn : .doubleColumn)
        let wanted = style == .tripleColumn ? 3 : 2
        guard columns.count == wanted else {
            throw .invalidParams("children", "a \(style.rawValue) split takes \(wanted) children "
                + (wanted == 3 ? "[primary, supplementary, secondary]" : "[primary, secondary]")
                + ", got \(columns.count)")
        }
        if configuration.displayMode.showsTwo, style == .doubleColumn {
            throw .invalidParams("display_mode", "'\(configuration.displayMode.rawValue)' needs style triple_column")
        }
        self.style = style
        preferredDisplayMode = configuration.displayMode
        primary = columns[0]
        supplementary = wanted == 3 ? columns[1] : nil
        secondary = columns[wanted - 1]
    }

    public var kind: ContainerKind { .split }

    public var isCollapsed: Bool { collapsedNavigation != nil }

    /// The columns' view controllers, primary first.
    public var columns: [ViewController] { [primary] + (supplementary.map { [$0] } ?? []) + [secondary] }

    public func viewController(of column: SplitColumn) -> ViewController? {
        switch column {
        case .primary: primary
        case .supplementary: supplementary
        case .secondary: secondary
        }
    }

    func accepts(_ kind: TransitionKind) -> Bool { kind == .column || kind == .displayMode }

    func selected(of container: ContainerViewController) -> ViewController? { collapsedNavigation ?? secondary }

    func visibleChildren(of container: ContainerViewController) -> [ViewController] {
        if let nav = collapsedNavigation { return [nav] }
        return visibleColumns(displayMode).compactMap(viewController(of:))
    }

    // MARK: Layout

    /// `automatic` as UIKit resolves it (docs/PROTOCOL.md "Split views"): side by side when the scene is wider than
    /// tall, the secondary alone otherwise.
    func resolve(_ mode: SplitDisplayMode, in size: Size) -> SplitDisplayMode {
        guard mode == .automatic else { return mode }
        return size.w > size.h ? .oneBesideSecondary : .secondaryOnly
    }

    /// The columns a mode shows, left to right.
    func visibleColumns(_ mode: SplitDisplayMode) -> [SplitColumn] {
        switch mode {
        case .secondaryOnly, .automatic: [.secondary]
        case .oneBesideSecondary, .oneOverSecondary:
            style == .tripleColumn ? [.supplementary, .secondary] : [.primary, .secondary]
        case .twoBesideSecondary, .twoOverSecondary, .twoDisplaceSecondary: [.primary, .supplementary, .secondary]
        }
    }

    /// A column's frame in `bounds` when `mode` is in effect; nil when the mode hides it.
    func frame(of column: SplitColumn, mode: SplitDisplayMode, bounds b: Rect) -> Rect? {
        guard visibleColumns(mode).contains(column) else { return nil }
        let p = SplitContainer.primaryWidth, s = SplitContainer.supplementaryWidth
        let sidebars = mode.showsTwo ? p + s : (style == .tripleColumn ? s : p)
        switch column {
        case .primary:
            return Rect(x: b.x, y: b.y, w: p, h: b.h)
        case .supplementary:
            return Rect(x: b.x + (mode.showsTwo ? p : 0), y: b.y, w: s, h: b.h)
        case .secondary:
            switch mode {
            case .secondaryOnly, .automatic, .oneOverSecondary, .twoOverSecondary:
                return b
            case .oneBesideSecondary, .twoBesideSecondary:
                return Rect(x: b.x + sidebars, y: b.y, w: max(0, b.w - sidebars), h: b.h)
            case .twoDisplaceSecondary:
                // Pushed aside, not narrowed: it keeps its one-beside width and runs off the right edge.
                return Rect(x: b.x + sidebars, y: b.y, w: max(0, b.w - s), h: b.h)
            }
        }
    }

    /// Where a column that is hidden by a change slides to (or a shown one comes from): off the left edge.
    func offscreen(_ frame: Rect) -> Rect { frame.offsetBy(dx: -(frame.x + frame.w), dy: 0) }

    func column(of vc: ViewController) -> SplitColumn? {
        if vc === primary { return .primary }
        if vc === supplementary { return .supplementary }
        if vc === secondary { return .secondary }
        return nil
    }

    func frame(of child: ViewController, in container: ContainerViewController) -> Rect {
        let bounds = container.view.model.bounds
        guard collapsedNavigation == nil, let column = column(of: child) else { return bounds }
        return frame(of: column, mode: displayMode, bounds: bounds) ?? bounds
    }

    func contextFrames(_ t: Transition, bounds: Rect) -> ContextFrames {
        switch t.change.split {
        case .column(let column, _, _)?:
            let f = frame(of: column, mode: displayMode, bounds: bounds) ?? .zero
            return ContextFrames(fromInitial: f, fromFinal: f, toInitial: f, toFinal: f)
        case .displayMode(let old, let new)?:
            func frames(_ vc: ViewController) -> (Rect, Rect) {
                guard let column = column(of: vc) else { return (.zero, .zero) }
                let before = frame(of: column, mode: old, bounds: bounds)
                let after = frame(of: column, mode: new, bounds: bounds)
                return (before ?? after.map(offscreen) ?? .zero, after ?? before.map(offscreen) ?? .zero)
            }
            let (fromInitial, fromFinal) = frames(t.from)
            let (toInitial, toFinal) = frames(t.to)
            return ContextFrames(fromInitial: fromInitial, fromFinal: fromFinal, toInitial: toInitial, toFinal: toFinal)
        case nil:
            return .unseeded(bounds: bounds)
        }
    }

    func builtInAnimator() -> any Animator { SplitAnimator(split: self) }

    /// Puts a column's view into the split's view in the columns' stacking order (the secondary at the bottom,
    /// the sidebars above it, the supplementary on top).
    func place(_ column: SplitColumn, _ vc: ViewController, frame: Rect, in container: ContainerViewController,
               scene: Scene)
    {
        let below: Int
        switch column {
        case .secondary: below = 0
        case .primary: below = container.view.subviews.firstIndex { $0 === secondary.view }.map { $0 + 1 } ?? 0
        case .supplementary: below = container.view.subviews.count
        }
        scene.insertSubview(vc.view, into: container.view, at: below)
        scene.set(vc.view, frame: frame)
    }

    // MARK: Containment

    /// Every column becomes a child; the visible ones are on screen. In a compact scene the split collapses at once.
    func install(_ container: ContainerViewController, in scene: Scene) throws(EngineError) {
        displayMode = resolve(preferredDisplayMode, in: scene.size)
        if scene.traits.horizontal == .compact {
            let nav = try scene.makeCollapsedNavigation(of: container, split: self)
            scene.willMove(nav, to: container)
            container.children.append(nav)
            nav.parent = container
            scene.addSubview(nav.view, to: container.view)
            scene.set(nav.view, frame: container.view.model.bounds)
            scene.adoptAll(nav.items, of: nav, shown: nav.items.count - 1)
            scene.didMove(nav, to: container)
            collapsedNavigation = nav
            return
        }
        for vc in columns { scene.willMove(vc, to: container) }
        for vc in columns {
            container.children.append(vc)
            vc.parent = container
        }
        let bounds = container.view.model.bounds
        for column in visibleColumns(displayMode) {
            guard let vc = viewController(of: column), let f = frame(of: column, mode: displayMode, bounds: bounds)
            else { continue }
            place(column, vc, frame: f, in: container, scene: scene)
        }
        for vc in columns { scene.didMove(vc, to: container) }
    }

    func beginContainment(_ t: Transition, in scene: Scene) {
        let container = t.container
        switch t.change.split {
        case .column(let column, let old, let new)?:
            scene.willMove(old, to: nil)
            scene.willMove(new, to: container)
            container.children.append(new)
            new.parent = container
            setColumn(column, new, in: container)
        case .displayMode(let old, let new)?:
            // The columns coming in are put in place (off the left edge) for the animator to bring in.
            let bounds = container.view.model.bounds
            for column in visibleColumns(new) where !visibleColumns(old).contains(column) {
                guard let vc = viewController(of: column), let f = frame(of: column, mode: new, bounds: bounds)
                else { continue }
                place(column, vc, frame: offscreen(f), in: container, scene: scene)
            }
        case nil:
            break
        }
    }

    func setColumn(_ column: SplitColumn, _ vc: ViewController, in container: ContainerViewController) {
        switch column {
        case .primary: primary = vc
        case .supplementary: supplementary = vc
        case .secondary: secondary = vc
        }
        container.items = columns
    }

    /// The columns a display-mode change hides and shows.
    func changedColumns(_ old: SplitDisplayMode, _ new: SplitDisplayMode) -> (hiding: [ViewController], showing: [ViewController]) {
        let before = visibleColumns(old), after = visibleColumns(new)
        return (before.filter { !after.contains($0) }.compactMap(viewController(of:)),
                after.filter { !before.contains($0) }.compactMap(viewController(of:)))
    }

    func beginAppearance(_ t: Transition, in scene: Scene, animated: Bool) {
        guard t.container.isVisible else { return }
        switch t.change.split {
        case .column(let column, _, _)?:
            guard visibleColumns(displayMode).contains(column) else { return }
            scene.beginAppearance(t.from, appearing: false, animated: animated)
            scene.beginAppearance(t.to, appearing: true, animated: animated)
        case .displayMode(let old, let new)?:
            let (hiding, showing) = changedColumns(old, new)
            for vc in hiding { scene.beginAppearance(vc, appearing: false, animated: animated) }
            for vc in showing { scene.beginAppearance(vc, appearing: true, animated: animated) }
        case nil:
            break
        }
    }

    func expectsToView(_ t: Transition) -> Bool {
        guard case .column(let column, _, _)? = t.change.split else { return true }
        return visibleColumns(displayMode).contains(column)
    }

    func finish(_ t: Transition, in scene: Scene, animated: Bool) {
        let container = t.container
        let bounds = container.view.model.bounds
        switch t.change.split {
        case .column(let column, let old, let new)?:
            scene.removeFromSuperview(old.view)
            container.children.removeAll { $0 === old }
            old.parent = nil
            if let f = frame(of: column, mode: displayMode, bounds: bounds), new.view.superview === container.view {
                scene.set(new.view, frame: f)
            }
            scene.endAppearance(old, animated: animated)
            scene.endAppearance(new, animated: animated)
            scene.didMove(old, to: nil)
            scene.didMove(new, to: container)
        case .displayMode(let old, let new)?:
            displayMode = new
            let (hiding, showing) = changedColumns(old, new)
            for vc in hiding { scene.removeFromSuperview(vc.view) }
            for column in visibleColumns(new) {
                guard let vc = viewController(of: column), let f = frame(of: column, mode: new, bounds: bounds)
                else { continue }
                if vc.view.superview !== container.view { place(column, vc, frame: f, in: container, scene: scene) }
                scene.set(vc.view, frame: f)
            }
            for vc in hiding { scene.endAppearance(vc, animated: animated) }
            for vc in showing { scene.endAppearance(vc, animated: animated) }
        case nil:
            break
        }
    }

    func undoViews(_ t: Transition, in scene: Scene) {
        let container = t.container
        switch t.change.split {
        case .column(let column, let old, let new)?:
            scene.removeFromSuperview(new.view)
            if let f = frame(of: column, mode: displayMode, bounds: container.view.model.bounds),
                old.view.superview !== container.view
            {
                place(column, old, frame: f, in: container, scene: scene)
            }
        case .displayMode(let old, let new)?:
            let (hiding, showing) = changedColumns(old, new)
            for vc in showing { scene.removeFromSuperview(vc.view) }
            let bounds = container.view.model.bounds
            for vc in hiding where vc.view.superview !== container.view {
                guard let column = column(of: vc), let f = frame(of: column, mode: old, bounds: bounds) else { continue }
                place(column, vc, frame: f, in: container, scene: scene)
            }
        case nil:
            break
        }
    }

    func reverseAppearance(_ t: Transition, in scene: Scene, animated: Bool) {
        guard case .displayMode(let old, let new)? = t.change.split else {
            scene.reverseAppearance(t.from, t.to, animated: animated)
            return
        }
        let (hiding, showing) = changedColumns(old, new)
        for vc in showing where vc.appearance == .appearing {
            scene.beginAppearance(vc, appearing: false, animated: animated)
            scene.endAppearance(vc, animated: animated)
        }
        for vc in hiding where vc.appearance == .disappearing {
            scene.beginAppearance(vc, appearing: true, animated: animated)
            scene.endAppearance(vc, animated: animated)
        }
    }

    func undoContainment(_ t: Transition, in scene: Scene, animated: Bool) {
        guard case .column(let column, let old, let new)? = t.change.split else { return }
        let container = t.container
        setColumn(column, old, in: container)
        container.children.removeAll { $0 === new }
        new.parent = nil
        scene.didMove(new, to: nil)
        scene.didMove(old, to: container)
    }

    // MARK: show/hide

    /// The display mode `split.show_column` / `split.hide_column` moves to from `mode` (UIKit's show(_:) and
    /// hide(_:) pick "how to update the display mode to display the desired columns"; segued's choice is written
    /// in docs/PROTOCOL.md "Split views"). Nil: nothing changes.
    func mode(showing column: SplitColumn, _ show: Bool, from mode: SplitDisplayMode) -> SplitDisplayMode? {
        let shown = visibleColumns(mode).contains(column)
        guard shown != show else { return nil }
        switch (style, column, show) {
        case (_, .secondary, _):
            return nil
        case (.doubleColumn, .primary, true), (.tripleColumn, .supplementary, true):
            return .oneBesideSecondary
        case (.doubleColumn, _, false), (.tripleColumn, .supplementary, false):
            return .secondaryOnly
        case (.tripleColumn, .primary, true):
            return mode == .oneOverSecondary ? .twoOverSecondary : .twoBesideSecondary
        case (.tripleColumn, .primary, false):
            return mode == .twoOverSecondary ? .oneOverSecondary : .oneBesideSecondary
        case (.doubleColumn, .supplementary, true):
            return nil
        }
    }
}

/// The built-in animator of a split's transitions: 0.35 s ease-in-out. A column change cross-fades the new view
/// controller in over the old one; a display-mode change moves every column to its new frame, the columns coming
/// in from off the left edge and the ones going out back to it.
final class SplitAnimator: Animator {
    static let name = "default-split"
    let split: SplitContainer

    init(split: SplitContainer) { self.split = split }

    var name: String { SplitAnimator.name }

    func transitionDuration(using context: TransitionContext) -> Double { SplitContainer.duration }

    func animateTransition(using context: TransitionContext) {
        let scene = context.scene
        let container = context.containerView
        let bounds = container.model.bounds
        let split = self.split
        var changes: () -> Void = {}
        var faded: View?
        switch context.transition.change.split {
        case .column(let column, _, _)?:
            guard split.visibleColumns(split.displayMode).contains(column) else { break }
            let to = context.toViewController.view
            let old = context.fromViewController.view
            faded = old
            if let index = container.subviews.firstIndex(where: { $0 === old }) {
                scene.insertSubview(to, into: container, at: index + 1)
            } else {
                scene.addSubview(to, to: container)
            }
            scene.set(to, frame: context.finalFrame(for: context.toViewController))
            scene.set(to, alpha: 0)
            changes = {
                scene.set(to, alpha: 1)
                scene.set(old, alpha: 0)
            }
        case .displayMode(let old, let new)?:
            changes = {
                for column in SplitColumn.allCases {
                    guard let vc = split.viewController(of: column), vc.view.superview === container else { continue }
                    let target = split.frame(of: column, mode: new, bounds: bounds)
                        ?? split.frame(of: column, mode: old, bounds: bounds).map(split.offscreen)
                    if let target { scene.set(vc.view, frame: target) }
                }
            }
        case nil:
            break
        }
        // A block that animates nothing (a hidden column) completes at the next tick.
        scene.animate(AnimationOptions(duration: SplitContainer.duration, timing: .curve(.easeInOut)), changes) {
            [anchor = scene.anchor] _ in
            guard let scene = anchor.object else { return }
            if let faded, faded.isAlive { scene.set(faded, alpha: 1) }
            context.completeTransition(!context.transitionWasCancelled)
        }
    }

    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}

extension Scene {
    func requireSplit(_ container: ContainerViewController) throws(EngineError) -> SplitContainer {
        guard let split = container.split else {
            throw .invalidParams("container", "'\(container.id)' is a \(container.kind) container, not a split container")
        }
        return split
    }

    func requireColumn(_ column: SplitColumn, of split: SplitContainer) throws(EngineError) {
        if column == .supplementary, split.style == .doubleColumn {
            throw .invalidParams("column", "a double_column split has no supplementary column")
        }
    }

    /// split.set_column (setViewController(_:for:)): `vc` takes the column's place. Expanded, a transition with a
    /// custom container's select order (appearance only when the column is on screen); collapsed, the secondary is
    /// pushed on the navigation stack and a sidebar is replaced in it (nav.set).
    public func setColumn(_ container: ContainerViewController, _ column: SplitColumn, to vc: ViewController,
                          animated: Bool = true, interactive: Interactivity = .none, animator requested: String? = nil,
                          whenBusy: WhenBusy? = nil, id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        let split = try requireSplit(container)
        try requireColumn(column, of: split)
        guard let current = split.viewController(of: column) else { return .nothing }
        if current === vc { return .nothing }
        try requireFree(vc, param: "vc")
        if let nav = split.collapsedNavigation {
            let start: TransitionStart
            if column == .secondary {
                start = try push(nav, vc, animated: animated, interactive: interactive, animator: requested,
                                 whenBusy: whenBusy, id: reserved)
            } else {
                let stack = nav.items.map { $0 === current ? vc : $0 }
                start = try setStack(nav, stack, animated: animated, interactive: interactive, animator: requested,
                                     whenBusy: whenBusy, id: reserved)
            }
            split.setColumn(column, vc, in: container)
            return start
        }
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try startTransition(on: container, kind: .column, request, retry: { [unowned self] r throws(EngineError) in
            try self.setColumn(container, column, to: vc, animated: r.animated, interactive: r.interactive,
                               animator: r.animator, whenBusy: r.whenBusy, id: r.id)
        }) { () -> TransitionPlan? in
            TransitionPlan(
                op: TransitionOperation(kind: .column, container: container, from: current, to: vc, fromIndex: nil,
                                        toIndex: nil, direction: nil),
                split: .column(column, old: current, new: vc))
        }
    }

    /// split.set_display_mode (preferredDisplayMode): a transition to the mode it resolves to; nothing when that is
    /// the mode in effect; while collapsed, stored and applied on expand.
    public func setDisplayMode(_ container: ContainerViewController, _ mode: SplitDisplayMode, animated: Bool = true,
                               interactive: Interactivity = .none, animator requested: String? = nil,
                               whenBusy: WhenBusy? = nil, id reserved: String? = nil) throws(EngineError)
        -> TransitionStart
    {
        let split = try requireSplit(container)
        if mode.showsTwo, split.style == .doubleColumn {
            throw .invalidParams("display_mode", "'\(mode.rawValue)' needs style triple_column")
        }
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try changeDisplayMode(container, split, preferred: mode, request)
    }

    /// split.show_column / split.hide_column (show(_:), hide(_:)): the display mode that shows or hides the column
    /// (SplitContainer.mode(showing:)); the secondary cannot be hidden.
    public func showColumn(_ container: ContainerViewController, _ column: SplitColumn, show: Bool,
                           animated: Bool = true, interactive: Interactivity = .none, animator requested: String? = nil,
                           whenBusy: WhenBusy? = nil, id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        let split = try requireSplit(container)
        try requireColumn(column, of: split)
        if column == .secondary, !show {
            throw .invalidParams("column", "the secondary column is always shown: hide a sidebar instead")
        }
        let base = split.isCollapsed ? split.resolve(split.preferredDisplayMode, in: size) : split.displayMode
        guard let mode = split.mode(showing: column, show, from: base) else { return .nothing }
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try changeDisplayMode(container, split, preferred: mode, request)
    }

    func changeDisplayMode(_ container: ContainerViewController, _ split: SplitContainer, preferred: SplitDisplayMode,
                           _ request: TransitionRequest) throws(EngineError) -> TransitionStart
    {
        if split.isCollapsed {
            split.preferredDisplayMode = preferred
            return .nothing
        }
        return try startTransition(on: container, kind: .displayMode, request, retry: { [unowned self] r throws(EngineError) in
            try self.changeDisplayMode(container, split, preferred: preferred, r)
        }) { () -> TransitionPlan? in
            split.preferredDisplayMode = preferred
            let old = split.displayMode
            let new = split.resolve(preferred, in: size)
            guard new != old else { return nil }
            let (hiding, showing) = split.changedColumns(old, new)
            return TransitionPlan(
                op: TransitionOperation(kind: .displayMode, container: container, from: hiding.first ?? split.secondary,
                                        to: showing.first ?? split.secondary, fromIndex: nil, toIndex: nil,
                                        direction: nil),
                split: .displayMode(from: old, to: new))
        }
    }

    // MARK: Collapse and expand (size classes)

    /// After a resize: split views collapse in a horizontally compact scene and expand in a regular one; an
    /// expanded split whose `automatic` mode now resolves differently takes the new mode (no transition, like the
    /// layout pass it is part of). In creation order.
    func adaptSplitViews() {
        for vc in allViewControllers {
            guard let container = vc as? ContainerViewController, let split = container.split else { continue }
            if traits.horizontal == .compact {
                if !split.isCollapsed { collapse(container, split) }
            } else if split.isCollapsed {
                expand(container, split)
            } else if container.activeTransition == nil {
                let mode = split.resolve(split.preferredDisplayMode, in: size)
                if mode != split.displayMode { applyDisplayMode(container, split, mode) }
            }
        }
    }

    /// The navigation container a split collapses into: `SPLITID.nav`, its stack the columns.
    func makeCollapsedNavigation(of container: ContainerViewController, split: SplitContainer) throws(EngineError)
        -> ContainerViewController
    {
        var id = "\(container.id).nav"
        var n = 2
        while viewControllersByID[id] != nil || view(id + ".view") != nil {
            id = "\(container.id).nav-\(n)"
            n += 1
        }
        let view = try makeView(id: id + ".view", frame: container.view.model.bounds, color: .white)
        let nav = ContainerViewController(id: id, title: nil, view: view, behaviour: NavigationContainer(),
                                          items: split.columns, whenBusy: container.whenBusy)
        viewControllersByID[id] = nav
        return nav
    }

    /// Collapse: the columns move into `SPLITID.nav` (primary at the root, the secondary on top). The sidebars that
    /// were on screen disappear; the secondary stays; the navigation container appears. Not animated.
    func collapse(_ container: ContainerViewController, _ split: SplitContainer) {
        if let running = container.activeTransition { finishNow(running) }
        guard !split.isCollapsed, let nav = try? makeCollapsedNavigation(of: container, split: split) else { return }
        let stack = split.columns
        let shown = split.visibleChildren(of: container)
        let visible = container.isVisible
        for vc in stack { willMove(vc, to: nav) }
        willMove(nav, to: container)
        if visible {
            for vc in shown where vc !== split.secondary { beginAppearance(vc, appearing: false, animated: false) }
            nav.appearance = .appearing
            emit(.viewWillAppear(vc: nav.id, animated: false))
        }
        for vc in shown { removeFromSuperview(vc.view) }
        container.children = [nav]
        nav.parent = container
        nav.children = stack
        for vc in stack { vc.parent = nav }
        nav.selectedIndex = stack.count - 1
        addSubview(nav.view, to: container.view)
        set(nav.view, frame: container.view.model.bounds)
        addSubview(split.secondary.view, to: nav.view)
        set(split.secondary.view, frame: nav.view.model.bounds)
        split.collapsedNavigation = nav
        if visible {
            for vc in shown where vc !== split.secondary { endAppearance(vc) }
            if split.secondary.appearance != .appeared {
                beginAppearance(split.secondary, appearing: true, animated: false)
                endAppearance(split.secondary)
            }
            nav.appearance = .appeared
            emit(.viewDidAppear(vc: nav.id, animated: false))
        }
        for vc in stack { didMove(vc, to: nav) }
        didMove(nav, to: container)
    }

    /// Expand: the columns come back from `SPLITID.nav` in the preferred display mode (a change made while
    /// collapsed applies now); view controllers pushed beyond the columns leave; the navigation container goes.
    func expand(_ container: ContainerViewController, _ split: SplitContainer) {
        guard let nav = split.collapsedNavigation else { return }
        if let running = nav.activeTransition { finishNow(running) }
        if let running = container.activeTransition { finishNow(running) }
        let mode = split.resolve(split.preferredDisplayMode, in: size)
        let columns = split.columns
        let stack = nav.items
        let extras = stack.filter { vc in !columns.contains { $0 === vc } }
        let top = stack.last
        let showing = split.visibleColumns(mode).compactMap(split.viewController(of:))
        let visible = container.isVisible
        for vc in columns { willMove(vc, to: container) }
        for vc in extras { willMove(vc, to: nil) }
        willMove(nav, to: nil)
        if visible {
            nav.appearance = .disappearing
            emit(.viewWillDisappear(vc: nav.id, animated: false))
            if let top, !showing.contains(where: { $0 === top }) { beginAppearance(top, appearing: false, animated: false) }
            for vc in showing { beginAppearance(vc, appearing: true, animated: false) }
        }
        for vc in stack where vc.view.superview === nav.view { removeFromSuperview(vc.view) }
        removeFromSuperview(nav.view)
        nav.items = []
        nav.children = []
        nav.selectedIndex = nil
        for vc in extras { vc.parent = nil }
        container.children = columns
        for vc in columns { vc.parent = container }
        split.collapsedNavigation = nil
        split.displayMode = mode
        let bounds = container.view.model.bounds
        for column in split.visibleColumns(mode) {
            guard let vc = split.viewController(of: column), let f = split.frame(of: column, mode: mode, bounds: bounds)
            else { continue }
            split.place(column, vc, frame: f, in: container, scene: self)
        }
        if visible {
            if let top, !showing.contains(where: { $0 === top }) { endAppearance(top) }
            for vc in showing { endAppearance(vc) }
            nav.appearance = .disappeared
            emit(.viewDidDisappear(vc: nav.id, animated: false))
        }
        for vc in columns { didMove(vc, to: container) }
        for vc in extras { didMove(vc, to: nil) }
        didMove(nav, to: nil)
        nav.parent = nil
        viewControllersByID[nav.id] = nil
        destroyView(nav.view)
    }

    /// An expanded split takes `mode` at once (a layout pass: appearance not animated, no transition).
    func applyDisplayMode(_ container: ContainerViewController, _ split: SplitContainer, _ mode: SplitDisplayMode) {
        let (hiding, showing) = split.changedColumns(split.displayMode, mode)
        let visible = container.isVisible
        if visible {
            for vc in hiding { beginAppearance(vc, appearing: false, animated: false) }
            for vc in showing { beginAppearance(vc, appearing: true, animated: false) }
        }
        for vc in hiding { removeFromSuperview(vc.view) }
        split.displayMode = mode
        let bounds = container.view.model.bounds
        for column in split.visibleColumns(mode) {
            guard let vc = split.viewController(of: column), let f = split.frame(of: column, mode: mode, bounds: bounds)
            else { continue }
            if vc.view.superview !== container.view { split.place(column, vc, frame: f, in: container, scene: self) }
            set(vc.view, frame: f)
        }
        if visible {
            for vc in hiding { endAppearance(vc) }
            for vc in showing { endAppearance(vc) }
        }
    }
}
