import Testing

@testable import SegueKit

/// `EventSink.skipped`: an event its sink does not want is not built, and the sink is told its kind (the daemon
/// counts `transition.began` from it when nobody is subscribed).
@Suite("Skipped events")
struct SkippedEventTests {
    /// Wants only the kinds in `wanted`; records what it is given and the kinds it was told were skipped.
    final class Choosy: EventSink {
        let wanted: Set<EngineEvent.Kind>
        var events: [EngineEvent] = []
        var skipped: [EngineEvent.Kind] = []
        init(wanted: Set<EngineEvent.Kind>) { self.wanted = wanted }
        func emit(_ event: EngineEvent) { events.append(event) }
        func wants(_ kind: EngineEvent.Kind) -> Bool { wanted.contains(kind) }
        func skipped(_ kind: EngineEvent.Kind) { skipped.append(kind) }
    }

    func select(with sink: any EventSink) throws -> Scene {
        let scene = Scene(id: "test", size: Size(w: 320, h: 480), clock: .manual)
        let a = try scene.createViewController(id: "a", title: "A", color: nil)
        let b = try scene.createViewController(id: "b", title: "B", color: nil)
        let container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
        try scene.setRoot(container)
        scene.sink = sink
        _ = try scene.select(container, index: 1)
        return scene
    }

    @Test("a transition.began nobody wants is not built: the sink is told its kind, once per start, in order")
    func beganSkipped() throws {
        let declining = Choosy(wanted: [])
        let a = try select(with: declining)
        #expect(declining.events.isEmpty)
        #expect(declining.skipped.filter { $0 == .transitionBegan }.count == 1)
        // The lifecycle calls before it were skipped too, each told.
        #expect(declining.skipped.contains(.vcWillMoveToParent))
        let wanting = Choosy(wanted: [.transitionBegan])
        let b = try select(with: wanting)
        #expect(wanting.events.map(\.kind) == [.transitionBegan])
        #expect(!wanting.skipped.contains(.transitionBegan))
        // The same sequence numbers either way: a skipped event takes its number.
        #expect(a.eventSeq == b.eventSeq)
    }

    @Test("a sink that says nothing of skipped events keeps the default: nothing happens")
    func defaultSkipped() throws {
        final class Plain: EventSink {
            var events: [EngineEvent] = []
            func emit(_ event: EngineEvent) { events.append(event) }
            func wants(_ kind: EngineEvent.Kind) -> Bool { false }
        }
        let sink = Plain()
        _ = try select(with: sink)
        #expect(sink.events.isEmpty)
    }
}
