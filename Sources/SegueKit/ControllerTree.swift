/// A scene's view controllers: every one by id, the numbering of new ids, and the containment and appearance
/// calls between them (ControllerTree+Containment: will/did move to parent, begin/end appearance forwarded to
/// visible children, the layout pass). It makes view controllers and containers, files and forgets them; nothing
/// else writes its state.
final class ControllerTree {
    private(set) var viewControllersByID: [String: ViewController] = [:]
    private var nextVCNumber = 1
    /// The view controller whose view fills the window.
    private(set) var root: ViewController?

    /// The container `container(_:)` found last: a client names the same container request after request. Only
    /// `register` and `unregister` change the table, and both let it go, so it is always the table's answer.
    private var lastContainer: ContainerViewController?

    /// Files `vc` under its id.
    func register(_ vc: ViewController) {
        lastContainer = nil
        viewControllersByID[vc.id] = vc
    }

    /// Forgets the view controller with `id`.
    func unregister(_ id: String) {
        lastContainer = nil
        viewControllersByID[id] = nil
    }

    /// The container filed under `id` (nil: none, or a view controller that is not a container). Compared with
    /// `==`, as the table's lookup compares keys.
    func container(_ id: String) -> ContainerViewController? {
        if let lastContainer, lastContainer.id == id { return lastContainer }
        let found = viewControllersByID[id] as? ContainerViewController
        if found != nil { lastContainer = found }
        return found
    }

    /// Every view controller, in the order their views were made.
    var all: [ViewController] { viewControllersByID.values.sorted { $0.view.serial < $1.view.serial } }

    /// An id for a new view controller: `requested` when it is valid and free, else the next `vc-N`.
    func newVCID(_ requested: String?, in scene: Scene) throws(EngineError) -> String {
        if let requested {
            guard Scene.isValidID(requested) else {
                throw .invalidParams("id", "id must be 1-64 letters, digits, '-', '_' or '.'")
            }
            guard viewControllersByID[requested] == nil, scene.tree.viewsByID[requested + ".view"] == nil else {
                throw .invalidParams("id", "a view controller with id '\(requested)' already exists in scene '\(scene.id)'")
            }
            return requested
        }
        while viewControllersByID["vc-\(nextVCNumber)"] != nil { nextVCNumber += 1 }
        defer { nextVCNumber += 1 }
        return "vc-\(nextVCNumber)"
    }

    /// scene.tree's view-controller part: the tree from `vc`, to `Scene.maxViewDepth` levels.
    func node(_ vc: ViewController, depth: Int = 0) -> ControllerNode {
        ControllerNode(
            id: vc.id, kind: vc.kind, view: vc.view.id, appearance: vc.appearance,
            children: depth < Scene.maxViewDepth ? vc.children.map { node($0, depth: depth + 1) } : [],
            presented: depth < Scene.maxViewDepth ? vc.presentedViewController.map { node($0, depth: depth + 1) } : nil)
    }

    /// scene.set_root: the root's view fills the window; it and its visible descendants appear (not animated).
    func setRoot(_ vc: ViewController, in scene: Scene) throws(EngineError) {
        guard vc !== root else { return }
        guard vc.parent == nil, !isItemOfAnyContainer(vc, in: scene) else {
            throw .invalidParams("vc", "'\(vc.id)' is inside a container and cannot be the root")
        }
        if let old = root {
            beginAppearance(old, appearing: false, animated: false, in: scene)
            scene.removeFromSuperview(old.view)
            endAppearance(old, in: scene)
        }
        root = vc
        scene.addSubview(vc.view, to: scene.window)
        scene.set(vc.view, frame: Rect(x: 0, y: 0, w: scene.size.w, h: scene.size.h))
        beginAppearance(vc, appearing: true, animated: false, in: scene)
        endAppearance(vc, in: scene)
    }
}
