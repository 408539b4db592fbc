import Testing

@testable import SegueKit

/// A transition's cancel baseline is recorded on first touch (TransitionBaseline, issue 24): a cancel must still put
/// every view of the container's, from and to views' subtrees back exactly as they were when the animator ran,
/// whoever changed them in between — the animator, a client, another transition — and report each in the frame.
@Suite("Cancel baselines recorded on first touch")
struct BaselineTests {
    /// A scene whose container view holds `crowd` plain views beside the child's view (a few of them with
    /// subviews), a custom container of a and b, the fade-slide animator.
    func crowded(_ crowd: Int) throws -> (Scene, EventRecorder, ContainerViewController, ViewController, ViewController, [View], StaticProvider) {
        let recorder = EventRecorder()
        let (scene, vc) = try makeVCs(["a", "b"], recorder: recorder)
        let a = try #require(vc["a"]), b = try #require(vc["b"])
        let provider = scene.use(["fade-slide": { FadeSlide() }])
        let c = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
        try scene.setRoot(c)
        var views: [View] = []
        for i in 0..<crowd {
            let v = try scene.makeView(id: "v\(i)", frame: Rect(x: Double(i % 30), y: Double(i % 40), w: 10, h: 10))
            scene.addSubview(v, to: i % 10 == 3 && i > 10 ? views[i - 10] : c.view)
            views.append(v)
        }
        recorder.events.removeAll()
        return (scene, recorder, c, a, b, views, provider)
    }

    /// The subtrees a cancel restores, with model and presentation values.
    func snapshot(_ scene: Scene, _ views: View...) -> [ViewNode] {
        views.map { scene.tree.node($0, presentation: true) }
    }

    /// Every view of the subtrees, by id.
    func ids(_ scene: Scene, _ views: View...) -> Set<String> {
        var ids: Set<String> = []
        func walk(_ view: View) {
            ids.insert(view.id)
            view.subviews.forEach(walk)
        }
        views.forEach(walk)
        return ids
    }

    @Test("a start records only the views the animator changes, not the crowd beside them")
    func recordsOnFirstTouch() throws {
        let (scene, _, c, _, _, _, provider) = try crowded(500)
        _ = provider
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        let baseline = try #require(t.baseline)
        // The animator adds b's view to the container (touching it and the container) and sets a's and b's views.
        #expect(baseline.views.count <= 4)
        #expect(Set(baseline.views.map(\.view.id)).isSubset(of: ["c.view", "a.view", "b.view"]))
    }

    @Test("cancel after client writes to untouched and touched views restores the subtrees exactly")
    func cancelAfterClientWrites() throws {
        let (scene, recorder, c, a, b, views, provider) = try crowded(300)
        _ = provider
        let before = snapshot(scene, c.view, a.view, b.view)
        let everyView = ids(scene, c.view, a.view, b.view)
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        try scene.updateTransition(t, percent: 0.4)
        // A client writes while it runs: views the animator never touched (one with subviews), the views it did,
        // the order of the container's subviews, z and hidden, a mask, a new view, a destroyed one's neighbour.
        scene.set(views[7], alpha: 0.2)
        scene.set(views[13], frame: Rect(x: 1, y: 2, w: 3, h: 4))
        scene.set(views[3], color: try #require(Color(hex: "#00ff00")))
        scene.set(b.view, alpha: 0.5)
        scene.set(a.view, z: 3)
        scene.set(views[20], hidden: true)
        scene.bringToFront(views[0])
        scene.removeFromSuperview(views[40])
        scene.addSubview(views[41], to: views[42])
        let mask = try scene.makeView(id: "mask", frame: Rect(x: 0, y: 0, w: 5, h: 5))
        #expect(scene.setMask(views[50], mask) == nil)
        let made = try scene.makeView(id: "made", frame: Rect(x: 0, y: 0, w: 5, h: 5))
        scene.addSubview(made, to: views[60])
        scene.animate(AnimationOptions(duration: 2)) { scene.set(views[70], center: Point(x: 99, y: 99)) }
        scene.step(frames: 3)
        try scene.endInteraction(t, cancel: true, speed: 1, curve: .linear)
        recorder.events.removeAll()
        scene.advance(by: 2_000_000_000)
        #expect(t.state == .cancelled)
        #expect(!made.isAlive)
        #expect(snapshot(scene, c.view, a.view, b.view) == before)
        #expect(views[70].animations.allSatisfy { $0 == nil })
        // The cancel's frame reports every view of the subtrees, as a restore of them all did.
        var reported: Set<String> = []
        for event in recorder.events {
            if case .frame(let frame) = event.payload { for id in frame.ids { reported.insert(id) } }
        }
        #expect(everyView.isSubset(of: reported))
    }

    @Test("a view whose animation ran before the start is put back as it was then, its animation removed")
    func animationBeforeStart() throws {
        let (scene, _, c, _, _, views, provider) = try crowded(50)
        _ = provider
        scene.animate(AnimationOptions(duration: 4, timing: .curve(.linear))) { scene.set(views[5], alpha: 0) }
        scene.step(frames: 30)
        let before = snapshot(scene, c.view)
        let t = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        // Kept before the first frame writes it (the start looks at no running animation).
        #expect(t.baseline?.views.contains { $0.view === views[5] } == false)
        scene.step(frames: 1)
        #expect(t.baseline?.views.contains { $0.view === views[5] } == true)
        scene.step(frames: 29)
        try scene.endInteraction(t, cancel: true, speed: 1, curve: .linear)
        scene.advance(by: 2_000_000_000)
        #expect(t.state == .cancelled)
        #expect(views[5].animations.allSatisfy { $0 == nil })
        #expect(snapshot(scene, c.view) == before)
    }

    @Test("two transitions at once, each cancelled: each baseline restores its own subtrees exactly")
    func twoBaselines() throws {
        let (scene, c, d, crowd, provider) = try twoContainers(crowd: 40)
        _ = provider
        let a = c.items[0], b = c.items[1], p = d.items[0], q = d.items[1]
        let beforeC = snapshot(scene, c.view, a.view, b.view)
        let t1 = try #require(try scene.select(c, index: 1, interactive: .percent, animator: "fade-slide").transition)
        scene.set(crowd[0], alpha: 0.3)
        scene.set(crowd[1], alpha: 0.3)
        // What the second baseline starts from: crowd[1]'s write before it stays (the first one never had d's side).
        let beforeD = snapshot(scene, d.view, p.view, q.view)
        let t2 = try #require(try scene.select(d, index: 1, interactive: .percent, animator: "fade-slide").transition)
        scene.set(crowd[2], alpha: 0.4)
        scene.set(crowd[3], alpha: 0.4)
        // A view moves from one container to the other: each puts back its own side.
        scene.addSubview(crowd[4], to: d.view)
        try scene.updateTransition(t1, percent: 0.5)
        try scene.updateTransition(t2, percent: 0.5)
        try scene.endInteraction(t2, cancel: true, speed: 1, curve: .linear)
        try scene.endInteraction(t1, cancel: true, speed: 1, curve: .linear)
        scene.advance(by: 2_000_000_000)
        #expect(t1.state == .cancelled && t2.state == .cancelled)
        #expect(snapshot(scene, c.view, a.view, b.view) == beforeC)
        #expect(snapshot(scene, d.view, p.view, q.view) == beforeD)
        #expect(scene.journals.openRecorders == 0)
    }
}

@Suite("Recorders among many running transitions")
struct RecorderScaleTests {
    @Test("a start among running transitions keeps nothing for theirs until the next frame; all is let go at the end")
    func startAmongRunning() throws {
        let count = 40
        let ids = (0...count).flatMap { ["a\($0)", "b\($0)"] }
        let (scene, vc) = try makeVCs(ids, recorder: EventRecorder())
        let provider = scene.use(["fade-slide": { FadeSlide() }])
        _ = provider
        var containers: [ContainerViewController] = []
        for i in 0...count {
            let a = try #require(vc["a\(i)"]), b = try #require(vc["b\(i)"])
            containers.append(try scene.createContainer(id: "c\(i)", kind: .custom, items: [a, b]))
        }
        try scene.setRoot(containers[0])
        for c in containers.dropLast() { _ = try #require(try scene.select(c, index: 1, animator: "fade-slide").transition) }
        scene.step(frames: 2)
        #expect(scene.clock.running.count >= count)
        let before = scene.journals.keptStates
        let t = try #require(try scene.select(containers[count], index: 1, animator: "fade-slide").transition)
        // The start keeps only the views its animator touched, not the running transitions' views.
        #expect(scene.journals.keptStates - before < 10)
        // Before the next frame writes them, the running animations' views are kept for the new recorders.
        scene.step(frames: 1)
        #expect(scene.journals.keptStates - before >= count)
        // The deferred first sample is not made full by the frames.
        #expect(t.timeline.deferred != nil)
        scene.advance(by: 3_000_000_000)
        #expect(t.state == .completed && t.timeline.deferred == nil)
        #expect(scene.journals.openRecorders == 0 && scene.journals.keptViews == 0)
    }
}

/// A scene of two custom containers of two view controllers each, c (a, b) on screen and d (p, q) off screen, with
/// `crowd` plain views put alternately into their views; the fade-slide animator.
func twoContainers(crowd count: Int) throws
    -> (Scene, ContainerViewController, ContainerViewController, [View], StaticProvider)
{
    let (scene, vc) = try makeVCs(["a", "b", "p", "q"], recorder: EventRecorder())
    let a = try #require(vc["a"]), b = try #require(vc["b"]), p = try #require(vc["p"]), q = try #require(vc["q"])
    let provider = scene.use(["fade-slide": { FadeSlide() }])
    let c = try scene.createContainer(id: "c", kind: .custom, items: [a, b])
    let d = try scene.createContainer(id: "d", kind: .custom, items: [p, q])
    try scene.setRoot(c)
    var crowd: [View] = []
    for i in 0..<count {
        let v = try scene.makeView(id: "v\(i)", frame: Rect(x: 0, y: 0, w: 10, h: 10))
        scene.addSubview(v, to: i % 2 == 0 ? c.view : d.view)
        crowd.append(v)
    }
    return (scene, c, d, crowd, provider)
}
