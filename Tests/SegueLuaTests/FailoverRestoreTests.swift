import SegueKit
import Testing

@testable import SegueLua

/// A failed animator call is undone (`Scene.restore`): the views it made go, the views it moved go back.
@Suite("Undoing a failed animator call")
struct FailoverRestoreTests {
    @Test("a view of the scene moved under a view the failed call made survives the undo, back where it was")
    func movedViewSurvives() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "mover.lua": """
                return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                  local holder = segue.view{ frame = segue.rect(0, 0, 10, 10) }
                  ctx.container:add(holder)
                  holder:add(ctx:view('to'))
                  error('after moving')
                end }
                """,
        ])
        #expect(recorder.host?.records.map(\.status) == ["loaded"], "\(String(describing: recorder.host?.records))")
        let transition = try #require(try scene.select(container, index: 1, animator: "mover").transition)
        #expect(transition.failedOver)
        scene.advance(by: 1_100_000_000)
        #expect(transition.state == .completed)
        #expect(b.view.isAlive)
        #expect(b.view.superview === container.view)
    }

    @Test("a failed call that made the scene's limit of views is undone in one pass: every view goes")
    func manyViewsUndone() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "many.lua": """
                return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                  while true do ctx.container:add(segue.view{ frame = segue.rect(0, 0, 10, 10) }) end
                end }
                """,
        ])
        let before = scene.views
        #expect(recorder.host?.records.map(\.status) == ["loaded"], "\(String(describing: recorder.host?.records))")
        let transition = try #require(try scene.select(container, index: 1, animator: "many").transition)
        #expect(transition.failedOver)
        #expect(transition.problems.first?.message.contains("max_views_per_scene") == true)
        #expect(scene.views == before)
        scene.advance(by: 1_100_000_000)
        #expect(transition.state == .completed)
    }
}
