import Testing

@testable import SegueLua

/// What stopped a call is told by the shim, not read from the message: a script that raises a limit's message
/// itself is a runtime error, and does not count towards the plugin's quarantine.
@Suite("Lua error kinds")
struct ErrorKindTests {
    func kind(_ result: Result<String, LuaError>) -> LuaError.Kind? {
        if case .failure(let error) = result { return error.kind }
        return nil
    }

    @Test("each limit and each failure has its kind")
    func kinds() throws {
        let sandbox = try makeSandbox(memoryLimit: 1 << 20, budget: 50_000_000)
        #expect(kind(run(sandbox, "error('boom')")) == .runtime)
        let small = try makeSandbox(budget: 100_000)
        #expect(kind(run(small, "while true do end")) == .budget)
        #expect(kind(run(small, "while true do pcall(function() while true do end end) end")) == .budget)
        #expect(kind(run(sandbox, "local t = {} for i = 1, 1e7 do t[i] = ('x'):rep(64) .. i end")) == .memory)
        // A memory error caught by the script and raised again as its own error is still the cap's doing.
        let rethrown = "local ok, e = pcall(function() local t = {} for i = 1, 1e7 do t[i] = ('y'):rep(64) .. i end end) error(e, 0)"
        #expect(kind(run(sandbox, rethrown)) == .memory)
        #expect(kind(run(sandbox, "return 'fine'")) == nil)
        #expect(sandbox.state.load("return = 1", chunkName: "=bad")?.kind == .syntax)
    }

    @Test("the message of a limit raised by the script itself is a runtime error, not a stop")
    func messagesAreNotKinds() throws {
        let sandbox = try makeSandbox()
        for message in ["instruction budget exceeded (lua.instruction_budget)", "call timed out", "not enough memory"] {
            #expect(kind(run(sandbox, "error('\(message)', 0)")) == .runtime, "\(message)")
        }
        #expect(!LuaError.Kind.runtime.isRunaway && !LuaError.Kind.syntax.isRunaway && !LuaError.Kind.disabled.isRunaway)
        #expect(LuaError.Kind.budget.isRunaway && LuaError.Kind.timeout.isRunaway && LuaError.Kind.memory.isRunaway)
    }

    @Test("the wall-clock backstop's stop is a timeout")
    func timeout() throws {
        let sandbox = try PluginInstance(
            source: "return segue.animator { animate = function(ctx) end }", file: "t.lua", chunkName: "=t",
            scene: nil, memoryLimit: 8 << 20, instructionBudget: 0, callTimeoutMs: 30)
        #expect(kind(run(sandbox, "while true do end")) == .timeout)
        #expect(kind(run(sandbox, "return 'alive'")) == nil)
    }

    @Test("a plugin whose calls raise the limits' messages is not quarantined; one stopped by the budget is")
    func quarantineCountsStopsOnly() throws {
        let liar = try PluginInstance(
            source: "return segue.animator { animate = function(ctx) error('instruction budget exceeded', 0) end }",
            file: "liar.lua", chunkName: "=liar", scene: nil, memoryLimit: 8 << 20, instructionBudget: 100_000)
        let looper = try PluginInstance(
            source: "return segue.animator { animate = function(ctx) while true do end end }",
            file: "loop.lua", chunkName: "=loop", scene: nil, memoryLimit: 8 << 20, instructionBudget: 100_000)
        for instance in [liar, looper] {
            for _ in 0..<(PluginInstance.runawayLimit + 1) {
                let base = instance.state.top
                instance.pushField(instance.described[0].ref, .animate)
                instance.state.pushNil()
                _ = instance.callPlugin(args: 1, results: 0, function: "animate")
                instance.state.setTop(base)
            }
        }
        #expect(liar.runawayCalls == 0)
        #expect(looper.runawayCalls == PluginInstance.runawayLimit)
        let base = looper.state.top
        looper.pushField(looper.described[0].ref, .animate)
        looper.state.pushNil()
        #expect(looper.callPlugin(args: 1, results: 0, function: "animate")?.kind == .disabled)
        looper.state.setTop(base)
    }
}
