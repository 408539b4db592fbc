import Testing

@testable import SegueKit

/// Changes views all over the scene (values, places, a running animation of another transition, new views, a
/// timer, a block it never closes), then raises.
final class Vandal: Animator {
    let name = "vandal"
    let raiseInDuration: Bool
    init(raiseInDuration: Bool = false) { self.raiseInDuration = raiseInDuration }
    func transitionDuration(using context: TransitionContext) throws(AnimatorFault) -> Double {
        if raiseInDuration {
            vandalize(context)
            throw AnimatorFault("boom")
        }
        return 0.5
    }
    func animateTransition(using context: TransitionContext) throws(AnimatorFault) {
        vandalize(context)
        throw AnimatorFault("boom")
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}

    func vandalize(_ context: TransitionContext) {
        let scene = context.scene
        guard let far = scene.view("far"), let child = scene.view("far-child"), let other = scene.view("o.view"),
            let otherB = scene.view("ob.view")
        else { return }
        scene.addSubview(context.toViewController.view, to: context.containerView)
        // Another transition's running animations: one superseded by a set outside a block, one by a new block.
        scene.set(other, alpha: 0.3)
        scene.animate(AnimationOptions(duration: 0.4)) {
            scene.set(otherB, transform: .translation(5, 5))
            scene.set(far, center: Point(x: 7, y: 9))
        }
        // New views, one under a view of before, one under the new one.
        if let made = try? scene.makeView(frame: Rect(x: 1, y: 2, w: 3, h: 4)),
            let inner = try? scene.makeView(frame: Rect(x: 0, y: 0, w: 1, h: 1))
        {
            scene.addSubview(made, to: far)
            scene.addSubview(inner, to: made)
            scene.animate(AnimationOptions(duration: 0.2)) { scene.set(inner, alpha: 0) }
        }
        // A view of before moved elsewhere, reordered, hidden, raised, recoloured.
        scene.addSubview(child, to: context.containerView)
        scene.bringToFront(far)
        scene.set(far, hidden: true)
        scene.set(far, z: 3)
        scene.set(child, color: Color(r: 0, g: 1, b: 0))
        scene.after(0.1) { scene.set(child, alpha: 0.5) }
        scene.beginAnimations(AnimationOptions(duration: 0.3), completion: nil)
        scene.set(far, alpha: 0.1)
    }
}

/// Raises at once, having changed nothing.
final class RaisesAtOnce: Animator {
    let name = "vandal"
    let raiseInDuration: Bool
    init(raiseInDuration: Bool = false) { self.raiseInDuration = raiseInDuration }
    func transitionDuration(using context: TransitionContext) throws(AnimatorFault) -> Double {
        if raiseInDuration { throw AnimatorFault("boom") }
        return 0.5
    }
    func animateTransition(using context: TransitionContext) throws(AnimatorFault) { throw AnimatorFault("boom") }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}

/// Records how many view states the open journal holds when the animator's call ends.
final class JournalProbe: Animator {
    let name = "probe"
    var recorded: [Int] = []
    func transitionDuration(using context: TransitionContext) -> Double { 0.5 }
    func animateTransition(using context: TransitionContext) {
        DefaultSlideAnimator().animateTransition(using: context)
        recorded.append(context.scene.journals.entries.last?.views.count ?? -1)
    }
    func animationEnded(_ completed: Bool, context: TransitionContext) {}
}

@Suite("fail-over journal")
struct JournalTests {
    /// A scene with the container under test, a second container mid-transition and a view tree elsewhere.
    func makeBusyScene(_ animator: @escaping () -> any Animator) throws
        -> (Scene, ContainerViewController, EventRecorder, StaticProvider)
    {
        let recorder = EventRecorder()
        let scene = Scene(id: "j", size: Size(w: 320, h: 480), clock: .manual)
        scene.sink = recorder
        let provider = scene.use(["vandal": animator])
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let container = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
        let o = try scene.createViewController(id: "o", title: nil, color: nil)
        let ob = try scene.createViewController(id: "ob", title: nil, color: nil)
        let other = try scene.createContainer(id: "oc", kind: .custom, items: [o, ob])
        let root = try scene.createContainer(id: "root", kind: .custom, items: [container, other])
        try scene.setRoot(root)
        let far = try scene.makeView(id: "far", frame: Rect(x: 10, y: 10, w: 50, h: 50))
        let child = try scene.makeView(id: "far-child", frame: Rect(x: 1, y: 1, w: 5, h: 5))
        scene.addSubview(far, to: scene.window)
        scene.addSubview(child, to: far)
        _ = try scene.select(other, index: 1)
        scene.step(frames: 3)
        return (scene, container, recorder, provider)
    }

    /// Everything a failed call could have changed, by view id, in a form two scenes can be compared by.
    func state(of scene: Scene) -> [String] {
        var lines: [String] = []
        for view in scene.tree.viewsBySerial.values.sorted(by: { $0.serial < $1.serial }) {
            let animations = view.animations.map { a in a.map { "\($0.begin) \($0.from)→\($0.to)" } ?? "-" }
            lines.append("""
                \(view.id) \(view.isAlive) model \(view.model.channels) presentation \(view.presentation.channels) \
                in \(view.superview?.id ?? "-") subviews \(view.subviews.map(\.id)) hidden \(view.hidden) z \(view.z) \
                animations \(animations) dirty \(view.dirty)
                """)
        }
        for animation in scene.clock.running {
            let g = animation.group
            lines.append("running \(animation.view.id) \(animation.property) \(animation.removed) \(g.remaining) \(g.finished) \(g.done)")
        }
        lines.append("pending \(scene.clock.pendingCompletions.count) timers \(scene.clock.timers.count) blocks \(scene.clock.blockStack.count)")
        lines.append("dirty \(scene.tree.dirtyViews.map(\.id).sorted())")
        return lines
    }

    @Test("a call that raised after changing views all over the scene leaves it as a call that changed nothing",
          arguments: [false, true])
    func undoneExactly(raiseInDuration: Bool) throws {
        let (vandalScene, vandalContainer, vandalEvents, p1) = try makeBusyScene { Vandal(raiseInDuration: raiseInDuration) }
        let (cleanScene, cleanContainer, cleanEvents, p2) = try makeBusyScene { RaisesAtOnce(raiseInDuration: raiseInDuration) }
        defer { withExtendedLifetime((p1, p2)) {} }
        #expect(state(of: vandalScene) == state(of: cleanScene))
        let t1 = try #require(try vandalScene.select(vandalContainer, index: 1, animator: "vandal").transition)
        let t2 = try #require(try cleanScene.select(cleanContainer, index: 1, animator: "vandal").transition)
        #expect(t1.failedOver && t2.failedOver)
        #expect(vandalScene.journals.entries.isEmpty)
        #expect(state(of: vandalScene) == state(of: cleanScene))
        // The same frames and events from here on, to the end of both transitions.
        for _ in 0..<150 {
            vandalScene.step(frames: 1)
            cleanScene.step(frames: 1)
        }
        #expect(state(of: vandalScene) == state(of: cleanScene))
        #expect(vandalEvents.events.map { "\($0)" } == cleanEvents.events.map { "\($0)" })
        #expect(t1.state == .completed && t2.state == .completed)
    }

    @Test("what a transition start records does not grow with the scene")
    func startCostIndependentOfSceneSize() throws {
        var counts: [Int] = []
        for size in [5, 200] {
            let scene = Scene(id: "s", size: Size(w: 320, h: 480), clock: .manual)
            let probe = JournalProbe()
            let provider = scene.use(["probe": { probe }])
            defer { withExtendedLifetime(provider) {} }
            var containers: [ContainerViewController] = []
            for i in 0..<size {
                let a = try scene.createViewController(id: "a\(i)", title: nil, color: nil)
                let b = try scene.createViewController(id: "b\(i)", title: nil, color: nil)
                containers.append(try scene.createContainer(id: "c\(i)", kind: .custom, items: [a, b]))
            }
            for c in containers { _ = try scene.select(c, index: 1, animator: "probe") }
            #expect(Set(probe.recorded).count == 1)
            counts.append(probe.recorded.last ?? -1)
        }
        #expect(counts[0] == counts[1])
        #expect(counts[0] > 0)
    }
    @Test("a closed journal is reused only when nothing else holds it, emptied and with a new epoch")
    func journalReuse() throws {
        let scene = Scene(id: "r", size: Size(w: 320, h: 480), clock: .manual)
        let view = try scene.makeView(frame: Rect(x: 0, y: 0, w: 10, h: 10))
        // A journal that went well and that its opener let go of: the next call gets it back, empty.
        var first: CallJournal? = scene.openJournal()
        scene.set(view, alpha: 0.5)
        let firstID = first.map(ObjectIdentifier.init)
        let firstEpoch = first?.epoch
        first.map(scene.closeJournal)
        #expect(first?.views.isEmpty == true)  // let go at once, as when it was freed
        first = nil
        let second = scene.openJournal()
        #expect(ObjectIdentifier(second) == firstID)
        #expect(second.epoch != firstEpoch && second.views.isEmpty && second.started.isEmpty)
        scene.set(view, alpha: 0.25)  // recorded again: the view remembers the old epoch only
        #expect(second.views.count == 1)
        // Still held by whoever closed it: never handed out again under them.
        scene.closeJournal(second)
        let third = scene.openJournal()
        #expect(third !== second)
        // Restored (undone), not recycled: a second close of it changes nothing.
        scene.set(view, alpha: 1)
        scene.restore(third)
        #expect(view.model.alpha == 0.25)
        scene.closeJournal(third)
        let fourth = scene.openJournal()
        #expect(fourth !== third)
        scene.closeJournal(fourth)
        #expect(scene.journals.entries.isEmpty)
    }
}
