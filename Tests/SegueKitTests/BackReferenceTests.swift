import Testing

@testable import SegueKit

/// The engine's back-references (superview, owner, parent, presented view controller, an animation group's
/// transition, what holds a scene) are not `weak` (see `Anchor`): each must still read nil once its referent is
/// gone, whatever is held after it. Every test here holds the referring object past its referent's end; without
/// the referent's deinit clearing its anchor, the reference would dangle (a wrong answer or a crash).
@Suite("Back-references without weak references")
struct BackReferenceTests {
    static func view(_ serial: Int) -> View {
        View(id: "v\(serial)", serial: serial, frame: Rect(x: 0, y: 0, w: 10, h: 10), color: .white)
    }

    @Test("a subview held after its superview is gone has no superview")
    func subviewOutlivesSuperview() {
        let child = Self.view(2)
        weak var gone: View?
        do {
            let parent = Self.view(1)
            parent.subviews.append(child)
            child.superview = parent
            #expect(child.superview === parent)
            gone = parent
        }
        #expect(gone == nil)
        #expect(child.superview == nil)
        #expect(!child.isDescendant(of: Self.view(3)))
    }

    @Test("views held after their scene is gone: a subview of a gone view has no superview")
    func viewsOutliveScene() throws {
        let recorder = EventRecorder()
        var held: (View, ViewController)?
        weak var gone: Scene?
        do {
            let (scene, container, a, _) = try makeScene(recorder: recorder)
            let inner = try scene.makeView(frame: Rect(x: 0, y: 0, w: 5, h: 5))
            scene.addSubview(inner, to: a.view)
            #expect(a.view.superview === container.view && inner.superview === a.view && a.view.owner === a)
            held = (inner, a)
            gone = scene
        }
        #expect(gone == nil)
        let (inner, a) = try #require(held)
        // The container and its view went with the scene; `a` is held, so its view is still `inner`'s superview.
        #expect(a.view.superview == nil && a.parent == nil)
        #expect(inner.superview === a.view && a.view.owner === a)
    }

    @Test("a view held after its view controller is gone has no owner")
    func viewOutlivesController() throws {
        let view: View
        do {
            let recorder = EventRecorder()
            let (_, _, a, _) = try makeScene(recorder: recorder)
            view = a.view
            #expect(view.owner === a)
        }
        #expect(view.owner == nil)
    }

    @Test("a child view controller held after its container is gone has no parent")
    func childOutlivesContainer() throws {
        let recorder = EventRecorder()
        var held: ViewController?
        do {
            let (_, container, a, _) = try makeScene(recorder: recorder)
            #expect(a.parent === container)
            held = a
        }
        let a = try #require(held)
        #expect(a.parent == nil)
    }

    @Test("a presenting view controller held after the presented one is gone presents nothing")
    func presenterOutlivesPresented() {
        // (In a scene a presented view controller lives as long as its presentation; dismissal clears the link.)
        let presenting = ViewController(id: "p", title: nil, view: Self.view(1))
        weak var gone: ViewController?
        do {
            let presented = ViewController(id: "m", title: nil, view: Self.view(2))
            presenting.presentedViewController = presented
            #expect(presenting.presentedViewController === presented)
            gone = presented
        }
        #expect(gone == nil)
        #expect(presenting.presentedViewController == nil)
    }

    @Test("an animation group held after its scene is destroyed mid-transition has no transition")
    func groupOutlivesTransition() throws {
        let recorder = EventRecorder()
        var held: (AnimationGroup, (Bool) -> Void)?
        weak var goneTransition: Transition?
        weak var goneScene: Scene?
        do {
            let (scene, container, _, b) = try makeScene(recorder: recorder)
            let t = try #require(try scene.select(container, index: 1).transition)
            scene.advance(by: 100_000_000)  // mid-transition
            let groups = b.view.animations.compactMap { $0?.group }
            let group = try #require(groups.first)
            #expect(group.transition === t)
            held = (group, try #require(group.completion))
            scene.finishAllTransitions()  // what scene.destroy does before it drops the scene
            goneTransition = t
            goneScene = scene
        }
        #expect(goneScene == nil && goneTransition == nil)
        let (group, completion) = try #require(held)
        #expect(group.transition == nil)
        // The default animator's completion holds the scene's anchor: with the scene gone it does nothing.
        let events = recorder.events.count
        completion(true)
        #expect(recorder.events.count == events)
    }

    @Test("a scene's anchor held after the scene is gone reads nil")
    func anchorOutlivesScene() {
        let anchor: Anchor<Scene>
        do {
            let scene = Scene(id: "s", size: Size(w: 10, h: 10), clock: .manual)
            anchor = scene.anchor
            #expect(anchor.object === scene)
        }
        #expect(anchor.object == nil)
    }

    @Test("a view transition's completion held after its scene is gone only reports the end")
    func viewTransitionOutlivesScene() throws {
        let recorder = EventRecorder()
        var held: ((Bool) -> Void)?
        var completed: [Bool] = []
        weak var gone: Scene?
        do {
            let (scene, _, a, _) = try makeScene(recorder: recorder)
            let from = try scene.makeView(frame: Rect(x: 0, y: 0, w: 5, h: 5))
            let to = try scene.makeView(frame: Rect(x: 0, y: 0, w: 5, h: 5))
            scene.addSubview(from, to: a.view)
            try scene.transitionViews(from: from, to: to, duration: 0.5, style: .crossDissolve) { completed.append($0) }
            scene.advance(by: 100_000_000)
            held = to.animations.compactMap { $0?.group }.first?.completion
            gone = scene
        }
        #expect(gone == nil)
        let completion = try #require(held)
        completion(true)
        #expect(completed == [true])
    }

    @Test("a scene's sink is held strongly: a recorder set inline still records")
    func sinkIsStrong() {
        let scene = Scene(id: "s", size: Size(w: 10, h: 10), clock: .manual)
        scene.sink = EventRecorder()
        scene.warn("p", "hello")
        #expect((scene.sink as? EventRecorder)?.events.count == 1)
    }
}
