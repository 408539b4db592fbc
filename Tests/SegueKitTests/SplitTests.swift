import Testing

@testable import SegueKit

/// A manual scene of `size` with view controllers named by `ids`, and a split of them on screen as the root.
func makeSplit(_ ids: [String], size: Size = Size(w: 1024, h: 768), style: SplitStyle? = nil,
               mode: SplitDisplayMode = .automatic, recorder: EventRecorder) throws
    -> (Scene, ContainerViewController, SplitContainer, [String: ViewController])
{
    let scene = Scene(id: "test", size: size, clock: .manual)
    scene.sink = recorder
    var vcs: [String: ViewController] = [:]
    for id in ids + ["x"] { vcs[id] = try scene.createViewController(id: id, title: nil, color: nil) }
    let container = try scene.createContainer(
        id: "split", kind: .split, items: ids.compactMap { vcs[$0] },
        split: SplitConfiguration(style: style, displayMode: mode))
    try scene.setRoot(container)
    recorder.events.removeAll()
    return (scene, container, try #require(container.split), vcs)
}

@Suite("Split views: columns, display modes, collapse and expand (docs/PROTOCOL.md \"Split views\")")
struct SplitTests {
    @Test("a double-column split in a regular landscape scene resolves automatic to one_beside_secondary")
    func columnsSideBySide() throws {
        let recorder = EventRecorder()
        let (_, container, split, vc) = try makeSplit(["p", "s"], recorder: recorder)
        let p = try #require(vc["p"]), s = try #require(vc["s"])
        #expect(split.style == .doubleColumn)
        #expect(split.displayMode == .oneBesideSecondary)
        #expect(container.children.map(\.id) == ["p", "s"])
        #expect(container.view.subviews.map(\.id) == ["s.view", "p.view"])
        #expect(p.view.model.frame == Rect(x: 0, y: 0, w: 320, h: 768))
        #expect(s.view.model.frame == Rect(x: 320, y: 0, w: 704, h: 768))
        #expect(p.appearance == .appeared && s.appearance == .appeared)
    }

    @Test("triple column: the two_* modes place primary, supplementary and secondary")
    func tripleColumn() throws {
        let recorder = EventRecorder()
        let (scene, container, split, vc) = try makeSplit(["p", "m", "s"], mode: .twoBesideSecondary, recorder: recorder)
        #expect(split.style == .tripleColumn)
        #expect(vc["p"]?.view.model.frame == Rect(x: 0, y: 0, w: 320, h: 768))
        #expect(vc["m"]?.view.model.frame == Rect(x: 320, y: 0, w: 320, h: 768))
        #expect(vc["s"]?.view.model.frame == Rect(x: 640, y: 0, w: 384, h: 768))
        let t = try #require(try scene.showColumn(container, .primary, show: false).transition)
        #expect(t.kind == .displayMode && t.from.id == "p" && t.to.id == "s")
        scene.advance(by: 400_000_000)
        #expect(t.state == .completed)
        #expect(split.displayMode == .oneBesideSecondary)
        #expect(container.view.subviews.map(\.id) == ["s.view", "m.view"])
        #expect(vc["m"]?.view.model.frame == Rect(x: 0, y: 0, w: 320, h: 768))
        #expect(vc["s"]?.view.model.frame == Rect(x: 320, y: 0, w: 704, h: 768))
        #expect(vc["p"]?.appearance == .disappeared)
    }

    @Test("set_display_mode is a 0.35 s transition: the hidden column disappears, frames move, began/completed")
    func displayModeTransition() throws {
        let recorder = EventRecorder()
        let (scene, container, split, vc) = try makeSplit(["p", "s"], recorder: recorder)
        let t = try #require(try scene.setDisplayMode(container, .secondaryOnly).transition)
        #expect(t.animatorName == SplitAnimator.name && t.duration == 0.35)
        #expect(recorder.lifecycle == ["view_will_disappear p"])
        scene.advance(by: 200_000_000)
        #expect(t.state == .animating)
        scene.advance(by: 200_000_000)
        #expect(t.state == .completed)
        #expect(recorder.lifecycle == ["view_will_disappear p", "view_did_disappear p"])
        #expect(recorder.types(.transition) == ["transition.began", "transition.completed"])
        #expect(container.view.subviews.map(\.id) == ["s.view"])
        #expect(vc["s"]?.view.model.frame == Rect(x: 0, y: 0, w: 1024, h: 768))
        #expect(split.displayMode == .secondaryOnly)
        #expect(try scene.setDisplayMode(container, .secondaryOnly).transition == nil)
        let back = try #require(try scene.showColumn(container, .primary, show: true, animated: false).transition)
        #expect(back.state == .completed)
        #expect(vc["p"]?.appearance == .appeared)
        #expect(vc["p"]?.view.model.frame == Rect(x: 0, y: 0, w: 320, h: 768))
    }

    @Test("set_column replaces a column with a custom container's select order; a second request follows when_busy")
    func setColumn() throws {
        let recorder = EventRecorder()
        let (scene, container, split, vc) = try makeSplit(["p", "s"], recorder: recorder)
        let x = try #require(vc["x"])
        let t = try #require(try scene.setColumn(container, .secondary, to: x).transition)
        #expect(t.kind == .column)
        #expect(throws: EngineError.self) { try scene.setDisplayMode(container, .secondaryOnly) }
        scene.advance(by: 400_000_000)
        #expect(t.state == .completed)
        #expect(recorder.lifecycle == [
            "will_move_to_parent s(nil)", "will_move_to_parent x(split)", "view_will_disappear s",
            "view_will_appear x", "view_did_disappear s", "view_did_appear x", "did_move_to_parent s(nil)",
            "did_move_to_parent x(split)",
        ])
        #expect(split.secondary === x && container.children.map(\.id) == ["p", "x"])
        #expect(x.view.model.frame == Rect(x: 320, y: 0, w: 704, h: 768))
        #expect(x.view.presentation.alpha == 1 && vc["s"]?.view.superview == nil)
    }

    @Test("a cancelled display-mode change puts columns, frames and appearance back")
    func cancelled() throws {
        let recorder = EventRecorder()
        let (scene, container, split, vc) = try makeSplit(["p", "s"], recorder: recorder)
        let t = try #require(try scene.setDisplayMode(container, .secondaryOnly, interactive: .percent).transition)
        try scene.updateTransition(t, percent: 0.5)
        try scene.endInteraction(t, cancel: true)
        scene.advance(by: 1_000_000_000)
        #expect(t.state == .cancelled)
        #expect(split.displayMode == .oneBesideSecondary)
        #expect(container.view.subviews.map(\.id) == ["s.view", "p.view"])
        #expect(vc["p"]?.view.model.frame == Rect(x: 0, y: 0, w: 320, h: 768))
        #expect(vc["s"]?.view.model.frame == Rect(x: 320, y: 0, w: 704, h: 768))
        #expect(vc["p"]?.appearance == .appeared)
    }

    @Test("bad input: child count, supplementary on double, two_* on double, a vc with a parent, hiding the secondary")
    func badInput() throws {
        let recorder = EventRecorder()
        let (scene, container, _, vc) = try makeSplit(["p", "s"], recorder: recorder)
        let x = try #require(vc["x"])
        let p = try #require(vc["p"])
        func param(_ body: () throws -> Void) -> String? {
            do { try body() } catch let error as EngineError {
                return error.code == .invalidParams ? error.param : "?"
            } catch { return "?" }
            return nil
        }
        #expect(param { _ = try scene.createContainer(id: "t", kind: .split, items: [x],
                                                      split: SplitConfiguration(style: .doubleColumn)) } == "children")
        #expect(param { _ = try scene.createContainer(id: "t", kind: .split, items: [x],
                                                      split: SplitConfiguration(style: .tripleColumn)) } == "children")
        #expect(param { _ = try scene.setColumn(container, .supplementary, to: x) } == "column")
        #expect(param { _ = try scene.showColumn(container, .supplementary, show: true) } == "column")
        #expect(param { _ = try scene.setDisplayMode(container, .twoBesideSecondary) } == "display_mode")
        #expect(param { _ = try scene.setColumn(container, .secondary, to: p) } == "vc")
        #expect(param { _ = try scene.showColumn(container, .secondary, show: false) } == "column")
        #expect(scene.container("t") == nil)
    }

    @Test("a compact scene collapses the split into SPLITID.nav; resize to regular expands it")
    func collapseAndExpand() throws {
        let recorder = EventRecorder()
        let (scene, container, split, vc) = try makeSplit(["p", "s"], recorder: recorder)
        try scene.resize(to: Size(w: 390, h: 844))
        #expect(scene.traits == Traits(horizontal: .compact, vertical: .regular))
        let nav = try #require(scene.container("split.nav"))
        #expect(split.collapsedNavigation === nav && nav.containerKind == .navigation)
        #expect(nav.items.map(\.id) == ["p", "s"] && container.children.map(\.id) == ["nav"].map { "split." + $0 })
        #expect(container.view.subviews.map(\.id) == ["split.nav.view"])
        #expect(nav.view.subviews.map(\.id) == ["s.view"])
        #expect(vc["p"]?.appearance == .disappeared && vc["s"]?.appearance == .appeared && nav.appearance == .appeared)
        #expect(recorder.events.first?.type == "scene.traits_changed")
        // set_column secondary while collapsed pushes; a display mode is kept for the expand.
        let x = try #require(vc["x"])
        let push = try #require(try scene.setColumn(container, .secondary, to: x).transition)
        #expect(push.kind == .push && push.container === nav)
        scene.advance(by: 1_100_000_000)
        #expect(nav.items.map(\.id) == ["p", "s", "x"])
        #expect(try scene.setDisplayMode(container, .secondaryOnly).transition == nil)
        recorder.events.removeAll()
        try scene.resize(to: Size(w: 1024, h: 768))
        #expect(split.collapsedNavigation == nil && scene.container("split.nav") == nil)
        #expect(split.displayMode == .secondaryOnly)
        #expect(container.children.map(\.id) == ["p", "x"])
        #expect(container.view.subviews.map(\.id) == ["x.view"])
        #expect(x.view.model.frame == Rect(x: 0, y: 0, w: 1024, h: 768))
        #expect(vc["s"]?.parent == nil && x.appearance == .appeared)
        #expect(recorder.events.first?.type == "scene.traits_changed")
        #expect(recorder.lifecycle.contains("did_move_to_parent split.nav(nil)"))
    }

    @Test("created in a compact scene the split starts collapsed, like a navigation container of its columns")
    func createdCollapsed() throws {
        let recorder = EventRecorder()
        let (_, container, split, _) = try makeSplit(["p", "s"], size: Size(w: 390, h: 844), recorder: recorder)
        #expect(split.isCollapsed && container.visibleChildren.map(\.id) == ["split.nav"])
        #expect(split.collapsedNavigation?.visibleChildren.map(\.id) == ["s"])
    }
}

@Suite("Size classes (docs/PROTOCOL.md \"Size classes\")")
struct TraitTests {
    @Test("compact below 600 pt wide and 500 pt high, overridable per axis")
    func rule() {
        #expect(Traits.of(Size(w: 599, h: 499)) == Traits(horizontal: .compact, vertical: .compact))
        #expect(Traits.of(Size(w: 600, h: 500)) == Traits(horizontal: .regular, vertical: .regular))
        #expect(Traits.of(Size(w: 1024, h: 768), override: TraitOverride(horizontal: .compact))
            == Traits(horizontal: .compact, vertical: .regular))
    }

    @Test("a resize that changes a size class reports scene.traits_changed, one that does not stays silent")
    func reported() throws {
        let recorder = EventRecorder()
        let scene = Scene(id: "t", size: Size(w: 320, h: 480), clock: .manual,
                          traits: TraitOverride(vertical: .regular))
        scene.sink = recorder
        #expect(scene.traits == Traits(horizontal: .compact, vertical: .regular))
        try scene.resize(to: Size(w: 330, h: 480), traits: TraitOverride(vertical: .regular))
        #expect(recorder.events.isEmpty)
        try scene.resize(to: Size(w: 330, h: 480))
        #expect(recorder.events.map(\.type) == ["scene.traits_changed"])
        guard case .traitsChanged(let now, let previous)? = recorder.events.first?.payload else {
            Issue.record("not a traits event")
            return
        }
        #expect(now.vertical == .compact && previous.vertical == .regular)
        #expect(recorder.events.first?.category == .scene)
    }
}
