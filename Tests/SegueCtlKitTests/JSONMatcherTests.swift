import Foundation
import SegueCtlKit
import SegueJSON
import Testing

@Suite("Partial matching of results")
struct JSONMatcherTests {
    @Test("the shared cases (Tests/Fixtures/matching-cases.json) match as the Python client's matcher does")
    func sharedCases() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Fixtures/matching-cases.json").path
        let cases = try #require(try JSONParser.parse(String(contentsOfFile: path, encoding: .utf8)).arrayValue)
        #expect(cases.count >= 20)
        for c in cases {
            let expected = c["expected"] ?? .null, actual = c["actual"] ?? .null
            #expect(JSONMatcher().matches(expected, actual) == (c["matches"] == true), "\(Format.compact(c))")
        }
    }

    let matcher = JSONMatcher(tolerance: 0.001)

    func differences(_ expected: JSONValue, _ actual: JSONValue?) -> [String] {
        matcher.mismatches(expected: expected, actual: actual, at: JSONPath("result")).map(\.description)
    }

    @Test("objects match on the listed keys only, recursively")
    func partialObjects() {
        let actual: JSONValue = ["transition": "t-1", "animator": "dt-slide", "frame": ["x": 0, "y": 0, "w": 320, "h": 480]]
        #expect(matcher.matches(["animator": "dt-slide"], actual))
        #expect(matcher.matches(["frame": ["w": 320]], actual))
        #expect(matcher.matches([:], actual))
        #expect(differences(["frame": ["w": 300]], actual) == ["result.frame.w: expected 300, got 320"])
    }

    @Test("a listed key that is missing is a difference at its path")
    func missingKey() {
        #expect(differences(["views": ["subviews": [["id": "a"]]]], ["views": ["subviews": [["x": 1]]]])
            == ["result.views.subviews.0.id: expected \"a\", got nothing (no such key)"])
    }

    @Test("arrays need the same length and match element by element")
    func arrays() {
        #expect(matcher.matches([["id": "a"], ["id": "b"]], [["id": "a", "z": 1], ["id": "b"]]))
        #expect(differences(["a", "b"], ["a", "b", "c"]) == [#"result: expected 2 elements ["a","b"], got 3: ["a","b","c"]"#])
        #expect(differences(["a", "b"], ["a", "c"]) == [#"result.1: expected "b", got "c""#])
        #expect(differences([], ["a"]).count == 1)
    }

    @Test("numbers match within the tolerance, and only within it")
    func tolerance() {
        #expect(matcher.matches(0.28, 0.2805))
        #expect(matcher.matches(-160, -159.9995))
        #expect(!matcher.matches(0.28, 0.282))
        #expect(!JSONMatcher(tolerance: 0).matches(1, 1.0000001))
        #expect(JSONMatcher(tolerance: 0).matches(1, 1))
        #expect(!matcher.matches(1, .number(.nan)))
    }

    @Test("types must agree: a string is not a number, null is not absent")
    func types() {
        #expect(differences(1, "1") == [#"result: expected 1, got string "1""#])
        #expect(differences(["parent": nil], [:]) == ["result.parent: expected null, got nothing (no such key)"])
        #expect(differences(["parent": "tabs"], ["parent": nil]) == [#"result.parent: expected "tabs", got null"#])
        #expect(matcher.matches(["parent": nil], ["parent": nil]))
        #expect(!matcher.matches(true, 1))
    }

    @Test("$contains finds elements in order among others")
    func contains() {
        let actual: JSONValue = ["a", "b", "c", "d"]
        #expect(matcher.matches(["$contains": ["b", "d"]], actual))
        #expect(matcher.matches(["$contains": []], actual))
        #expect(!matcher.matches(["$contains": ["d", "b"]], actual))
        #expect(!matcher.matches(["$contains": ["e"]], actual))
        #expect(!matcher.matches(["$contains": ["a"]], "a"))
        let message = differences(["$contains": ["c", "a"]], actual).first ?? ""
        #expect(message.contains("element 2 \"a\" not found after the array's element 3, where element 1 matched"))
    }

    @Test("$absent and $any check for the key itself")
    func absentAndAny() {
        #expect(matcher.matches(["presented": ["$absent": true]], ["vc": "a"]))
        #expect(differences(["presented": ["$absent": true]], ["presented": "m"]) == [#"result.presented: expected no such key, got "m""#])
        #expect(matcher.matches(["parent": ["$any": true]], ["parent": nil]))
        #expect(!matcher.matches(["parent": ["$any": true]], [:]))
    }

    @Test("an unknown operator is reported, not silently matched")
    func unknownOperator() {
        #expect(differences(["$contain": ["a"]], ["a"]) == ["result: expected one of $contains, $absent, $any, got unknown operator $contain in the scenario"])
    }

    @Test("every difference is reported, not just the first")
    func allDifferences() {
        #expect(differences(["a": 1, "b": 2, "c": 3], ["a": 0, "b": 2, "c": 4]).count == 2)
    }

    @Test("a subsequence is found greedily, in order")
    func subsequence() {
        let events: [JSONValue] = [["type": "x", "vc": "a"], ["type": "y"], ["type": "x", "vc": "b"]]
        func miss(_ wanted: [JSONValue], _ events: [JSONValue]) -> [Int]? {
            matcher.subsequenceMiss(wanted, in: events).map { [$0.expectedIndex, $0.searchedFrom] }
        }
        #expect(miss([["type": "x"], ["type": "x", "vc": "b"]], events) == nil)
        #expect(miss([["type": "x", "vc": "b"], ["type": "y"]], events) == [1, 3])
        #expect(miss([["type": "z"]], events) == [0, 0])
        #expect(miss([["type": "x"]], []) == [0, 0])
    }

    @Test("paths read and print as dotted keys and indices")
    func paths() {
        let tree: JSONValue = ["views": ["subviews": [["id": "tabs.view"], ["id": "b"]]]]
        #expect(JSONPath("views.subviews.1.id").value(in: tree) == "b")
        #expect(JSONPath("views.subviews.2.id").value(in: tree) == nil)
        #expect(JSONPath("views.subviews.x").value(in: tree) == nil)
        #expect(JSONPath("views").appending("subviews").appending(0).description == "views.subviews.0")
        #expect(!JSONPath("a..b").isValid)
        #expect(!JSONPath("").isValid)
    }
}
