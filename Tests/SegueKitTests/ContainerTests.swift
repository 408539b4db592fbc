import SegueJSON
import Testing

@testable import SegueKit

/// A manual 320×480 scene with view controllers named by `ids` (not in any container yet).
func makeVCs(_ ids: [String], recorder: EventRecorder) throws -> (Scene, [String: ViewController]) {
    let scene = Scene(id: "test", size: Size(w: 320, h: 480), clock: .manual)
    scene.sink = recorder
    var vcs: [String: ViewController] = [:]
    for id in ids { vcs[id] = try scene.createViewController(id: id, title: id.uppercased(), color: nil) }
    return (scene, vcs)
}

@Suite("Containers: docs/DESIGN.md §3's lifecycle order for every kind")
struct ContainerTests {
    @Test("tab select A→B: the children stay children, only appearance calls")
    func tabSelect() throws {
        let recorder = EventRecorder()
        let (scene, vc) = try makeVCs(["a", "b"], recorder: recorder)
        let a = try #require(vc["a"]), b = try #require(vc["b"])
        let tab = try scene.createContainer(id: "tab", kind: .tab, items: [a, b])
        #expect(recorder.lifecycle == [
            "will_move_to_parent a(tab)", "will_move_to_parent b(tab)", "did_move_to_parent a(tab)",
            "did_move_to_parent b(tab)",
        ])
        try scene.setRoot(tab)
        recorder.events.removeAll()
        let t = try #require(try scene.select(tab, index: 1).transition)
        #expect(recorder.lifecycle == ["view_will_disappear a", "view_will_appear b"])
        scene.advance(by: 1_100_000_000)
        #expect(t.state == .completed)
        #expect(recorder.lifecycle == [
            "view_will_disappear a", "view_will_appear b", "view_did_disappear a", "view_did_appear b",
        ])
        #expect(tab.children.map(\.id) == ["a", "b"])
        #expect(tab.view.subviews.map(\.id) == ["b.view"])
        #expect(a.parent === tab && b.parent === tab)
        #expect(tab.selectedIndex == 1)
        #expect(a.appearance == .disappeared && b.appearance == .appeared)
    }

    @Test("push A→B and pop B→A follow docs/DESIGN.md §3 exactly")
    func pushAndPop() throws {
        let recorder = EventRecorder()
        let (scene, vc) = try makeVCs(["a", "b"], recorder: recorder)
        let a = try #require(vc["a"]), b = try #require(vc["b"])
        let nav = try scene.createContainer(id: "nav", kind: .navigation, items: [a])
        try scene.setRoot(nav)
        recorder.events.removeAll()

        let push = try #require(try scene.push(nav, b).transition)
        #expect(push.kind == .push && push.direction == .forward)
        #expect(nav.items.map(\.id) == ["a", "b"])
        scene.advance(by: 1_100_000_000)
        #expect(recorder.lifecycle == [
            "will_move_to_parent b(nav)", "view_will_disappear a", "view_will_appear b",
            "view_did_disappear a", "view_did_appear b", "did_move_to_parent b(nav)",
        ])
        #expect(nav.view.subviews.map(\.id) == ["b.view"])
        #expect(nav.children.map(\.id) == ["a", "b"])
        #expect(b.view.model.frame == Rect(x: 0, y: 0, w: 320, h: 480))

        recorder.events.removeAll()
        let pop = try #require(try scene.pop(nav).transition)
        #expect(pop.kind == .pop && pop.direction == .backward)
        scene.advance(by: 1_100_000_000)
        #expect(recorder.lifecycle == [
            "will_move_to_parent b(nil)", "view_will_disappear b", "view_will_appear a",
            "view_did_disappear b", "view_did_appear a", "did_move_to_parent b(nil)",
        ])
        #expect(nav.items.map(\.id) == ["a"])
        #expect(nav.children.map(\.id) == ["a"])
        #expect(b.parent == nil && a.appearance == .appeared && b.appearance == .disappeared)
        #expect(nav.view.subviews.map(\.id) == ["a.view"])
        // Popping the root alone is not allowed.
        let error = #expect(throws: EngineError.self) { try scene.pop(nav) }
        #expect(error?.code == .invalidState)
    }

    @Test("UIKit's navigation frames: the from-view's final and the to-view's initial frame are unknown (zero)")
    func navigationFrames() throws {
        let recorder = EventRecorder()
        let (scene, vc) = try makeVCs(["a", "b"], recorder: recorder)
        let a = try #require(vc["a"]), b = try #require(vc["b"])
        let nav = try scene.createContainer(id: "nav", kind: .navigation, items: [a])
        try scene.setRoot(nav)
        let ctx = try #require(try scene.push(nav, b).transition?.context)
        #expect(ctx.initialFrame(for: a) == Rect(x: 0, y: 0, w: 320, h: 480))
        #expect(ctx.finalFrame(for: a) == .zero)
        #expect(ctx.initialFrame(for: b) == .zero)
        #expect(ctx.finalFrame(for: b) == Rect(x: 0, y: 0, w: 320, h: 480))
        #expect(ctx.fromIndex == 0 && ctx.toIndex == 1)
    }

    @Test("pop_to_root removes every view controller above the root; the in-between ones get no appearance calls")
    func popToRoot() throws {
        let recorder = EventRecorder()
        let (scene, vc) = try makeVCs(["a", "b", "c"], recorder: recorder)
        let nav = try scene.createContainer(
            id: "nav", kind: .navigation, items: [try #require(vc["a"]), try #require(vc["b"]), try #require(vc["c"])])
        try scene.setRoot(nav)
        #expect(nav.view.subviews.map(\.id) == ["c.view"])
        recorder.events.removeAll()
        let t = try #require(try scene.pop(nav, toRoot: true).transition)
        #expect(t.from.id == "c" && t.to.id == "a")
        scene.advance(by: 1_100_000_000)
        #expect(recorder.lifecycle == [
            "will_move_to_parent c(nil)", "will_move_to_parent b(nil)", "view_will_disappear c", "view_will_appear a",
            "view_did_disappear c", "view_did_appear a", "did_move_to_parent c(nil)", "did_move_to_parent b(nil)",
        ])
        #expect(nav.items.map(\.id) == ["a"] && nav.children.map(\.id) == ["a"])
    }

    @Test("nav.set replaces the stack: forward when the new top is new, containment for everything that moved")
    func setStack() throws {
        let recorder = EventRecorder()
        let (scene, vc) = try makeVCs(["a", "b", "d"], recorder: recorder)
        let a = try #require(vc["a"]), b = try #require(vc["b"]), d = try #require(vc["d"])
        let nav = try scene.createContainer(id: "nav", kind: .navigation, items: [a, b])
        try scene.setRoot(nav)
        recorder.events.removeAll()
        let t = try #require(try scene.setStack(nav, [a, d]).transition)
        #expect(t.kind == .set && t.direction == .forward)
        scene.advance(by: 1_100_000_000)
        #expect(recorder.lifecycle == [
            "will_move_to_parent b(nil)", "will_move_to_parent d(nav)", "view_will_disappear b", "view_will_appear d",
            "view_did_disappear b", "view_did_appear d", "did_move_to_parent b(nil)", "did_move_to_parent d(nav)",
        ])
        #expect(nav.items.map(\.id) == ["a", "d"])
        #expect(Set(nav.children.map(\.id)) == ["a", "d"])
        // Back to [a]: the top was on the stack, so it is backward (pop-like).
        let back = try #require(try scene.setStack(nav, [a]).transition)
        #expect(back.direction == .backward)
        scene.advance(by: 1_100_000_000)
        #expect(nav.items.map(\.id) == ["a"] && nav.view.subviews.map(\.id) == ["a.view"])
        // Same top, different stack below: containment only.
        recorder.events.removeAll()
        #expect(try scene.setStack(nav, [b, a]).transition == nil)
        #expect(recorder.lifecycle == ["will_move_to_parent b(nav)", "did_move_to_parent b(nav)"])
    }

    @Test("paging select follows the custom order; the page's view controller is made from the template")
    func pagingSelect() throws {
        let recorder = EventRecorder()
        let (scene, _) = try makeVCs([], recorder: recorder)
        let pages = try scene.createContainer(
            id: "pages", kind: .paging, items: [], pageCount: 10, reuse: 3,
            template: PageTemplate(titlePrefix: "News ", colors: [Color.white]))
        try scene.setRoot(pages)
        let first = try #require(pages.selected)
        #expect(first.title == "News 0")
        recorder.events.removeAll()
        let t = try #require(try scene.select(pages, index: 4).transition)
        #expect(t.fromIndex == 0 && t.toIndex == 4)
        let second = t.to
        scene.advance(by: 1_100_000_000)
        #expect(recorder.lifecycle == [
            "will_move_to_parent \(first.id)(nil)", "will_move_to_parent \(second.id)(pages)",
            "view_will_disappear \(first.id)", "view_will_appear \(second.id)",
            "view_did_disappear \(first.id)", "view_did_appear \(second.id)",
            "did_move_to_parent \(first.id)(nil)", "did_move_to_parent \(second.id)(pages)",
        ])
        #expect(second.title == "News 4" && pages.selectedIndex == 4)
        #expect(pages.children.map(\.id) == [second.id])
    }

    @Test("paging reuse: 100 pages with reuse 3 never keep more than 3 view controllers, each page shows its title")
    func pagingReuse() throws {
        let recorder = EventRecorder()
        let (scene, _) = try makeVCs([], recorder: recorder)
        let colors = ["#ff0000", "#00ff00", "#0000ff", "#ffff00"].compactMap { Color(hex: $0) }
        let pages = try scene.createContainer(
            id: "pages", kind: .paging, items: [], pageCount: 100, reuse: 3,
            template: PageTemplate(titlePrefix: "Page ", colors: colors))
        try scene.setRoot(pages)
        var identities = Set<String>()
        for page in Array(1..<100) + [0, 57, 3] {
            _ = try scene.select(pages, index: page, animator: nil)
            scene.advance(by: 1_100_000_000)
            let shown = try #require(pages.selected)
            #expect(shown.title == "Page \(page)")
            #expect(shown.view.model.color == colors[page % colors.count])
            #expect(pages.paging?.pageOf[shown.id] == page)
            #expect((pages.paging?.alive.count ?? 0) <= 3)
            #expect(pages.children.count == 1)
            identities.insert(shown.id)
        }
        #expect(identities.count == 3)
        #expect(scene.allViewControllers.count == 4)  // the container and its three page view controllers
    }

    @Test("nested containers forward appearance to the visible children: a tab holding a navigation stack")
    func nestedForwarding() throws {
        let recorder = EventRecorder()
        let (scene, vc) = try makeVCs(["a", "x"], recorder: recorder)
        let nav = try scene.createContainer(id: "nav", kind: .navigation, items: [try #require(vc["a"])])
        let tab = try scene.createContainer(id: "tab", kind: .tab, items: [nav, try #require(vc["x"])])
        try scene.setRoot(tab)
        #expect(nav.appearance == .appeared && vc["a"]?.appearance == .appeared)
        recorder.events.removeAll()
        _ = try scene.select(tab, index: 1)
        scene.advance(by: 1_100_000_000)
        #expect(recorder.lifecycle == [
            "view_will_disappear nav", "view_will_disappear a", "view_will_appear x",
            "view_did_disappear nav", "view_did_disappear a", "view_did_appear x",
        ])
    }

    @Test("when_busy queue runs the request after the running transition; interrupt jumps it to its end")
    func whenBusy() throws {
        let recorder = EventRecorder()
        let (scene, container, _, _) = try makeScene(recorder: recorder)
        let first = try #require(try scene.select(container, index: 1).transition)
        let queued = try scene.select(container, index: 0, whenBusy: .queue)
        let queuedID = try #require(queued.queuedID)
        #expect(queued.transition == nil)
        #expect(scene.transitionState(queuedID) == .queued)
        #expect(container.queue.count == 1)
        scene.advance(by: 1_000_000_000)
        #expect(first.state == .completed)
        let second = try #require(scene.transition(queuedID))
        #expect(second.state == .animating && second.toIndex == 0)
        // interrupt: the running one ends at once (completed), then the new one starts.
        let third = try #require(try scene.select(container, index: 1, whenBusy: .interrupt).transition)
        #expect(second.state == .completed && container.activeTransition === third)
        #expect(recorder.types(.transition).filter { $0 == "transition.completed" }.count == 2)
        // A queued request with nothing left to do ends at once, reported as skipped.
        let noop = try #require(try scene.select(container, index: 1, whenBusy: .queue).queuedID)
        scene.advance(by: 1_100_000_000)
        #expect(scene.transitionState(noop) == .completed)
        let last = try #require(recorder.events.last { $0.type == "transition.completed" })
        #expect(last.payload.transition == noop && last.payload.completion?.skipped == true)
    }

    @Test("animator resolution: explicit → the view controller's own → rules (first match) → default")
    func resolutionOrder() throws {
        let recorder = EventRecorder()
        let (scene, container, a, b) = try makeScene(recorder: recorder)
        let provider = scene.use(["never": { NeverCompletes() }, "twice": { CompletesTwice() }])
        defer { withExtendedLifetime(provider) {} }
        scene.setDelegate(of: container, plugin: nil, rules: [
            TransitionRule(direction: .backward, animator: "twice"),
            TransitionRule(animator: "never"),
        ])
        // Forward: the first rule does not match, the second does.
        let t1 = try #require(try scene.select(container, index: 1).transition)
        #expect(t1.animatorName == "never")
        scene.finishNow(t1)
        // Backward: the first rule matches.
        let t2 = try #require(try scene.select(container, index: 0).transition)
        #expect(t2.animatorName == "twice")
        // The to-view controller's own animator beats the rules.
        b.preferredAnimators = ["select": "default-slide"]
        let t3 = try #require(try scene.select(container, index: 1).transition)
        #expect(t3.animatorName == "default-slide")
        scene.finishNow(t3)
        // An explicit animator beats everything.
        a.preferredAnimators = ["select": "never"]
        let t4 = try #require(try scene.select(container, index: 0, animator: "twice").transition)
        #expect(t4.animatorName == "twice")
        // A preferred animator that is not loaded is reported and the next source decides.
        b.preferredAnimators = ["select": "gone"]
        let t5 = try #require(try scene.select(container, index: 1).transition)
        #expect(t5.animatorName == "never")
        #expect(recorder.events.contains { $0.type == "plugin.warning" && $0.payload.pluginName == "gone" })
    }

    @Test("scene.resize lays the root and the containers' children out at the new size")
    func resize() throws {
        let recorder = EventRecorder()
        let (scene, container, a, _) = try makeScene(recorder: recorder)
        try scene.resize(to: Size(w: 768, h: 1024))
        #expect(scene.window.model.frame == Rect(x: 0, y: 0, w: 768, h: 1024))
        #expect(container.view.model.frame == Rect(x: 0, y: 0, w: 768, h: 1024))
        #expect(a.view.model.frame == Rect(x: 0, y: 0, w: 768, h: 1024))
    }
}
