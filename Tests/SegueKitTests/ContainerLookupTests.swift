import Testing

@testable import SegueKit

/// `Scene.container(_:)` keeps the container it found last (ControllerTree.lastContainer): its answer must stay the
/// id table's through every change of that table.
@Suite("Container lookup by id")
struct ContainerLookupTests {
    @Test("the kept container is let go when view controllers are filed or forgotten, and ids compare as the table's keys do")
    func keptContainerFollowsTheTable() throws {
        let scene = Scene(id: "test", size: Size(w: 320, h: 480), clock: .manual, config: EngineConfig())
        let c = try scene.createContainer(id: "c", kind: .custom, items: [])
        let d = try scene.createContainer(id: "d", kind: .custom, items: [])
        #expect(scene.container("c") === c)
        #expect(scene.container("c") === c)
        #expect(scene.container("d") === d)
        #expect(scene.container("c") === c)
        // A view controller that is not a container, and an id nobody has.
        let free = try scene.createViewController(id: "e", title: nil, color: nil)
        #expect(scene.container("e") == nil)
        #expect(scene.container("x") == nil)
        #expect(scene.container("c") === c)
        // Gone: not found, and a plain view controller filed under the same id is not a container.
        try scene.destroyViewController(c)
        #expect(scene.container("c") == nil)
        let again = try scene.createViewController(id: "c", title: nil, color: nil)
        #expect(scene.container("c") == nil)
        #expect(scene.viewController("c") === again)
        #expect(scene.container("d") === d)
        try scene.destroyViewController(d)
        #expect(scene.container("d") == nil)
        _ = free
    }
}
