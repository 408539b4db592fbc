import CLuaShim
import Testing

@testable import SegueLua

/// Runs `code` in a stock Lua state (all standard libraries, the stock string library) and returns its one string
/// result, or "ERR: message".
func runStock(_ code: String) -> String {
    guard let L = luaL_newstate() else { return "no state" }
    defer { lua_close(L) }
    luaL_openlibs(L)
    guard luaL_loadstring(L, code) == LUA_OK, lua_pcallk(L, 0, 1, 0, 0, nil) == LUA_OK else {
        var length = 0
        let message = segue_tostring(L, -1, &length).map { String(cString: $0) } ?? "?"
        return "ERR: " + message
    }
    var length = 0
    guard let p = segue_tostring(L, -1, &length) else { return "nil" }
    return String(decoding: UnsafeRawBufferPointer(start: p, count: length), as: UTF8.self)
}

/// A Lua string literal for any bytes (decimal escapes).
func luaLiteral(_ s: String) -> String { "\"" + s.utf8.map { "\\\($0)" }.joined() + "\"" }

/// Deterministic generator (SplitMix64).
struct SplitMix {
    var state: UInt64
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
    mutating func pick<T>(_ items: [T]) -> T { items[Int(next() % UInt64(items.count))] }
}

@Suite("The bounded string library against stock Lua")
struct PatternDifferentialTests {
    static func program(subject: String, pattern: String) -> String {
        """
        local s, p = \(luaLiteral(subject)), \(luaLiteral(pattern))
        local function pack(...)
          local t = table.pack(...)
          for i = 1, t.n do t[i] = tostring(t[i]) end
          return table.concat(t, ",", 1, t.n)
        end
        local out = {}
        local function try(f) local ok, r = pcall(f) out[#out + 1] = ok and r or "ERR" end
        try(function() return pack(string.find(s, p)) end)
        try(function() return pack(string.find(s, p, 3)) end)
        try(function() return pack(string.find(s, p, -4)) end)
        try(function() return pack(string.match(s, p)) end)
        try(function() return pack(string.gsub(s, p, "<%0>")) end)
        try(function() return pack(string.gsub(s, p, "%1", 2)) end)
        try(function() return pack(string.gsub(s, p, function(a, b) return b and (a .. "+" .. b) or nil end)) end)
        try(function() return pack(string.gsub(s, p, { a = "A", ["1"] = false })) end)
        try(function()
          local t = {}
          for a, b in string.gmatch(s, p) do t[#t + 1] = tostring(a) .. "|" .. tostring(b) if #t > 50 then break end end
          return table.concat(t, ";")
        end)
        return table.concat(out, " / ")
        """
    }

    @Test("random patterns over random subjects give the same results as Lua's own string library")
    func differential() throws {
        let pieces = [
            "a", "b", "c", ".", "%a", "%d", "%s", "%w", "%p", "%A", "%D", "[ab]", "[^a]", "[a-c]", "[%d%s]", "[]]",
            "(", ")", "()", "%b()", "%f[%w]", "%f[%W]", "%1", "^", "$", "x", " ", "%(", "%%", "[%]]", "[a-]",
        ]
        let quantifiers = ["", "", "", "*", "+", "-", "?"]
        let alphabet = Array("abc(d) 1a2x]%")
        var rng = SplitMix(state: 0x5E9ED)
        let sandbox = try makeSandbox(budget: 50_000_000)
        var compared = 0
        for _ in 0..<3000 {
            var pattern = ""
            for _ in 0..<(1 + Int(rng.next() % 7)) {
                let piece = rng.pick(pieces)
                pattern += piece
                if piece.count <= 3 && !["(", ")", "()", "^", "$", "%1"].contains(piece) { pattern += rng.pick(quantifiers) }
            }
            let subject = String((0..<Int(rng.next() % 12)).map { _ in rng.pick(alphabet) })
            let code = PatternDifferentialTests.program(subject: subject, pattern: pattern)
            let stock = runStock(code)
            let ours = run(sandbox, code)
            #expect(ours.value == stock, "pattern \(pattern) subject \(subject): ours \(ours), stock \(stock)")
            compared += 1
        }
        #expect(compared == 3000)
    }

    @Test("hand-picked corner cases match stock Lua", arguments: [
        ("hello world", "o"), ("", ""), ("abc", ""), ("aaa", "a-"), ("aaa", "a*"), ("abc", "^"), ("abc", "$"),
        ("abc", "^$"), ("", "^$"), ("a.b", "%."), ("(a(b)c)", "%b()"), ("((", "%b()"), ("THE (quick) fox", "%f[%a]%a+"),
        ("key=val; k2=v2", "(%w+)=(%w+)"), ("abab", "(ab)%1"), ("x", "()"), ("abc", "()b()"), ("a]b", "[]]"),
        ("a-b", "[a-]"), ("a^b", "[%^b]"), ("12ab", "%d+%a+$"), ("  trim  ", "^%s*(.-)%s*$"), ("a,b,,c", "([^,]*)"),
        ("abc", "[^]a]"), ("f(a,b)", "%((.-)%)"),
    ])
    func corners(subject: String, pattern: String) throws {
        let code = PatternDifferentialTests.program(subject: subject, pattern: pattern)
        let ours = run(try makeSandbox(), code).value ?? "error", stock = runStock(code)
        #expect(ours == stock, "\(pattern.debugDescription) on \(subject.debugDescription): ours \(ours.debugDescription) stock \(stock.debugDescription)")
    }

    @Test("subjects and patterns with NUL bytes match stock Lua")
    func nulBytes() throws {
        let nul = "\u{0}"
        for (subject, pattern) in [(nul + "a" + nul, "a"), (nul + "a" + nul, "%z"), ("a" + nul + "b", "[" + nul + "]"), (nul, ".")] {
            let code = PatternDifferentialTests.program(subject: subject, pattern: pattern)
            let ours = run(try makeSandbox(), code).value ?? "error", stock = runStock(code)
            #expect(ours.replacingOccurrences(of: nul, with: "<NUL>") == stock.replacingOccurrences(of: nul, with: "<NUL>"),
                    "\(pattern.replacingOccurrences(of: nul, with: "<NUL>")): ours \(ours.replacingOccurrences(of: nul, with: "<NUL>")) stock \(stock.replacingOccurrences(of: nul, with: "<NUL>"))")
        }
    }
}
