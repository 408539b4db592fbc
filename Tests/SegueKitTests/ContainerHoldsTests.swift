import Testing

@testable import SegueKit

/// Which view controllers some container holds is kept as each container's lists change (`containerHolds`), not
/// found by a pass over every container per request (container.create was quadratic in the scene's containers).
/// Each case is a refusal the old pass made, or a release it saw.
@Suite("A view controller held by a container")
struct ContainerHoldsTests {
    func scene() -> Scene { Scene(id: "s", size: Size(w: 320, h: 480), clock: .manual) }

    @Test("an unselected item of a custom container (no parent) joins no other container and is not destroyed")
    func unselectedItemIsHeld() throws {
        let scene = scene()
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        _ = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
        #expect(b.parent == nil)
        #expect(throws: EngineError.self) { try scene.createContainer(id: "d", kind: .custom, items: [b]) }
        #expect(throws: EngineError.self) { try scene.destroyViewController(b) }
        let nav = try scene.createContainer(id: "n", kind: .navigation,
                                            items: [try scene.createViewController(id: "r", title: nil, color: nil)])
        #expect(throws: EngineError.self) { try scene.push(nav, b, animated: false) }
    }

    @Test("a navigation stack's items are held; popped ones are free again")
    func poppedItemsAreFree() throws {
        let scene = scene()
        let r = try scene.createViewController(id: "r", title: nil, color: nil)
        let x = try scene.createViewController(id: "x", title: nil, color: nil)
        let nav = try scene.createContainer(id: "n", kind: .navigation, items: [r])
        _ = try scene.push(nav, x, animated: false)
        #expect(throws: EngineError.self) { try scene.createContainer(id: "d", kind: .custom, items: [x]) }
        _ = try scene.pop(nav, animated: false)
        #expect(nav.items.count == 1)
        let other = try scene.createContainer(id: "d", kind: .custom, items: [x])
        #expect(other.items.first === x)
    }

    @Test("a paging container's alive view controllers are held, the page on screen and the others")
    func pagingAliveIsHeld() throws {
        let scene = scene()
        let paging = try scene.createContainer(id: "p", kind: .paging, items: [], pageCount: 5, reuse: 2)
        _ = try scene.select(paging, index: 1, animated: false)
        let alive = try #require(paging.paging?.alive)
        #expect(alive.count == 2)
        for vc in alive {
            #expect(throws: EngineError.self) { try scene.createContainer(id: "q", kind: .custom, items: [vc]) }
        }
    }
}
