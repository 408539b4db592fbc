/// Seed 004's DTContainerViewController (`kind: "paging"`): `pageCount` pages made on demand from `template`, at
/// most `reuse` view controllers alive (`alive`, least recently used first), reused like table cells; only the
/// selected page's view controller is a child. A page change is a custom container's select.
public final class PagingContainer: CustomContainer {
    public internal(set) var pageCount: Int
    public internal(set) var reuse: Int
    public internal(set) var template: PageTemplate
    /// The view controllers made for pages, least recently used first.
    public internal(set) var alive: [ViewController] = [] {
        didSet { ViewController.moveHolds(from: oldValue, to: alive) }
    }
    /// The page each alive view controller shows now, by view controller id.
    public internal(set) var pageOf: [String: Int] = [:]
    var nextPageVC = 1

    init(pageCount: Int, reuse: Int, template: PageTemplate) throws(EngineError) {
        guard pageCount >= 0 else { throw .invalidParams("count", "count must be ≥ 0") }
        guard reuse >= 2 else {
            throw .invalidParams("reuse", "reuse must be at least 2 (the page on screen and the one coming in)")
        }
        self.pageCount = pageCount
        self.reuse = reuse
        self.template = template
    }

    override var kind: ContainerKind { .paging }

    override func selected(of container: ContainerViewController) -> ViewController? {
        guard let page = container.selectedIndex else { return nil }
        return alive.first { vc in pageOf[vc.id] == page && container.children.contains { $0 === vc } }
    }

    override func selectableCount(of container: ContainerViewController) -> Int { pageCount }

    override func viewController(at index: Int, of container: ContainerViewController, in scene: Scene)
        throws(EngineError) -> ViewController
    {
        try pageViewController(container, page: index, in: scene)
    }

    override func held(by container: ContainerViewController) -> [ViewController] { alive }

    /// Page 0's view controller is made and becomes the child.
    override func install(_ container: ContainerViewController, in scene: Scene) throws(EngineError) {
        guard pageCount > 0 else { return }
        let first = try pageViewController(container, page: 0, in: scene)
        scene.controllers.addSelectedChild(first, of: container, index: 0, in: scene)
    }

    /// Seed 004's data source with reuse: the view controller showing `page`. One already showing it is reused;
    /// below `reuse` a new one is made; otherwise the least recently used one that is not on screen is dequeued
    /// and reconfigured (title, color) for the page, like a table view cell.
    func pageViewController(_ container: ContainerViewController, page: Int, in scene: Scene) throws(EngineError)
        -> ViewController
    {
        func touch(_ vc: ViewController) {
            alive.removeAll { $0 === vc }
            alive.append(vc)
        }
        if let vc = alive.first(where: { pageOf[$0.id] == page }) {
            touch(vc)
            return vc
        }
        let vc: ViewController
        if alive.count < reuse {
            var n = nextPageVC
            while scene.viewController("\(container.id).vc\(n)") != nil { n += 1 }
            nextPageVC = n + 1
            vc = try scene.controllers.createViewController(id: "\(container.id).vc\(n)", title: nil, color: nil, in: scene)
        } else {
            guard let reusable = alive.first(where: { $0.parent == nil }) else {
                throw EngineError(.invalidState, "every view controller of paging container '\(container.id)' is on screen")
            }
            vc = reusable
        }
        vc.title = template.title(of: page)
        scene.set(vc.view, color: template.color(of: page))
        pageOf[vc.id] = page
        touch(vc)
        return vc
    }
}
