import Testing

@testable import SegueKit

/// Subview lists are journaled by their changes (JournalStack.ListEdit, issue 24): a view's recorded state holds no
/// copy of its list, a failed call's journal undoes the list changes by replaying their inverses, and a recorder (a
/// cancel baseline, a deferred first sample) reads a list as it was when it opened by applying them backwards.
/// These check that every order of changes comes back exactly.
@Suite("Subview lists journaled by their changes")
struct ListEditTests {
    /// A scene with a root view `r` holding `count` views, a few of them with two subviews of their own.
    func scene(_ count: Int = 12) throws -> (Scene, View, [View]) {
        let (scene, _, _, _) = try makeScene(recorder: EventRecorder())
        let root = try scene.makeView(id: "r", frame: Rect(x: 0, y: 0, w: 100, h: 100))
        scene.addSubview(root, to: scene.window)
        var views: [View] = []
        for i in 0..<count {
            let v = try scene.makeView(id: "v\(i)", frame: Rect(x: Double(i), y: 0, w: 5, h: 5))
            scene.addSubview(v, to: i % 4 == 3 ? views[i - 1] : root)
            views.append(v)
        }
        return (scene, root, views)
    }

    /// The shape of the scene's tree: every view with its superview and subviews, by id.
    func shape(_ scene: Scene) -> [String] {
        scene.tree.viewsBySerial.values.sorted { $0.serial < $1.serial }.map { view in
            "\(view.id) in \(view.superview?.id ?? "-") subviews \(view.subviews.map(\.id)) mask \(view.mask?.id ?? "-")"
        }
    }

    /// Each change a call can make to subview lists, by name.
    func changes(_ scene: Scene, _ root: View, _ views: [View]) -> [(String, () throws -> Void)] {
        [
            ("add new", { scene.addSubview(try scene.makeView(id: "n\(scene.tree.nextViewSerial)", frame: Rect(x: 0, y: 0, w: 1, h: 1)), to: root) }),
            ("remove", { scene.removeFromSuperview(views[1]) }),
            ("insert at 0", { scene.insertSubview(views[4], into: root, at: 0) }),
            ("move under another", { scene.addSubview(views[5], to: views[2]) }),
            ("bring to front", { scene.bringToFront(views[0]) }),
            // A journal does not bring a destroyed view of before back (it never did): destroyed here is a view made
            // in the call, with a subview, after it went into the tree.
            ("make and destroy", {
                let made = try scene.makeView(id: "m\(scene.tree.nextViewSerial)", frame: Rect(x: 0, y: 0, w: 1, h: 1))
                scene.insertSubview(made, into: root, at: 2)
                scene.addSubview(try scene.makeView(id: "m\(scene.tree.nextViewSerial)", frame: Rect(x: 0, y: 0, w: 1, h: 1)), to: made)
                scene.addSubview(views[6], to: made)
                scene.addSubview(views[6], to: root)
                scene.destroyView(made)
            }),
        ]
    }

    /// All orders of `items`.
    func permutations<T>(_ items: [T]) -> [[T]] {
        guard items.count > 1 else { return [items] }
        return items.indices.flatMap { i -> [[T]] in
            var rest = items
            let first = rest.remove(at: i)
            return permutations(rest).map { [first] + $0 }
        }
    }

    @Test("a journal's restore puts the subview lists back after list changes in every order")
    func undoInEveryOrder() throws {
        let (s0, r0, v0) = try scene()
        let names = changes(s0, r0, v0).map(\.0)
        // Four of the changes in every order (24 each), and all six in a few orders.
        var orders = permutations(Array(0..<4)) + permutations([2, 3, 4, 5]).prefix(8).map { $0 }
        orders.append(Array(0..<6))
        orders.append(Array((0..<6).reversed()))
        for order in orders {
            let (scene, root, views) = try scene()
            let before = shape(scene)
            let journal = scene.openJournal()
            let all = changes(scene, root, views)
            for i in order { try all[i].1() }
            #expect(shape(scene) != before, "\(order.map { names[$0] })")
            scene.restore(journal)
            #expect(shape(scene) == before, "\(order.map { names[$0] })")
        }
    }

    @Test("nested journals: the inner one undone, then the outer one, or the inner kept and the outer undone")
    func nestedJournals() throws {
        for keepInner in [false, true] {
            let (scene, root, views) = try scene()
            let all = changes(scene, root, views)
            let before = shape(scene)
            let outer = scene.openJournal()
            try all[1].1()
            try all[4].1()
            let middle = shape(scene)
            let inner = scene.openJournal()
            try all[0].1()
            try all[2].1()
            try all[5].1()
            if keepInner {
                scene.closeJournal(inner)
            } else {
                scene.restore(inner)
                #expect(shape(scene) == middle)
            }
            try all[3].1()
            scene.restore(outer)
            #expect(shape(scene) == before, "keepInner \(keepInner)")
        }
    }

    @Test("a recorder reads the lists of its start after list changes, through journals undone and kept")
    func recorderReadsListsOfItsStart() throws {
        let (scene, root, views) = try scene()
        let all = changes(scene, root, views)
        scene.step(frames: 1)
        let start = Timeline.walk(root, at: scene.now, expected: 4) { _, _ in false }
        let sample = DeferredSample(root: root, time: scene.now, journals: scene.journals)
        try all[1].1()
        let journal = scene.openJournal()
        try all[0].1()
        try all[3].1()
        scene.restore(journal)
        try all[2].1()
        try all[4].1()
        try all[5].1()
        let made = sample.sample()
        sample.close()
        #expect(made.structure.ids == start.structure.ids)
        #expect(made.structure.parents == start.structure.parents)
        #expect(made.channels == start.channels)
        #expect(scene.journals.openRecorders == 0)
    }

    @Test("the log holds nothing once nothing records, and only what open recorders need while they do")
    func logBounded() throws {
        let (scene, root, views) = try scene()
        let journal = scene.openJournal()
        scene.bringToFront(views[0])
        scene.closeJournal(journal)
        #expect(scene.journals.edits(since: 0).isEmpty)
        // A recorder open a long time while lists keep changing: the log keeps what it needs and no more than
        // that (the mark of the next edit moves on, the log's length is the edits since the recorder opened).
        let sample = DeferredSample(root: root, time: scene.now, journals: scene.journals)
        let mark = scene.journals.editMark
        for _ in 0..<500 { scene.bringToFront(views[0]); scene.bringToFront(views[1]) }
        #expect(scene.journals.edits(since: mark).count == 2000)
        let later = DeferredSample(root: root, time: scene.now, journals: scene.journals)
        sample.close()
        scene.bringToFront(views[2])
        #expect(scene.journals.edits(since: 0).count <= 2 + 64)
        later.close()
        #expect(scene.journals.edits(since: 0).isEmpty)
    }
}
