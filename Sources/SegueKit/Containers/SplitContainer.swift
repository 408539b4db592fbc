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
            scene.controllers.willMove(nav, to: container, in: scene)
            container.children.append(nav)
            nav.parent = container
            scene.addSubview(nav.view, to: container.view)
            scene.set(nav.view, frame: container.view.model.bounds)
            scene.controllers.adoptAll(nav.items, of: nav, shown: nav.items.count - 1, in: scene)
            scene.controllers.didMove(nav, to: container, in: scene)
            collapsedNavigation = nav
            return
        }
        for vc in columns { scene.controllers.willMove(vc, to: container, in: scene) }
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
        for vc in columns { scene.controllers.didMove(vc, to: container, in: scene) }
    }

    func beginContainment(_ t: Transition, in scene: Scene) {
        let container = t.container
        switch t.change.split {
        case .column(let column, let old, let new)?:
            scene.controllers.willMove(old, to: nil, in: scene)
            scene.controllers.willMove(new, to: container, in: scene)
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
            scene.controllers.beginAppearance(t.from, appearing: false, animated: animated, in: scene)
            scene.controllers.beginAppearance(t.to, appearing: true, animated: animated, in: scene)
        case .displayMode(let old, let new)?:
            let (hiding, showing) = changedColumns(old, new)
            for vc in hiding { scene.controllers.beginAppearance(vc, appearing: false, animated: animated, in: scene) }
            for vc in showing { scene.controllers.beginAppearance(vc, appearing: true, animated: animated, in: scene) }
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
            scene.controllers.endAppearance(old, animated: animated, in: scene)
            scene.controllers.endAppearance(new, animated: animated, in: scene)
            scene.controllers.didMove(old, to: nil, in: scene)
            scene.controllers.didMove(new, to: container, in: scene)
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
            for vc in hiding { scene.controllers.endAppearance(vc, animated: animated, in: scene) }
            for vc in showing { scene.controllers.endAppearance(vc, animated: animated, in: scene) }
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
            scene.controllers.reverseAppearance(t.from, t.to, animated: animated, in: scene)
            return
        }
        let (hiding, showing) = changedColumns(old, new)
        for vc in showing where vc.appearance == .appearing {
            scene.controllers.beginAppearance(vc, appearing: false, animated: animated, in: scene)
            scene.controllers.endAppearance(vc, animated: animated, in: scene)
        }
        for vc in hiding where vc.appearance == .disappearing {
            scene.controllers.beginAppearance(vc, appearing: true, animated: animated, in: scene)
            scene.controllers.endAppearance(vc, animated: animated, in: scene)
        }
    }

    func undoContainment(_ t: Transition, in scene: Scene, animated: Bool) {
        guard case .column(let column, let old, let new)? = t.change.split else { return }
        let container = t.container
        setColumn(column, old, in: container)
        container.children.removeAll { $0 === new }
        new.parent = nil
        scene.controllers.didMove(new, to: nil, in: scene)
        scene.controllers.didMove(old, to: container, in: scene)
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
