import Testing

@testable import SegueKit

/// JournalStack.record: a view's first touch in an animator call while recorders are open (every transition start:
/// its cancel baseline and deferred first sample) makes one state, kept by the recorders and by every open journal.
@Suite("Journal records")
struct JournalRecordTests {
    func scene() throws -> (Scene, View) {
        let scene = Scene(id: "j", size: Size(w: 320, h: 480), clock: .manual)
        let view = try scene.makeView(frame: Rect(x: 0, y: 0, w: 10, h: 10))
        scene.set(view, alpha: 0.75)
        return (scene, view)
    }

    @Test("a first touch with a recorder and a journal open: both keep the view from before it, once")
    func oneStateForJournalAndRecorder() throws {
        let (scene, view) = try scene()
        let epoch = scene.journals.openRecorder()
        let journal = scene.openJournal()
        let kept = scene.journals.keptStates
        scene.set(view, alpha: 0.25)
        scene.set(view, frame: Rect(x: 5, y: 5, w: 20, h: 20))  // a second touch records nothing more
        #expect(scene.journals.keptStates == kept + 1)
        #expect(journal.views.count == 1)
        let recorded = try #require(scene.journals.recorded(view, since: epoch))
        #expect(recorded.state.model.alpha == 0.75 && recorded.state.presentation.alpha == 0.75)
        #expect(recorded.state.model.frame == Rect(x: 0, y: 0, w: 10, h: 10))
        #expect(journal.views[0].model == recorded.state.model)
        #expect(journal.views[0].presentation == recorded.state.presentation)
        scene.restore(journal)
        #expect(view.model.alpha == 0.75 && view.presentation.alpha == 0.75)
        #expect(view.model.frame == Rect(x: 0, y: 0, w: 10, h: 10))
        // What the recorder kept changes with neither the restore nor a later write.
        scene.set(view, alpha: 0.5)
        #expect(try #require(scene.journals.recorded(view, since: epoch)).state.model.alpha == 0.75)
        scene.journals.closeRecorder(epoch)
        #expect(scene.journals.openRecorders == 0 && scene.journals.keptViews == 0)
    }

    @Test("nested journals and a recorder: each journal and the recorder keep the view from before its first touch")
    func nestedJournals() throws {
        let (scene, view) = try scene()
        let epoch = scene.journals.openRecorder()
        let outer = scene.openJournal()
        let inner = scene.openJournal()
        scene.set(view, alpha: 0.25)
        #expect(outer.views.count == 1 && inner.views.count == 1)
        #expect(outer.views[0].model.alpha == 0.75 && inner.views[0].model.alpha == 0.75)
        #expect(outer.views[0].presentation.alpha == 0.75 && inner.views[0].presentation.alpha == 0.75)
        #expect(try #require(scene.journals.recorded(view, since: epoch)).state.model.alpha == 0.75)
        scene.restore(inner)
        #expect(view.model.alpha == 0.75)
        scene.set(view, alpha: 0.1)
        scene.restore(outer)
        #expect(view.model.alpha == 0.75 && view.presentation.alpha == 0.75)
        #expect(try #require(scene.journals.recorded(view, since: epoch)).state.model.alpha == 0.75)
        scene.journals.closeRecorder(epoch)
    }

    @Test("a recorder without a journal: the view is kept once, before its first change")
    func recorderOnly() throws {
        let (scene, view) = try scene()
        let epoch = scene.journals.openRecorder()
        let kept = scene.journals.keptStates
        scene.set(view, alpha: 0.25)
        scene.set(view, alpha: 0.5)
        #expect(scene.journals.keptStates == kept + 1)
        #expect(try #require(scene.journals.recorded(view, since: epoch)).state.model.alpha == 0.75)
        scene.journals.closeRecorder(epoch)
    }
}
