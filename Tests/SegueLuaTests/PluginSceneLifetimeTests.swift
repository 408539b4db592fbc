import Foundation
import SegueKit
import Testing

@testable import SegueLua

/// A plugin state reaches its scene through the scene's anchor, not a `weak` reference (see `Anchor`): once
/// the scene is gone the state must see no scene, however it outlived it (a transition, a closure, a reload).
@Suite("A plugin state outliving its scene")
struct PluginSceneLifetimeTests {
    @Test("a plugin state held after its scene is destroyed mid-transition has no scene")
    func stateOutlivesSceneMidTransition() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let recorder = Recorder()
        recorder.host = host
        var held: (PluginInstance, Transition)?
        weak var gone: Scene?
        do {
            let (scene, container, _, _) = try makeScene(host: host, recorder: recorder)
            let t = try #require(try scene.select(container, index: 1, animator: "a").transition)
            scene.advance(by: 100_000_000)  // mid-transition
            // The state the transition runs on (a plugin named again finds the same state).
            let instance = try #require((try host.animator(named: "a", for: scene) as? LuaAnimator)?.instance)
            #expect(instance.scene === scene)
            #expect(run(instance, "return segue.now()").value == "0.1")
            // What the daemon's scene.destroy does.
            scene.finishAllTransitions()
            host.forget(scene: scene)
            held = (instance, t)
            gone = scene
        }
        #expect(gone == nil)
        let (instance, t) = try #require(held)
        #expect(t.state == .completed)
        #expect(instance.scene == nil)
        #expect(run(instance, "return segue.now()").value == "0")
        #expect(run(instance, "segue.after(1, function() end)").errorMessage?.contains("no scene") == true)
    }

    @Test("a plugin reloaded mid-transition, then its scene destroyed: the old and the new state have no scene")
    func reloadMidTransitionThenDestroy() throws {
        let dir = try makePluginFolder(["a.lua": versioned(0.5)])
        let host = PluginHost(directory: dir)
        host.loadAll()
        let recorder = Recorder()
        recorder.host = host
        var held: (PluginInstance, PluginInstance)?
        weak var gone: Scene?
        do {
            let (scene, container, _, b) = try makeScene(host: host, recorder: recorder)
            let t = try #require(try scene.select(container, index: 1, animator: "a").transition)
            scene.advance(by: 100_000_000)
            let old = try #require((try host.animator(named: "a", for: scene) as? LuaAnimator)?.instance)
            try versioned(0.75).write(toFile: dir + "/a.lua", atomically: true, encoding: .utf8)
            #expect(host.fileChanged(dir + "/a.lua").map(\.type) == ["plugin.loaded"])
            let new = try #require((try host.animator(named: "a", for: scene) as? LuaAnimator)?.instance)
            #expect(new !== old && new.scene === scene && old.scene === scene)
            scene.advance(by: 100_000_000)  // the running transition ends on the old state
            #expect(t.state == .completed && b.view.model.alpha == 0.5)
            scene.finishAllTransitions()
            host.forget(scene: scene)
            held = (old, new)
            gone = scene
        }
        #expect(gone == nil)
        let (old, new) = try #require(held)
        #expect(old.scene == nil && new.scene == nil)
        #expect(run(old, "return segue.now()").value == "0")
        #expect(run(new, "return segue.now()").value == "0")
    }
}
