import CLuaShim
import Testing

@testable import SegueLua

/// Every function of the plugin sandbox's library, called with extreme arguments: each call must return (or raise an
/// ordinary Lua error) or stop with the instruction-budget or memory error. There is no wall clock here (the states
/// are made without `lua.call_timeout_ms`), so a call that loops inside C without charging the budget hangs this
/// suite instead of passing: the budget, a count, is what decides.
@Suite("The whitelisted library under extreme arguments")
struct LibraryTortureTests {
    /// Budget per call for the sweep (smaller than the default, to keep the suite quick).
    static let budget = 1_000_000
    static let memory = 16 << 20

    /// Extreme values, as Lua expressions over `X` (made by `setup`).
    static let extremes = [
        "1 << 50", "-(1 << 50)", "math.maxinteger", "math.mininteger", "0", "-1", "0/0", "1/0", "-1/0", "0.5", "''",
        "X.big", "X.cont", "X.fmt", "X.deep", "X.huge", "X.virtual", "X.longlen", "nil", "X.fn", "X.co",
    ]

    /// Builds the extreme values in the state's globals.
    static let setup = """
        X = {}
        X.big = string.rep('x', 1 << 20)
        X.cont = 'a' .. string.rep('\\x80', 1 << 20)
        X.fmt = string.rep('%s', 4096)
        local d = {} for i = 1, 1000 do d = { d } end X.deep = d
        local h = {} for i = 1, 200000 do h[i] = i end X.huge = h
        -- A table that looks infinite without running an instruction: C functions as metamethods.
        X.virtual = setmetatable({}, { __index = type, __newindex = rawequal, __len = rawlen })
        X.longlen = setmetatable({}, { __index = type, __newindex = rawequal,
                                       __len = function() return math.maxinteger end })
        X.fn = function(...) return ... end
        X.co = coroutine.create(function(...) return ... end)
        """

    /// Ordinary arguments for each function; the sweep puts every extreme value in every position in turn.
    /// A function of the sandbox that has no entry here fails `everyFunctionHasAGenerator`.
    static let ordinary: [String: [String]] = [
        "assert": ["true", "'message'"],
        "collectgarbage": ["'count'"],
        "error": ["'boom'", "1"],
        "getmetatable": ["'text'"],
        "ipairs": ["{ 1, 2 }"],
        "load": ["'return 1'", "'chunk'", "'t'", "{}"],
        "next": ["{ 1 }", "nil"],
        "pairs": ["{ 1 }"],
        "pcall": ["X.fn", "1"],
        "rawequal": ["1", "1"],
        "rawget": ["{ 1 }", "1"],
        "rawlen": ["{ 1 }"],
        "rawset": ["{}", "1", "2"],
        "select": ["'#'", "1", "2"],
        "setmetatable": ["{}", "{}"],
        "tonumber": ["'ff'", "16"],
        "tostring": ["1"],
        "type": ["1"],
        "xpcall": ["X.fn", "tostring", "1"],
        "string.byte": ["'hello'", "1", "-1"],
        "string.char": ["72", "105"],
        "string.find": ["'hello'", "'l+'", "1", "false"],
        "string.format": ["'%d %s %q'", "1", "'x'", "'y'"],
        "string.gmatch": ["'hello world'", "'%a+'", "1"],
        "string.gsub": ["'hello'", "'l'", "'L'", "1"],
        "string.len": ["'abc'"],
        "string.lower": ["'ABC'"],
        "string.match": ["'key=value'", "'(%w+)=(%w+)'", "1"],
        "string.pack": ["'i4z'", "7", "'x'"],
        "string.packsize": ["'i4i8'"],
        "string.rep": ["'ab'", "3", "','"],
        "string.reverse": ["'abc'"],
        "string.sub": ["'hello'", "2", "-2"],
        "string.unpack": ["'i4'", "string.pack('i4', 7)", "1"],
        "string.upper": ["'abc'"],
        "table.concat": ["{ 1, 2, 3 }", "','", "1", "3"],
        "table.insert": ["{ 1, 2, 3 }", "1", "0"],
        "table.move": ["{ 1, 2, 3 }", "1", "3", "2", "{}"],
        "table.pack": ["1", "2"],
        "table.remove": ["{ 1, 2, 3 }", "1"],
        "table.sort": ["{ 3, 1, 2 }", "function(a, b) return a < b end"],
        "table.unpack": ["{ 1, 2, 3 }", "1", "3"],
        "math.abs": ["-2"], "math.acos": ["0.5"], "math.asin": ["0.5"], "math.atan": ["1", "2"],
        "math.ceil": ["1.5"], "math.cos": ["1"], "math.exp": ["1"], "math.floor": ["1.5"], "math.fmod": ["7", "3"],
        "math.log": ["8", "2"], "math.max": ["1", "2"], "math.min": ["1", "2"], "math.modf": ["1.5"],
        "math.random": ["1", "10"], "math.randomseed": ["7", "8"], "math.sin": ["1"], "math.sqrt": ["4"],
        "math.tan": ["1"], "math.tointeger": ["3.0"], "math.type": ["1"], "math.ult": ["1", "2"],
        // Lua 5.3's deprecated math functions, which the system's Lua 5.4 is built with.
        "math.atan2": ["1", "2"], "math.cosh": ["1"], "math.deg": ["1"], "math.frexp": ["1.5"],
        "math.ldexp": ["1", "2"], "math.log10": ["100"], "math.pow": ["2", "3"], "math.rad": ["1"],
        "math.sinh": ["1"], "math.tanh": ["1"],
        "utf8.char": ["72", "228"],
        "utf8.codepoint": ["'häh'", "1", "-1"],
        "utf8.codes": ["'häh'"],
        "utf8.len": ["'häh'", "1", "-1"],
        "utf8.offset": ["'häh'", "2", "1"],
        "coroutine.close": ["coroutine.create(X.fn)"],
        "coroutine.create": ["X.fn"],
        "coroutine.isyieldable": [],
        "coroutine.resume": ["coroutine.create(X.fn)", "1"],
        "coroutine.running": [],
        "coroutine.status": ["X.co"],
        "coroutine.wrap": ["X.fn"],
        "coroutine.yield": ["1"],
    ]

    /// The functions of the live sandbox: its global functions and those of its library tables.
    static func sandboxFunctions() throws -> [String] {
        let sandbox = try makeSandbox()
        let code = """
            local names = {}
            for k, v in pairs(_G) do
              if type(v) == 'function' then names[#names + 1] = k end
              if type(v) == 'table' and k ~= '_G' and k ~= 'segue' and k ~= 'X' then
                for f, w in pairs(v) do
                  if type(w) == 'function' then names[#names + 1] = k .. '.' .. f end
                end
              end
            end
            table.sort(names)
            return table.concat(names, ' ')
            """
        let list = try #require(run(sandbox, code).value)
        return list.split(separator: " ").map(String.init)
    }

    /// Every argument list of the sweep for one function: its ordinary arguments, then each extreme value in each
    /// position (one past the last too), the others ordinary.
    static func argumentLists(_ name: String) -> [[String]] {
        let base = ordinary[name] ?? []
        var lists = [base]
        for position in 0...max(base.count, 2) {
            for value in extremes {
                var args = base
                while args.count <= position { args.append("nil") }
                args[position] = value
                lists.append(args)
            }
        }
        return lists
    }

    /// What a stopped or refused call may say. Anything else is an ordinary Lua error (a bad argument), which is
    /// fine too: the call came back.
    static func isLimit(_ message: String) -> Bool {
        message.contains("instruction budget exceeded") || message.contains("not enough memory")
    }

    @Test("every function of the sandbox has an argument generator (a new function must get one)")
    func everyFunctionHasAGenerator() throws {
        let functions = try Self.sandboxFunctions()
        #expect(functions.count > 60)
        let missing = functions.filter { Self.ordinary[$0] == nil }
        #expect(missing.isEmpty, "no argument generator for: \(missing.joined(separator: ", "))")
        let stale = Self.ordinary.keys.filter { !functions.contains($0) }
        #expect(stale.isEmpty, "generators for functions the sandbox does not have: \(stale)")
    }

    @Test("every function returns or stops at a limit, whatever extreme value it is given")
    func sweep() throws {
        let functions = try Self.sandboxFunctions()
        let sandbox = try makeSandbox(memoryLimit: Self.memory, budget: Self.budget)
        #expect(run(sandbox, Self.setup + " return 'ok'").value == "ok")
        var calls = 0
        var limited = 0
        for name in functions {
            for args in Self.argumentLists(name) {
                // Only the count of results and the start of an error come back: the test measures the library, not
                // Swift's copies of megabyte strings. (A budget stop cannot be swallowed by the pcall: it raises
                // again at the next instruction.)
                let call = """
                    local r = table.pack(pcall(\(name), \(args.joined(separator: ", "))))
                    if not r[1] then error(tostring(r[2]):sub(1, 300), 0) end
                    return r.n
                    """
                let result = run(sandbox, call)
                calls += 1
                if let message = result.errorMessage, Self.isLimit(message) { limited += 1 }
                // Whatever happened, the state answers the next call.
                #expect(run(sandbox, "return 'alive'").value == "alive", "after \(call)")
            }
        }
        #expect(calls > 3000)
        #expect(limited > 0)
    }

    @Test("the calls that would loop for ever inside C stop with the budget error", arguments: [
        "return string.rep('', 1 << 50)",
        "return string.rep('', 1 << 50, '')",
        "return string.rep('', math.maxinteger, '')",
        "return table.move({}, 1, 1 << 50, 1, {})",
        "return table.move({}, -(1 << 50), -1, 1, {})",
        "return table.concat(X.virtual, '', 1, 1 << 50)",
        "return table.concat(X.longlen)",
        "return table.insert(setmetatable({}, { __len = function() return 1 << 50 end }), 1, 'x')",
        "return table.remove(setmetatable({}, { __len = function() return 1 << 50 end }), 1)",
        "return table.sort(setmetatable({}, { __index = type, __newindex = rawequal, __len = function() return (1 << 31) - 2 end }))",
        "local s = string.rep('x', 1 << 19) local t = {} for i = 1, 100000 do t[i] = s end table.sort(t) return 1",
        "return load(string.rep('x = 1 ', 1 << 18))",
        "return load(function() return 'x = 1 ' end)",
        "for _ in string.gmatch(X.big, '') do end",
        "local f = utf8.codes(X.cont) while true do pcall(f, X.cont, 1) end",
        "while true do utf8.offset(X.cont, 1 << 50) end",
        "while true do utf8.len(X.cont) end",
        "while true do local s = X.big:sub(1, -1) end",
        "while true do local s = X.big:upper() end",
        "while true do pcall(string.unpack, 'z', X.big) end",
        "while true do string.format('%s', X.big) end",
        "while true do select('#', table.unpack(X.huge)) end",
        "while true do pcall(string.pack, 'c' .. (1 << 30), '') end",
        "local co = coroutine.wrap(function() coroutine.yield(string.rep('', 1 << 50)) end) return co()",
        "return pcall(string.rep, '', 1 << 50)",
    ])
    func loopsInsideC(code: String) throws {
        let sandbox = try makeSandbox(memoryLimit: Self.memory, budget: Self.budget)
        #expect(run(sandbox, Self.setup + " return 'ok'").value == "ok")
        let message = run(sandbox, code).errorMessage ?? "(returned)"
        #expect(message.contains("instruction budget exceeded"), "\(code): \(message)")
        #expect(run(sandbox, "return 'alive'").value == "alive")
    }

    @Test("what the charges leave alone still works as in stock Lua", arguments: [
        ("return #string.rep('ab', 3, ',')", "8"),
        ("return string.rep('ab', 3, ',')", "ab,ab,ab"),
        ("return string.rep('abc', 1)", "abc"),
        ("return string.rep('', 5, '-')", "----"),
        ("return string.rep('x', 0)", ""),
        ("return #string.rep('xyz', 100000)", "300000"),
        ("return string.rep('a', 4, 'bc'):sub(-4)", "abca"),
        ("return table.concat({ 1, 2, 3 }, ', ')", "1, 2, 3"),
        ("return table.concat({ 1, 2, 3 }, '', 2)", "23"),
        ("return table.concat({}, 'x')", ""),
        ("local t = { 1, 2, 3 } table.insert(t, 2, 9) return table.concat(t)", "1923"),
        ("local t = { 1, 2, 3 } table.insert(t, 4) return table.concat(t)", "1234"),
        ("local t = { 1, 2, 3 } return table.remove(t, 1) .. table.concat(t)", "123"),
        ("local t = { 1, 2, 3 } return table.remove(t) .. table.concat(t)", "312"),
        ("local t = {} return tostring(table.remove(t))", "nil"),
        ("return select('#', table.unpack({ 1, 2, 3 }))", "3"),
        ("return table.concat(table.move({ 1, 2, 3 }, 1, 3, 2), '')", "1123"),
        ("local t = {} for i = 1, 300 do t[i] = (i * 7919) % 301 end table.sort(t) for i = 2, 300 do assert(t[i - 1] <= t[i]) end return t[1]", "1"),
        ("local t = { 'b', 'a', 'c' } table.sort(t, function(x, y) return x > y end) return table.concat(t)", "cba"),
        ("return select(2, pcall(table.sort, { 1, 2, 3, 4, 5 }, function() return true end))", "invalid order function for sorting"),
        ("return load('return 1 + 1')()", "2"),
        ("local parts = { 'return ', '4', '2' } local i = 0 return load(function() i = i + 1 return parts[i] end)()", "42"),
        ("local e = {} load('x = 5', 'c', 't', e)() return e.x", "5"),
        // (The message handler in force adds a traceback, as it would to the stock load's.)
        ("return (select(2, load(function() return {} end)):match('^[^\\n]*'))", "snippet:1: reader function must return a string"),
        ("local n = 0 local f = load(function() n = n + 1 if n == 1 then return 'return 7' end return '' end) return f() .. n", "72"),
        ("return select(2, load(string.rep(' ', 600) .. 'x ='))", #"[string "                                             ..."]:1: unexpected symbol near <eof>"#),
        ("return select(2, load('x ='))", #"[string "x ="]:1: unexpected symbol near <eof>"#),
        ("local n = 0 for p, c in utf8.codes('häh') do n = n + 1 end return n", "3"),
        ("return utf8.offset('häh', 3)", "4"),
        ("return utf8.len('häh')", "3"),
        ("return string.upper('abc')", "ABC"),
        ("return tonumber('ff', 16)", "255"),
        ("return select('#', 1, 2, 3)", "3"),
        ("return math.max(3, 9, 4)", "9"),
        ("return string.format('%5.1f|%q', 3.14159, 'a\\n')", "  3.1|\"a\\\n\""),
        ("return string.unpack('i4', string.pack('i4', 7))", "7"),
        // Lua's own checks come before the charges: its test files expect these messages.
        ("return select(2, pcall(table.move, {}, 0, math.maxinteger, 1))", "bad argument #3 to '?' (too many elements to move)"),
        ("return select(2, pcall(table.move, {}, 1, math.maxinteger, 2))", "bad argument #4 to '?' (destination wrap around)"),
        ("return select(2, pcall(table.move, {}, math.mininteger, -1, 1))", "bad argument #3 to '?' (too many elements to move)"),
        ("return select(2, pcall(table.unpack, {}, 1, math.maxinteger))", "too many results to unpack"),
        ("return select(2, pcall(table.sort, setmetatable({}, { __len = function() return math.maxinteger end })))",
         "bad argument #1 to '?' (array too big)"),
        ("return select(2, pcall(table.insert, { 1 }, 5, 2))", "bad argument #2 to '?' (position out of bounds)"),
        // A move of 2^63 elements starts: its first access raises (Lua's sort.lua checks this).
        ("""
         local a = setmetatable({}, { __index = function(_, k) P = k end, __newindex = function(_, k) Q = k error() end })
         local ok, e = pcall(table.move, a, 1, math.maxinteger, 0)
         return tostring(ok) .. tostring(e) .. P .. Q
         """, "falsenil10"),
        ("return select(2, pcall(string.rep, 'aa', 1 << 30))", "resulting string too large"),
        ("return select(2, pcall(string.rep, '', 1 << 30, 'aa'))", "resulting string too large"),
        ("return select(2, pcall(string.packsize, 'c1' .. string.rep('0', 40)))", "invalid format option '0'"),
        ("return select(2, pcall(function() return string.rep() end))",
         "snippet:1: bad argument #1 to 'rep' (string expected, got no value)"),
        ("return select(2, pcall(function() return ('x'):sub({}) end))",
         "snippet:1: bad argument #1 to 'sub' (number expected, got table)"),
    ])
    func stockBehaviour(code: String, expected: String) throws {
        let sandbox = try makeSandbox()
        #expect(run(sandbox, code).value == expected, "\(code)")
    }

    /// Lua source the parser takes seconds over although it is short: 60 nested functions of 199 locals each, the
    /// innermost naming a global `refs` times (each name is looked up through every enclosing function's locals).
    static func slowToParse(refs: Int) -> String {
        var source = ""
        for depth in 1...60 {
            source += "return function() local " + (1...199).map { "v\(depth)_\($0)" }.joined(separator: ",") + "\n"
        }
        source += "local _ = {" + String(repeating: "x,", count: refs) + "}\n"
        source += String(repeating: " end", count: 60)
        return source
    }

    @Test("a chunk the parser is slow on is stopped by the wall-clock backstop, in load and as a plugin file")
    func slowParse() throws {
        // The parser runs no instruction and its worst case is not linear in the text, so no per-byte charge prices
        // it fairly: it reads the text in pieces and checks the wall clock between them. This test is about that
        // clock (200 ms), so it is the one place a time decides; what it asserts is the outcome.
        let source = Self.slowToParse(refs: 300_000)
        let sandbox = try PluginInstance(
            source: "return segue.animator { animate = function(ctx) end }", file: "t.lua", chunkName: "=t",
            scene: nil, memoryLimit: 64 << 20, instructionBudget: 2_000_000_000, callTimeoutMs: 200)
        sandbox.state.push(source)
        lua_setglobal(sandbox.state.L, "SRC")
        // load returns the error, and like every stop it raises again at the next instruction.
        let message = run(sandbox, "local f, e = load(SRC) return tostring(e)").errorMessage ?? "(returned)"
        #expect(message.contains("call timed out"), "\(message)")
        #expect(run(sandbox, "return 'alive'").value == "alive")
        let file = "local slow = function()\n" + source + "\nend\nreturn segue.animator { animate = function(ctx) end }"
        let error = #expect(throws: LuaError.self) {
            _ = try PluginInstance(
                source: file, file: "slow.lua", chunkName: "@slow.lua", scene: nil, memoryLimit: 64 << 20,
                instructionBudget: 5_000_000, callTimeoutMs: 200)
        }
        #expect(error?.message.contains("call timed out") == true, "\(String(describing: error?.message))")
    }

    @Test("a plugin file that loops inside C at its top level fails to load with the budget error", arguments: [
        "string.rep('', 1 << 50)", "string.rep('', 1 << 50, '')", "table.move({}, 1, 1 << 50, 1, {})",
    ])
    func topLevel(statement: String) throws {
        let file = "\(statement)\nreturn segue.animator { animate = function(ctx) end }"
        do {
            _ = try PluginInstance(
                source: file, file: "top.lua", chunkName: "@top.lua", scene: nil, memoryLimit: 16 << 20,
                instructionBudget: 5_000_000)
            Issue.record("the file loaded")
        } catch {
            #expect(error.message.contains("instruction budget exceeded"), "\(error.message)")
        }
    }
}
