import SegueJSON

extension Scene {
    /// Checks an id given by a client: letters, digits, `-`, `_`, `.`, 1–64 characters.
    public static func isValidID(_ id: String) -> Bool {
        let utf8 = id.utf8
        guard (1...64).contains(utf8.count) else { return false }
        for c in utf8 {
            switch c {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
                UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "-"), UInt8(ascii: "_"), UInt8(ascii: "."):
                continue
            default: return false
            }
        }
        return true
    }

    public func viewController(_ id: String) -> ViewController? { viewControllersByID[id] }

    public func container(_ id: String) -> ContainerViewController? {
        viewControllersByID[id] as? ContainerViewController
    }

    public var allViewControllers: [ViewController] {
        viewControllersByID.values.sorted { $0.view.serial < $1.view.serial }
    }

    func newVCID(_ requested: String?) throws(EngineError) -> String {
        if let requested {
            guard Scene.isValidID(requested) else {
                throw .invalidParams("id", "id must be 1-64 letters, digits, '-', '_' or '.'")
            }
            guard viewControllersByID[requested] == nil, viewsByID[requested + ".view"] == nil else {
                throw .invalidParams("id", "a view controller with id '\(requested)' already exists in scene '\(id)'")
            }
            return requested
        }
        while viewControllersByID["vc-\(nextVCNumber)"] != nil { nextVCNumber += 1 }
        defer { nextVCNumber += 1 }
        return "vc-\(nextVCNumber)"
    }

    /// vc.create: a view controller with a view the size of the scene.
    public func createViewController(id requested: String?, title: String?, color: Color?,
                                     animators: [String: String] = [:]) throws(EngineError) -> ViewController
    {
        let vcID = try newVCID(requested)
        let view = try makeView(id: vcID + ".view", frame: Rect(x: 0, y: 0, w: size.w, h: size.h),
                                color: color ?? .white)
        let vc = ViewController(id: vcID, title: title, view: view)
        vc.preferredAnimators = animators
        viewControllersByID[vcID] = vc
        return vc
    }

    /// container.create. For `custom`, the first item becomes the selected child (seed 000 adds only it).
    public func createContainer(id requested: String?, kind: ContainerKind, items: [ViewController],
                                whenBusy: WhenBusy = .reject, title: String? = nil) throws(EngineError)
        -> ContainerViewController
    {
        guard kind == .custom else {
            throw .invalidParams("kind", "container kind '\(kind.rawValue)' is not supported yet (custom is)")
        }
        var seen = Set<String>()
        for item in items {
            guard seen.insert(item.id).inserted else {
                throw .invalidParams("children", "'\(item.id)' appears twice")
            }
            guard item.parent == nil, item !== root, !isItemOfAnyContainer(item) else {
                throw .invalidParams("children", "'\(item.id)' already has a parent or is the root")
            }
        }
        let vcID = try newVCID(requested)
        let view = try makeView(id: vcID + ".view", frame: Rect(x: 0, y: 0, w: size.w, h: size.h), color: .white)
        let container = ContainerViewController(
            id: vcID, title: title, view: view, kind: kind, items: items, whenBusy: whenBusy)
        viewControllersByID[vcID] = container
        if !items.isEmpty { addSelectedChild(at: 0, of: container) }
        return container
    }

    /// Makes `items[index]` the container's child and selection without a transition (addChild, view in place,
    /// appearance when the container is on screen, didMove).
    func addSelectedChild(at index: Int, of container: ContainerViewController) {
        let child = container.items[index]
        willMove(child, to: container)
        container.children.append(child)
        child.parent = container
        addSubview(child.view, to: container.view)
        set(child.view, frame: container.view.model.bounds)
        container.selectedIndex = index
        if container.isVisible {
            beginAppearance(child, appearing: true, animated: false)
            endAppearance(child)
        }
        didMove(child, to: container)
    }

    func isItemOfAnyContainer(_ vc: ViewController) -> Bool {
        viewControllersByID.values.contains { ($0 as? ContainerViewController)?.items.contains { $0 === vc } ?? false }
    }

    /// scene.set_root: the root's view fills the window; it and its visible descendants appear (not animated).
    public func setRoot(_ vc: ViewController) throws(EngineError) {
        guard vc !== root else { return }
        guard vc.parent == nil, !isItemOfAnyContainer(vc) else {
            throw .invalidParams("vc", "'\(vc.id)' is inside a container and cannot be the root")
        }
        if let old = root {
            beginAppearance(old, appearing: false, animated: false)
            removeFromSuperview(old.view)
            endAppearance(old)
        }
        root = vc
        addSubview(vc.view, to: window)
        set(vc.view, frame: Rect(x: 0, y: 0, w: size.w, h: size.h))
        beginAppearance(vc, appearing: true, animated: false)
        endAppearance(vc)
    }

    // MARK: Containment events

    func willMove(_ vc: ViewController, to parent: ViewController?) {
        emit("vc.will_move_to_parent", JSONObject([("vc", .string(vc.id)), ("parent", parent.map { .string($0.id) } ?? .null)]))
    }

    func didMove(_ vc: ViewController, to parent: ViewController?) {
        emit("vc.did_move_to_parent", JSONObject([("vc", .string(vc.id)), ("parent", parent.map { .string($0.id) } ?? .null)]))
    }

    // MARK: Appearance (begin/endAppearanceTransition, forwarded to visible children)

    /// view_will_appear / view_will_disappear for `vc` and its visible descendants (parents first).
    func beginAppearance(_ vc: ViewController, appearing: Bool, animated: Bool) {
        let target: Appearance = appearing ? .appearing : .disappearing
        guard vc.appearance != target else { return }
        vc.appearance = target
        emit(appearing ? "vc.view_will_appear" : "vc.view_will_disappear",
             JSONObject([("vc", .string(vc.id)), ("animated", .bool(animated))]))
        for child in vc.visibleChildren { beginAppearance(child, appearing: appearing, animated: animated) }
    }

    /// view_did_appear / view_did_disappear, completing what `beginAppearance` started.
    func endAppearance(_ vc: ViewController, animated: Bool = false) {
        switch vc.appearance {
        case .appearing:
            vc.appearance = .appeared
            emit("vc.view_did_appear", JSONObject([("vc", .string(vc.id)), ("animated", .bool(animated))]))
        case .disappearing:
            vc.appearance = .disappeared
            emit("vc.view_did_disappear", JSONObject([("vc", .string(vc.id)), ("animated", .bool(animated))]))
        default:
            return
        }
        for child in vc.visibleChildren { endAppearance(child, animated: animated) }
    }
}
