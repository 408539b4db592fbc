import Foundation
import Testing

@testable import SegueLua

@Suite("Bounded string library and the wall-clock backstop")
struct BoundedStringTests {
    @Test("string.find/match/gmatch/gsub keep Lua's pattern semantics", arguments: [
        ("return string.find('hello world', 'o w')", "5"),
        ("return select(2, string.find('hello world', 'o w'))", "7"),
        ("return string.find('a.b', '.', 1, true)", "2"),
        ("return string.find('abc', 'b', -1)", "nil"),
        ("return string.match('key = value', '^(%w+)%s*=%s*(.-)$')", "key"),
        ("return select(2, string.match('key = value', '^(%w+)%s*=%s*(.-)$'))", "value"),
        ("return string.match('  x', '()x')", "3"),
        ("return string.match('f(a(b)c)d', '%b()')", "(a(b)c)"),
        ("return string.match('THE (quick) fox', '%f[%a]%a+%f[%A]')", "THE"),
        ("return string.match('abcabc', '(abc)%1')", "abc"),
        ("return string.match('x]y', '[]]')", "]"),
        ("return string.match('a-b', '[%-]')", "-"),
        ("return string.match('hello', '[^hel]')", "o"),
        ("return string.match('2024-11-21', '(%d+)-(%d+)-(%d+)')", "2024"),
        ("return string.match('aaa', 'a-b')", "nil"),
        ("return string.match('aaab', 'a-b')", "aaab"),
        ("return string.match('ab', 'a?b')", "ab"),
        ("return string.match('$5', '%$%d')", "$5"),
        ("return string.match('a$', 'a$')", "nil"),
        ("return string.match('a$b', 'a$b')", "a$b"),
        ("return (string.gsub('hello world', 'o', '0'))", "hell0 w0rld"),
        ("return select(2, string.gsub('hello world', 'o', '0'))", "2"),
        ("return (string.gsub('hello world', '(%w+)', '<%1>'))", "<hello> <world>"),
        ("return (string.gsub('abc', '', '-'))", "-a-b-c-"),
        ("return (string.gsub('abc', '%w', '%0%0', 2))", "aabbc"),
        ("return (string.gsub('$name is $age', '%$(%w+)', {name='Ann', age=7}))", "Ann is 7"),
        ("return (string.gsub('a b', '%w', function(c) return c:upper() end))", "A B"),
        ("return (string.gsub('a b', '%w', function(c) return nil end))", "a b"),
        ("return (string.gsub('hello', '^h', 'H'))", "Hello"),
        ("local t = {} for k, v in string.gmatch('a=1, b=2', '(%w+)=(%w+)') do t[#t+1] = k .. v end return table.concat(t, ',')", "a1,b2"),
        ("local n = 0 for w in ('one two three'):gmatch('%a+') do n = n + 1 end return n", "3"),
        ("local t = {} for w in ('abc'):gmatch('', 2) do t[#t+1] = 'x' end return #t", "3"),
        ("return ('x'):rep(3):upper()", "XXX"),
        ("local t = {3, 1, 2} table.sort(t) return table.concat(t)", "123"),
        ("local t = {3, 1, 2} table.sort(t, function(a, b) return a > b end) return table.concat(t)", "321"),
    ])
    func patternSemantics(code: String, expected: String) throws {
        let sandbox = try makeSandbox()
        #expect(run(sandbox, code).value == expected, "\(code)")
    }

    @Test("malformed patterns raise Lua's errors", arguments: [
        ("string.find('a', '%')", "malformed pattern"),
        ("string.find('a', '[a')", "missing ']'"),
        ("string.find('a', '(a')", "unfinished capture"),
        ("string.match('a', 'a)')", "invalid pattern capture"),
        ("string.find('a', '%1')", "invalid capture index"),
        ("string.gsub('a', 'a', '%2')", "invalid capture index"),
        ("string.gsub('a', 'a', '%x')", "invalid use of '%' in replacement string"),
        ("string.gsub('a', 'a', true)", "string/function/table"),
        ("string.find('a', '%f')", "missing '['"),
        ("string.find('a', '%b')", "missing arguments to '%b'"),
    ])
    func malformedPatterns(code: String, message: String) throws {
        let sandbox = try makeSandbox()
        #expect(run(sandbox, code).errorMessage?.contains(message) == true, "\(code)")
        #expect(run(sandbox, "return 'ok'").value == "ok")
    }

    @Test("a pathological pattern is stopped by the instruction budget, even under pcall")
    func pathologicalPattern() throws {
        let sandbox = try makeSandbox(budget: 5_000_000)
        let find = "return string.find(('a'):rep(400), '.-.-.-b')"
        #expect(run(sandbox, find).errorMessage?.contains("instruction budget exceeded") == true)
        let swallowed = "while true do pcall(string.find, ('a'):rep(400), '.-.-.-b') end"
        #expect(run(sandbox, swallowed).errorMessage?.contains("instruction budget exceeded") == true)
        let gsub = "return string.gsub(('a'):rep(2000), '(a*)*b', 'x')"
        #expect(run(sandbox, gsub).errorMessage != nil)
        let gmatch = "for x in (('a'):rep(300)):gmatch('.-.-.-b') do end"
        #expect(run(sandbox, gmatch).errorMessage?.contains("instruction budget exceeded") == true)
        #expect(run(sandbox, "return 'alive'").value == "alive")
    }

    @Test("a huge subject is charged for the work done on it")
    func hugeSubject() throws {
        let sandbox = try makeSandbox(memoryLimit: 64 << 20, budget: 1_000_000)
        #expect(run(sandbox, "local s = ('ab'):rep(4e6) return select(2, s:gsub('b', 'c'))").errorMessage?
            .contains("instruction budget exceeded") == true)
        #expect(run(sandbox, "local t = {} for i = 1, 2e5 do t[i] = -i end table.sort(t)").errorMessage?
            .contains("instruction budget exceeded") == true)
    }

    @Test("the wall-clock backstop stops a call the budget does not (budget unlimited)")
    func wallClock() throws {
        let sandbox = try PluginInstance(
            source: "return segue.animator { animate = function(ctx) end }", file: "t.lua", chunkName: "=t",
            scene: nil, memoryLimit: 8 << 20, instructionBudget: 0, callTimeoutMs: 30)
        #expect(run(sandbox, "while true do end").errorMessage?.contains("call timed out") == true)
        #expect(run(sandbox, "while true do pcall(function() while true do end end) end").errorMessage?
            .contains("call timed out") == true)
        let co = "local co = coroutine.wrap(function() while true do end end) co()"
        #expect(run(sandbox, co).errorMessage?.contains("call timed out") == true)
        let resume = "local co = coroutine.create(function() while true do end end) while true do coroutine.resume(co) end"
        #expect(run(sandbox, resume).errorMessage?.contains("call timed out") == true)
        let pattern = "while true do pcall(string.find, ('a'):rep(400), '.-.-.-b') end"
        #expect(run(sandbox, pattern).errorMessage?.contains("call timed out") == true)
        #expect(run(sandbox, "return 'alive'").value == "alive")
        #expect(run(sandbox, "local n = 0 for i = 1, 1000 do n = n + i end return n").value == "500500")
        // After a quiet spell the watchdog looks less often; the first runaway call after it is still stopped.
        usleep(600_000)
        #expect(run(sandbox, "while true do end").errorMessage?.contains("call timed out") == true)
    }
}
