import Dispatch
import Foundation
import Testing

@testable import SegueLua

/// When the budget hook raises, Lua turns hooks off in that thread until a protected call catches the error. Lua
/// code that the stock library runs in that window — xpcall's message handler, the __close handlers of a coroutine
/// the hook killed — ran unhooked and so could loop for good. `withoutBlocking` turns such a hang into a failure.
@Suite("No Lua code runs unhooked after the budget stopped a call")
struct StoppedCallTests {
    static let budgetError = "instruction budget exceeded"

    /// Runs `code` on another thread; nil when it has not come back within 20 s (a bound that turns a hang into a
    /// failure, it measures nothing; the stuck thread is left behind, as nothing can stop it).
    func runGuarded(_ sandbox: PluginInstance, _ code: String) -> Result<String, LuaError>? {
        let work = UncheckedSendable((sandbox, code))
        let done = DispatchSemaphore(value: 0)
        let box = ResultBox<Result<String, LuaError>>()
        Thread.detachNewThread {
            box.value = run(work.value.0, work.value.1)
            done.signal()
        }
        return done.wait(timeout: .now() + 20) == .timedOut ? nil : box.value
    }

    @Test("xpcall's handler does not run for a stopped call, and runs as before for any other error")
    func xpcallHandler() throws {
        let sandbox = try makeSandbox()
        let stopped = runGuarded(sandbox, """
            HANDLED = 0
            xpcall(function() while true do end end, function(m) HANDLED = HANDLED + 1 while true do end end)
            """)
        #expect(stopped?.errorMessage?.contains(Self.budgetError) == true, "\(String(describing: stopped))")
        #expect(run(sandbox, "return HANDLED").value == "0")
        #expect(run(sandbox, "return select(2, xpcall(function() error('x', 0) end, function(m) return 'handled ' .. m end))")
            .value == "handled x")
        #expect(run(sandbox, "return select('#', xpcall(function(a, b) return a, b end, error, 1, 2))").value == "3")
        let inCoroutine = """
            local co = coroutine.wrap(function()
              return xpcall(function() local v = coroutine.yield(1) return v * 2 end, function(m) return m end)
            end)
            co()
            local ok, v = co(21)
            return v
            """
        #expect(run(sandbox, inCoroutine).value == "42")
    }

    @Test("a coroutine the budget killed is not closed: its __close handler never runs, now or in a later call")
    func stoppedCoroutineNotClosed() throws {
        let sandbox = try makeSandbox()
        let wrapped = runGuarded(sandbox, """
            CLOSED = 0
            local f = coroutine.wrap(function()
              local x <close> = setmetatable({}, {__close = function() CLOSED = CLOSED + 1 while true do end end})
              while true do end
            end)
            pcall(f)
            """)
        #expect(wrapped?.errorMessage?.contains(Self.budgetError) == true, "\(String(describing: wrapped))")
        let kept = runGuarded(sandbox, """
            CO = coroutine.create(function()
              local x <close> = setmetatable({}, {__close = function() CLOSED = CLOSED + 1 while true do end end})
              while true do end
            end)
            coroutine.resume(CO)
            """)
        #expect(kept?.errorMessage?.contains(Self.budgetError) == true, "\(String(describing: kept))")
        // A later call, with a fresh budget: closing it does not run the handler (it would run unhooked).
        let later = runGuarded(sandbox, "local ok, message = coroutine.close(CO) return tostring(ok) .. ' ' .. message")
        #expect(later?.value == "false the coroutine was stopped by the instruction budget: it is not closed")
        #expect(run(sandbox, "return CLOSED").value == "0")
        // A coroutine that fails on its own is still closed, its error still names where.
        let failing = """
            local f = coroutine.wrap(function()
              local x <close> = setmetatable({}, {__close = function() CLOSED = CLOSED + 10 end})
              error('own')
            end)
            local ok, message = pcall(f)
            return CLOSED .. ' ' .. message
            """
        #expect(run(sandbox, failing).value?.hasPrefix("10 ") == true)
        #expect(run(sandbox, failing).value?.hasSuffix("own") == true)
        #expect(run(sandbox, "local f = coroutine.wrap(function(a) return a + 1 end) return f(1)").value == "2")
    }

    @Test("short coroutines do not run free: each new one is charged what it may run before its hook first counts")
    func shortCoroutinesCharged() throws {
        // 10 000 coroutines of ~600 instructions each (6 million) under a budget of 1 million: the loop making them
        // runs ~60 000 counted instructions of its own, so uncharged coroutines finished within the budget.
        let sandbox = try makeSandbox(budget: 1_000_000)
        let made = runGuarded(sandbox, """
            for i = 1, 10000 do coroutine.wrap(function() for j = 1, 300 do end end)() end
            return 'done'
            """)
        #expect(made?.errorMessage?.contains(Self.budgetError) == true, "\(String(describing: made))")
        let created = runGuarded(sandbox, """
            for i = 1, 10000 do coroutine.resume(coroutine.create(function() for j = 1, 300 do end end)) end
            return 'done'
            """)
        #expect(created?.errorMessage?.contains(Self.budgetError) == true, "\(String(describing: created))")
        #expect(run(sandbox, "for i = 1, 100 do coroutine.wrap(function() end)() end return 'ok'").value == "ok")
    }

    @Test("coroutine.resume raises the stop in the resuming thread at once: nothing after it runs")
    func resumeRaisesTheStop() throws {
        let sandbox = try makeSandbox()
        let stopped = runGuarded(sandbox, """
            AFTER = 0
            local co = coroutine.create(function() while true do end end)
            coroutine.resume(co)
            for i = 1, 100 do AFTER = AFTER + 1 end
            """)
        #expect(stopped?.errorMessage?.contains(Self.budgetError) == true)
        #expect(run(sandbox, "return AFTER").value == "0")
        #expect(run(sandbox, "local co = coroutine.create(function(a) return a * 3 end) return select(2, coroutine.resume(co, 5))")
            .value == "15")
    }
}
