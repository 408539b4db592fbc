import CLuaShim
import Testing

@testable import SegueLua

@Suite("Lua sandbox")
struct SandboxTests {
    @Test("io, os, require, package, debug, dofile, loadfile and print are absent")
    func dangerousGlobalsAbsent() throws {
        let sandbox = try makeSandbox()
        for name in ["io", "os", "require", "package", "debug", "dofile", "loadfile", "print"] {
            #expect(run(sandbox, "return type(\(name))").value == "nil", "\(name)")
        }
        #expect(run(sandbox, "return type(string.dump)").value == "nil")
        #expect(run(sandbox, "return type((\"\").dump)").value == "nil")
        #expect(run(sandbox, "return type(getmetatable('').__index.dump)").value == "nil")
        #expect(run(sandbox, "return type(segue.animate)").value == "function")
    }

    @Test("load refuses bytecode")
    func bytecodeRefused() throws {
        let sandbox = try makeSandbox()
        let result = run(sandbox, #"local f, err = load("\27LuaT\0\25\147\13\10\26\10") return tostring(f) .. ' ' .. err"#)
        #expect(result.value?.contains("attempt to load a binary chunk") == true)
        // Text still loads.
        #expect(run(sandbox, "return load('return 40 + 2')()").value == "42")
        // Explicit mode "b" is overridden.
        #expect(run(sandbox, #"local f, err = load("\27Lua", "x", "b") return err"#).value?.contains("binary chunk") == true)
    }

    @Test("while true do end is stopped by the instruction budget and the state stays usable")
    func infiniteLoop() throws {
        let sandbox = try makeSandbox()
        #expect(run(sandbox, "while true do end").errorMessage?.contains("instruction budget exceeded") == true)
        #expect(run(sandbox, "return 1 + 1").value == "2")
    }

    @Test("a loop under pcall cannot swallow the budget stop")
    func loopUnderPcall() throws {
        let sandbox = try makeSandbox()
        let code = "while true do pcall(function() while true do end end) end"
        #expect(run(sandbox, code).errorMessage?.contains("instruction budget exceeded") == true)
        let xpcallCode = "local n = 0 while true do n = n + 1 xpcall(function() while true do end end, function() return 1 end) end"
        #expect(run(sandbox, xpcallCode).errorMessage?.contains("instruction budget exceeded") == true)
        #expect(run(sandbox, "return 'alive'").value == "alive")
    }

    @Test("loops inside coroutines are stopped too")
    func loopInCoroutine() throws {
        let sandbox = try makeSandbox()
        let code = "local co = coroutine.wrap(function() while true do end end) co()"
        #expect(run(sandbox, code).errorMessage?.contains("instruction budget exceeded") == true)
        let resume = "local co = coroutine.create(function() while true do end end) while true do coroutine.resume(co) end"
        #expect(run(sandbox, resume).errorMessage?.contains("instruction budget exceeded") == true)
        #expect(run(sandbox, "return 3").value == "3")
    }

    @Test("memory bombs end with 'not enough memory' and the state stays usable")
    func memoryBombs() throws {
        let sandbox = try makeSandbox(memoryLimit: 8 << 20, budget: 100_000_000)
        #expect(run(sandbox, "return #string.rep('x', 1e9)").errorMessage?.contains("not enough memory") == true)
        #expect(run(sandbox, "local t = {} for i = 1, 1e9 do t[i] = i end").errorMessage?.contains("not enough memory") == true)
        #expect(run(sandbox, "local s = 'x' while true do s = s .. s end").errorMessage?.contains("not enough memory") == true)
        #expect(run(sandbox, "return 'still here'").value == "still here")
        #expect(sandbox.state.memoryUsed < 8 << 20)
    }

    @Test("the state's free lists: blocks grown and shrunk across size classes and the lists' edge keep their contents, and what Lua holds is counted as before")
    func smallBlockLists() throws {
        let sandbox = try makeSandbox(memoryLimit: 8 << 20, budget: 100_000_000)
        let before = sandbox.state.memoryUsed
        // Arrays and hashes grown one element at a time (a block regrown through every class and past 256 bytes),
        // strings of every small length, closures and their upvalues; then all of it dropped and made again, so
        // blocks come back from the lists; every value is checked.
        let code = """
            local total = 0
            for round = 1, 3 do
              local keep = {}
              for n = 1, 80 do
                local t, h = {}, {}
                for i = 1, n do t[i] = i * round; h['k' .. i] = i end
                local s = 0
                for i = 1, n do s = s + t[i] + h['k' .. i] end
                assert(s == n * (n + 1) / 2 * (round + 1), 'contents')
                local str = string.rep('a', n) .. tostring(n)
                assert(#str == n + #tostring(n), 'string')
                local f = function() return s + n end
                keep[#keep + 1] = f
                total = total + f() - s - n
              end
              for i = 1, #keep do assert(keep[i]() > 0) end
            end
            return total
            """
        #expect(run(sandbox, code).value == "0")
        #expect(run(sandbox, code).value == "0")
        // A full collection gives back what the runs made: Lua's count is what it holds, not what the lists keep.
        segue_collect(sandbox.state.L)
        #expect(sandbox.state.memoryUsed < before + 16 * 1024, "\(before) → \(sandbox.state.memoryUsed)")
        // The cap still refuses, and the state goes on.
        #expect(run(sandbox, "local t = {} for i = 1, 1e9 do t[i] = {i} end").errorMessage?.contains("not enough memory") == true)
        #expect(run(sandbox, "return 'after'").value == "after")
    }

    @Test("collectgarbage answers only count; __gc is refused")
    func collectgarbageAndGC() throws {
        let sandbox = try makeSandbox()
        #expect(run(sandbox, "return type(collectgarbage('count'))").value == "number")
        #expect(run(sandbox, "collectgarbage('stop')").errorMessage?.contains("only \"count\"") == true)
        #expect(run(sandbox, "collectgarbage()").errorMessage?.contains("only \"count\"") == true)
        #expect(run(sandbox, "setmetatable({}, {__gc = function() end})").errorMessage?.contains("__gc") == true)
        #expect(run(sandbox, "return type(setmetatable({}, {__index = {}}))").value == "table")
    }

    @Test("math.random is seeded the same in every state")
    func deterministicRandom() throws {
        let first = run(try makeSandbox(), "return math.random(1, 1000000)").value
        let second = run(try makeSandbox(), "return math.random(1, 1000000)").value
        #expect(first != nil)
        #expect(first == second)
    }

    @Test("errors carry a traceback")
    func traceback() throws {
        let sandbox = try makeSandbox()
        let message = run(sandbox, "local function f() error('deep') end f()").errorMessage ?? ""
        #expect(message.contains("deep"))
        #expect(message.contains("stack traceback"))
    }
}
