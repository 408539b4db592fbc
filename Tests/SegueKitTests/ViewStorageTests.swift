import Testing

@testable import SegueKit

/// A view owns its presentation channels (`View.presentationChannels`): the frame loop's records keep addresses
/// into them from an animation's start to its end, and every reader that keeps the values — a journal, a copy of
/// `presentation` — holds its own copy, taken when it records, which no later write reaches.
@Suite("View storage: the view owns its presentation channels; readers copy when they record")
struct ViewStorageTests {
    static func scene() throws -> (Scene, View) {
        let scene = Scene(id: "storage", size: Size(w: 320, h: 480), clock: .manual, fps: 60)
        let view = try scene.makeView(id: "v", frame: Rect(x: 0, y: 0, w: 100, h: 100))
        scene.addSubview(view, to: scene.window)
        return (scene, view)
    }

    @Test("each running track writes through an address in its own view's storage")
    func tracksPointIntoTheView() throws {
        let (scene, view) = try Self.scene()
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(view, alpha: 0)
            scene.set(view, transform: .translation(40, 0))
            scene.set(view, center: Point(x: 10, y: 20))
        }
        let tracks = scene.clock.running.tracks
        #expect(tracks.count == 3)
        for track in tracks {
            let property = track.animation.property
            #expect(track.channels == view.presentationChannels + property.offset, "\(property)")
        }
        _ = scene.step(frames: 30)
        #expect(view.presentation.alpha > 0 && view.presentation.alpha < 1)
        #expect(view.presentationValues(of: .alpha) == [view.presentation.alpha])
    }

    @Test("a copy of the presentation values taken before a frame keeps them: the loop's write reaches the view only")
    func copiesKeepTheirValues() throws {
        let (scene, view) = try Self.scene()
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) { scene.set(view, alpha: 0) }
        _ = scene.step(frames: 10)
        let before = view.presentation
        let alpha = before.alpha
        _ = scene.step(frames: 10)
        #expect(before.alpha == alpha)
        #expect(view.presentation.alpha < alpha)
        #expect(before != view.presentation)
    }

    @Test("a journal's record of a view is the values when it recorded them, and a restore puts exactly those back")
    func journalsRecordACopy() throws {
        let (scene, view) = try Self.scene()
        scene.animate(AnimationOptions(duration: 1, timing: .curve(.linear))) {
            scene.set(view, alpha: 0)
            scene.set(view, transform: .translation(80, 0))
        }
        _ = scene.step(frames: 12)
        let journal = scene.openJournal()
        scene.touch(view)
        let recorded = view.presentation
        // Frames after the record write the same storage the journal's copy came from.
        _ = scene.step(frames: 12)
        let state = try #require(journal.views.first { $0.view === view })
        #expect(state.presentation == recorded)
        #expect(view.presentation.alpha < recorded.alpha)
        scene.restore(journal)
        #expect(view.presentation == recorded)
        #expect(view.presentationBuffer.elementsEqual(recorded.channels))
    }

    @Test("setting the presentation copies the values in; setting a part writes the storage in place")
    func settersCopyIn() throws {
        let (_, view) = try Self.scene()
        var values = view.presentation
        values.alpha = 0.25
        values.cornerRadius = 7
        view.presentation = values
        values.alpha = 0.75
        #expect(view.presentation.alpha == 0.25)
        #expect(view.presentation.cornerRadius == 7)
        view.setPresentation(.center, [3, 4])
        #expect(view.presentationChannels[ViewProperty.center.offset] == 3)
        #expect(view.presentation.center == Point(x: 3, y: 4))
        #expect(view.presentationValues(of: .colors).isEmpty)
    }
}

/// The changed-view list does not retain its entries: a view destroyed in the tick that listed it is held by the
/// tree until the list is emptied, then let go.
@Suite("Changed views: entries not retained, discarded views held until the list is emptied")
struct ChangedViewsTests {
    @Test("a view changed and destroyed before the frame is packed stays readable until then, and is freed after")
    func discardedViewKept() throws {
        let scene = Scene(id: "changed", size: Size(w: 320, h: 480), clock: .manual, fps: 60)
        weak var gone: View?
        do {
            let view = try scene.makeView(id: "doomed", frame: Rect(x: 0, y: 0, w: 10, h: 10))
            scene.addSubview(view, to: scene.window)
            _ = scene.step(frames: 1)
            scene.set(view, alpha: 0.5)
            #expect(scene.tree.dirtyViews.map(\.id) == ["doomed"])
            scene.destroyView(view)
            gone = view
        }
        // Only the tree's hold keeps it: the list itself did not retain it.
        #expect(gone != nil)
        #expect(scene.tree.dirtyViews.count == 1)
        #expect(scene.tree.dropChanges() == false)
        #expect(scene.tree.dirtyViews.isEmpty)
        #expect(gone == nil)
    }

    @Test("the list grows past its first room and keeps the order views changed in")
    func growsInOrder() throws {
        let scene = Scene(id: "changed", size: Size(w: 320, h: 480), clock: .manual, fps: 60)
        var views: [View] = []
        for i in 0..<40 {
            let view = try scene.makeView(id: "v\(i)", frame: Rect(x: 0, y: 0, w: 10, h: 10))
            scene.addSubview(view, to: scene.window)
            views.append(view)
        }
        _ = scene.step(frames: 1)
        for view in views.reversed() { scene.set(view, alpha: 0.5) }
        #expect(scene.tree.dirtyViews.map(\.id) == views.reversed().map(\.id))
        var frame = FrameViews()
        scene.tree.takeChanges(into: &frame)
        #expect(scene.tree.dirtyViews.isEmpty)
        #expect(frame.ids == views.map(\.id))
    }
}
