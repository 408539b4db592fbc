import Testing

@testable import SegueLua

/// The stall detector's record of the plugin function running: described once, recorded by number.
@Suite("LuaActivity")
struct LuaActivityTests {
    @Test("a call is described once and recorded by its number; nested calls restore the outer one")
    func nesting() {
        let activity = LuaActivity()
        let animate = LuaActivity.Call(file: "plugins/a.lua", function: "animate", line: 12)
        let ended = LuaActivity.Call(file: "plugins/a.lua", function: "ended", line: 30)
        let n = activity.intern(animate)
        #expect(activity.intern(animate) == n)
        #expect(activity.intern(ended) != n)
        #expect(activity.call == nil)
        let outer = activity.enter(n)
        #expect(activity.call == animate)
        let inner = activity.enter(ended)
        #expect(activity.call == ended)
        activity.leave(restoring: inner)
        #expect(activity.call == animate)
        activity.leave(restoring: outer)
        #expect(activity.call == nil)
        #expect(animate.description == "plugins/a.lua: animate (defined at line 12)")
    }

    @Test("an animator's calls name the file, the function and its line, as the stall report shows them")
    func animatorCallsAreDescribed() throws {
        let instance = try PluginInstance(
            source: "return segue.animator {\n  duration = function(ctx) return 0.3 end,\n  animate = function(ctx) end }",
            file: "plugins/d.lua", chunkName: "=d", scene: nil, memoryLimit: 8 << 20, instructionBudget: 100_000)
        let ref = instance.described[0].ref
        let base = instance.state.top
        instance.pushField(ref, .duration)
        let first = instance.activityNumber(.duration, at: -1)
        instance.state.setTop(base)
        instance.pushField(ref, .duration)
        #expect(instance.activityNumber(.duration, at: -1) == first)  // found again, not described again
        instance.state.setTop(base)
        instance.pushField(ref, .animate)
        let second = instance.activityNumber(.animate, at: -1)
        instance.state.setTop(base)
        #expect(first != second)
        let shared = LuaActivity.shared
        let outer = shared.enter(first)
        #expect(shared.call == LuaActivity.Call(file: "plugins/d.lua", function: "duration", line: 2))
        shared.leave(restoring: outer)
        let again = shared.enter(second)
        #expect(shared.call == LuaActivity.Call(file: "plugins/d.lua", function: "animate", line: 3))
        shared.leave(restoring: again)
    }

    @Test("the cache keeps a bounded number of functions alive")
    func cacheIsBounded() throws {
        let instance = try makeSandbox()
        let ref = instance.described[0].ref
        for i in 0..<(ActivityCache.capacity * 2) {
            // A plugin that replaces its animate function on every call.
            #expect(run(instance, "return 1").value == "1")
            instance.state.pushRef(ref)
            #expect(instance.state.load("return function(ctx) return \(i) end", chunkName: "=f") == nil)
            _ = instance.state.call(args: 0, results: 1, topLevel: true)
            instance.state.setRawField(-2, "animate")
            instance.state.pop()
            let base = instance.state.top
            instance.pushField(ref, .animate)
            _ = instance.activityNumber(.animate, at: -1)
            instance.state.setTop(base)
        }
        #expect(instance.activityCache.entries.count == ActivityCache.capacity)
    }
}
