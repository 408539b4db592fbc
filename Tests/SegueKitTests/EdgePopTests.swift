import Testing
@testable import SegueKit

/// The edge-swipe pop without a plugin (UINavigationController's interactivePopGestureRecognizer): `Scene.edgePan`.
@Suite("Edge-swipe pop")
struct EdgePopTests {
    /// A navigation controller `nav` at the root holding a and b (b on top), on a 320-wide manual scene.
    static func stack(delegateAnimator: String? = nil) throws -> (Scene, ContainerViewController, ViewController, ViewController) {
        let scene = Scene(id: "edge", size: Size(w: 320, h: 480), clock: .manual)
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let nav = try scene.createContainer(id: "nav", kind: .navigation, items: [a])
        try scene.setRoot(nav)
        _ = try scene.push(nav, b, animated: false)
        return (scene, nav, a, b)
    }

    static func pan(_ phase: PanGesture.Phase, x: Double, vx: Double = 0) -> PanGesture {
        var g = PanGesture(phase: phase, kind: .pan)
        g.translation = Point(x: x, y: 0)
        g.velocity = Point(x: vx, y: 0)
        return g
    }

    @Test("began pops the frontmost navigation controller interactively with the built-in slide; changed scrubs it by translation.x / width")
    func beganAndChanged() throws {
        let (scene, nav, a, b) = try Self.stack()
        let t = try scene.edgePan(nil, Self.pan(.began, x: 0))
        #expect(t.kind == .pop && t.container === nav && t.isEdgePop)
        #expect(t.animatorName == "navigation-slide")
        #expect(t.state == .interactive && t.interactionName == nil)
        _ = try scene.edgePan(nil, Self.pan(.changed, x: 80))
        #expect(scene.percent(of: t) == 0.25)
        // Linear while interactive: the top view is where the finger is.
        let p = 0.25
        #expect(abs(b.view.presentation.transform.affine.tx - 80) < 1e-6)
        #expect(abs(a.view.presentation.transform.affine.tx + 0.3 * 320 * (1 - p)) < 1e-6)
        _ = try scene.edgePan(nil, Self.pan(.changed, x: -40))
        #expect(scene.percent(of: t) == 0, "a translation back past the edge clamps to 0")
    }

    @Test("ended past half the width finishes the pop")
    func finishesPastHalf() throws {
        let (scene, nav, a, _) = try Self.stack()
        let t = try scene.edgePan(nil, Self.pan(.began, x: 0))
        _ = try scene.edgePan(nil, Self.pan(.ended, x: 170, vx: -100))
        #expect(t.state == .finishing)
        _ = scene.advance(by: 1_000_000_000)
        #expect(t.state == .completed)
        #expect(nav.items.map(\.id) == ["a"] && nav.view.subviews.first === a.view)
    }

    @Test("ended under half the width but faster than 500 pt/s toward the finish finishes the pop")
    func finishesFast() throws {
        let (scene, nav, _, _) = try Self.stack()
        let t = try scene.edgePan(nil, Self.pan(.began, x: 0))
        _ = try scene.edgePan(nil, Self.pan(.ended, x: 60, vx: 501))
        #expect(t.state == .finishing)
        _ = scene.advance(by: 1_000_000_000)
        #expect(nav.items.map(\.id) == ["a"])
    }

    @Test("ended under half the width and at 500 pt/s or slower cancels: the stack and the views are as before")
    func cancelsSlow() throws {
        let (scene, nav, a, b) = try Self.stack()
        let t = try scene.edgePan(nil, Self.pan(.began, x: 0))
        _ = try scene.edgePan(nil, Self.pan(.changed, x: 150))
        _ = try scene.edgePan(nil, Self.pan(.ended, x: 150, vx: 500))
        #expect(t.state == .cancelling)
        _ = scene.advance(by: 1_000_000_000)
        #expect(t.state == .cancelled)
        #expect(nav.items.map(\.id) == ["a", "b"])
        #expect(nav.view.subviews.count == 1 && nav.view.subviews.first === b.view)
        #expect(b.view.presentation.transform.isIdentity && a.view.superview == nil)
    }

    @Test("cancelled cancels the pop")
    func cancelledPhase() throws {
        let (scene, nav, _, _) = try Self.stack()
        let t = try scene.edgePan(nil, Self.pan(.began, x: 0))
        _ = try scene.edgePan(nil, Self.pan(.changed, x: 300))
        _ = try scene.edgePan(nil, Self.pan(.cancelled, x: 300, vx: 900))
        #expect(t.state == .cancelling)
        _ = scene.advance(by: 1_000_000_000)
        #expect(nav.items.map(\.id) == ["a", "b"])
    }

    @Test("refused with nothing started: a stack of one, a running transition, no navigation controller on screen")
    func refusals() throws {
        let (scene, nav, _, _) = try Self.stack()
        _ = try scene.pop(nav, animated: false)
        let before = scene.transitions.count
        #expect(throws: EngineError.self) { try scene.edgePan(nil, Self.pan(.began, x: 0)) }
        do { _ = try scene.edgePan(nav, Self.pan(.began, x: 0)) } catch { #expect(error.code == .invalidState) }
        let c = try scene.createViewController(id: "c", title: nil, color: nil)
        let running = try scene.push(nav, c).transition
        #expect(running?.isEnded == false)
        do {
            _ = try scene.edgePan(nav, Self.pan(.began, x: 0))
            Issue.record("an edge swipe began while a push runs")
        } catch { #expect(error.code == .invalidState) }
        #expect(scene.transitions.count == before + 1, "only the push started")
        let plain = Scene(id: "plain", size: Size(w: 320, h: 480), clock: .manual)
        try plain.setRoot(try plain.createViewController(id: "x", title: nil, color: nil))
        do { _ = try plain.edgePan(nil, Self.pan(.began, x: 0)) } catch { #expect(error.code == .invalidState) }
        #expect(plain.transitions.isEmpty)
    }

    @Test("a sample before began, a second began and a sample after ended are refused")
    func phaseOrder() throws {
        let (scene, _, _, _) = try Self.stack()
        do { _ = try scene.edgePan(nil, Self.pan(.changed, x: 10)) } catch { #expect(error.code == .invalidState) }
        let t = try scene.edgePan(nil, Self.pan(.began, x: 0))
        do { _ = try scene.edgePan(nil, Self.pan(.began, x: 0)) } catch { #expect(error.code == .invalidState) }
        _ = try scene.edgePan(nil, Self.pan(.ended, x: 200))
        do {
            _ = try scene.edgePan(nil, Self.pan(.changed, x: 10))
            Issue.record("a sample after ended drove the pop")
        } catch { #expect(error.code == .invalidParams && error.param == "phase") }
        #expect(t.state == .finishing)
    }

    @Test("the frontmost navigation controller: a presented one over the root's, the selected tab's")
    func frontmost() throws {
        let scene = Scene(id: "front", size: Size(w: 320, h: 480), clock: .manual)
        let a = try scene.createViewController(id: "a", title: nil, color: nil)
        let b = try scene.createViewController(id: "b", title: nil, color: nil)
        let n1 = try scene.createContainer(id: "n1", kind: .navigation, items: [a])
        let n2 = try scene.createContainer(id: "n2", kind: .navigation, items: [b])
        let tabs = try scene.createContainer(id: "tabs", kind: .tab, items: [n1, n2])
        try scene.setRoot(tabs)
        #expect(scene.frontmostNavigation() === n1, "the selected tab's stack; the other tab is off screen")
        let c = try scene.createViewController(id: "c", title: nil, color: nil)
        let d = try scene.createViewController(id: "d", title: nil, color: nil)
        let n3 = try scene.createContainer(id: "n3", kind: .navigation, items: [c])
        _ = try scene.present(n3, from: tabs, style: .overFullScreen, animated: false)
        #expect(scene.frontmostNavigation() === n3, "the presented stack is drawn over the root's")
        _ = try scene.push(n3, d, animated: false)
        let t = try scene.edgePan(nil, Self.pan(.began, x: 0))
        #expect(t.container === n3)
        scene.set(n3.view, hidden: true)
        #expect(scene.frontmostNavigation() === n1, "a hidden view takes no touches")
    }
}
