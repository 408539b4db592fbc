extension Scene {
    /// container.select: switches a custom, tab or paging container to `index` (the page, for paging).
    public func select(_ container: ContainerViewController, index: Int, animated: Bool = true, interactive: Interactivity = .none,
                       animator requested: String? = nil, whenBusy: WhenBusy? = nil,
                       id reserved: String? = nil) throws(EngineError) -> TransitionStart
    {
        guard let kind = container.behaviour as? CustomContainer else {
            throw .invalidParams("container", "'\(container.id)' is a \(container.kind) container: use \(container.requests)")
        }
        let count = kind.selectableCount(of: container)
        guard index >= 0, index < count else {
            throw .invalidParams("index", "index \(index) is out of range 0..<\(count)")
        }
        if container.selectedIndex == index, container.activeTransition == nil {
            return .nothing
        }
        let request = TransitionRequest(animated: animated, interactive: interactive, animator: requested,
                                        whenBusy: whenBusy, id: reserved)
        return try startTransition(on: container, kind: .select, request, makeRetry: {
            { [unowned self] r throws(EngineError) in
                try self.select(container, index: index, animated: r.animated, interactive: r.interactive,
                                animator: r.animator, whenBusy: r.whenBusy, id: r.id)
            }
        }) { () throws(EngineError) -> TransitionPlan? in
            if container.selectedIndex == index { return nil }
            let to = try kind.viewController(at: index, of: container, in: self)
            guard let fromIndex = container.selectedIndex, let from = container.selected else {
                controllers.addSelectedChild(to, of: container, index: index, in: self)  // nothing selected yet: no transition
                return nil
            }
            return TransitionPlan(op: TransitionOperation(
                kind: .select, container: container, from: from, to: to, fromIndex: fromIndex, toIndex: index,
                direction: index >= fromIndex ? .forward : .backward))
        }
    }
}
