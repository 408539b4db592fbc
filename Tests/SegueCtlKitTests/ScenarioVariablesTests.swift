import SegueCtlKit
import SegueJSON
import Testing

@Suite("Variables in scenario steps")
struct ScenarioVariablesTests {
    let variables = ScenarioVariables(["t": "t-7", "n": 2, "frame": ["x": 1]])

    @Test("a whole-string reference keeps the value's type")
    func wholeString() throws {
        #expect(try variables.substitute("${t}") == "t-7")
        #expect(try variables.substitute("${n}") == 2)
        #expect(try variables.substitute(["index": "${n}", "f": "${frame}"]) == ["index": 2, "f": ["x": 1]])
    }

    @Test("a reference inside a string is replaced by the value's text")
    func embedded() throws {
        #expect(try variables.substitute("from ${t} to ${n}!") == "from t-7 to 2!")
        #expect(try variables.substitute(["list": ["a-${t}", 3, nil]]) == ["list": ["a-t-7", 3, nil]])
        #expect(try variables.substitute(["${t}": "key"]) == ["t-7": "key"])
    }

    @Test("$${ writes a literal ${, and a lone $ stays")
    func escapes() throws {
        #expect(try variables.substitute("$${t}") == "${t}")
        #expect(try variables.substitute("cost: $5") == "cost: $5")
    }

    @Test("an unknown variable is an error naming it and the known ones")
    func unknown() {
        #expect(throws: ScenarioError("unknown variable ${x} (known: frame, n, t)")) { try variables.substitute("${x}") }
        #expect(throws: ScenarioError.self) { try variables.substitute("a ${t") }
        #expect(throws: ScenarioError.self) { try variables.substitute("a ${no good}") }
    }
}
