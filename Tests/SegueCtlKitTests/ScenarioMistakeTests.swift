import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SegueClient
import SegueJSON
import Testing

@testable import SegueCtlKit

/// Mistakes in scenario files shown where the writer looks: one bad scenario fails alone, with a did-you-mean;
/// numbering from 1; the protocol's shorthands in expectations; the nearest candidate of a `$contains` miss.
@Suite("Scenario mistakes: each scenario on its own, hints, shorthands")
struct ScenarioMistakeTests {
    static func file(_ text: String) throws -> String {
        let path = NSTemporaryDirectory() + "segue-mistake-\(UUID().uuidString).json"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    static func daemon() -> FakeConnection {
        FakeConnection { method, params in
            method == "scene.create" ? (.success(["scene": params?["id"] ?? "x"]), []) : (.success(["ok": true]), [])
        }
    }

    @Test("one unknown key fails its scenario alone, with the nearest key; the file's other scenarios run")
    func oneBadScenario() throws {
        let path = try Self.file("""
            [{"name": "first", "steps": [{"call": "daemon.ping"}]},
             {"name": "typo", "steps": [{"call": "daemon.ping", "expcet": {"ok": true}}]},
             {"steps": [{"call": "daemon.ping"}]},
             {"name": "last", "steps": [{"call": "daemon.ping", "expect": {"ok": true}}]}]
            """)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let daemon = Self.daemon()
        let report = ScenarioRunner { () throws(ClientError) in daemon }.run(files: [path])
        #expect(report.results.map(\.name) == ["first", "typo", "scenario 3", "last"])
        #expect(report.results.map(\.passed) == [true, false, false, true])
        #expect(report.summary == "2 passed, 2 failed (2 could not run)")
        let typo = try #require(report.results[1].failure)
        #expect(typo.cannotRun)
        #expect(typo.message == "invalid scenario: scenario 2: step 1: unknown key 'expcet' (did you mean 'expect'?); "
            + "known: call, params, expect, capture, events, all_events, error, tolerance, note")
        #expect(report.results[2].failure?.message?.contains("scenario 3: 'name'") == true)
        #expect(daemon.methods.filter { $0 == "daemon.ping" }.count == 2)
    }

    @Test("a filter applies to an invalid scenario's name too")
    func filterInvalid() throws {
        let path = try Self.file(#"[{"name": "keep a", "steps": [{"call": "x"}]}, {"name": "b", "stepz": []}]"#)
        defer { try? FileManager.default.removeItem(atPath: path) }
        let entries = ScenarioRunner.entries(files: [path], filter: "keep")
        #expect(entries.count == 1)
    }

    @Test("a misspelt method fails its scenario before anything runs, naming the nearest method")
    func unknownMethod() throws {
        let daemon = Self.daemon()
        let runner = ScenarioRunner { () throws(ClientError) in daemon }
        runner.methods = ["daemon.ping", "container.select", "scene.create"]
        let result = runner.run(try scenario("""
            {"name": "m", "steps": [{"call": "daemon.ping"}, {"call": "contaner.select"}]}
            """))
        #expect(result.failure?.message == "invalid scenario: step 2: unknown method 'contaner.select' (did you mean 'container.select'?)")
        #expect(result.failure?.cannotRun == true)
        #expect(daemon.requests.isEmpty)
        // A step that expects the method to be unknown is left to run.
        let expected = runner.run(try scenario("""
            {"name": "m", "steps": [{"call": "no.such", "error": {"code": -32601}}]}
            """))
        #expect(expected.failure?.cannotRun != true)
    }

    @Test("JUnit: a scenario that cannot run is an <error>, counted in errors; a failure's message is its first difference")
    func junitErrors() throws {
        var bad = ScenarioResult(name: "x.json", file: "x.json", stepsRun: 0,
                                 failure: ScenarioFailure(message: "invalid scenario file: cannot read x.json", cannotRun: true))
        bad.duration = 0
        let failed = ScenarioResult(name: "f", file: "y.json", stepsRun: 2, failure: ScenarioFailure(
            step: 2, method: "vc.get", mismatches: [Mismatch(path: "result.alpha", expected: "1", got: "0.5")]))
        let xml = JUnitReport.xml(ScenarioReport(results: [bad, failed]))
        #expect(xml.contains(#"tests="2" failures="1" errors="1""#))
        #expect(xml.contains(#"<testsuite name="x.json" tests="1" failures="0" errors="1""#))
        #expect(xml.contains(#"<error message="invalid scenario file: cannot read x.json" type="invalid">"#))
        #expect(xml.contains(#"<failure message="step 2 vc.get: result.alpha: expected 1, got 0.5" type="mismatch">"#))
        #expect(XMLParser(data: Data(xml.utf8)).parse())
    }

    @Test("the protocol's shorthands match in expectations: \"identity\", 2-D and 4x4 transforms, #rrggbb and #rrggbbff")
    func shorthands() {
        let m = JSONMatcher()
        let identity: JSONValue = ["a": 1, "b": 0, "c": 0, "d": 1, "tx": 0, "ty": 0]
        #expect(m.matches(["transform": "identity"], ["transform": identity]))
        #expect(m.matches("identity", ["m": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1]]))
        #expect(!m.matches("identity", ["a": 2, "b": 0, "c": 0, "d": 1, "tx": 0, "ty": 0]))
        #expect(m.matches(["m": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1]], ["a": 1, "b": 0, "c": 0, "d": 1, "tx": 5, "ty": 6]))
        #expect(m.matches(["a": 1, "b": 0, "c": 0, "d": 1, "tx": 5, "ty": 6], ["m": [1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 5, 6, 0, 1]]))
        #expect(m.matches(["color": "#FF3B30FF"], ["color": "#ff3b30"]))
        #expect(m.matches("#ff3b30", "#ff3b30ff"))
        #expect(!m.matches("#ff3b30", "#ff3b3080"))
        #expect(!m.matches("identity", "identity2"))
        // A 2-D expectation against a 2-D answer still reports per key.
        let differences = m.mismatches(expected: ["tx": 4], actual: identity, at: JSONPath("t")).map(\.description)
        #expect(differences == ["t.tx: expected 4, got 0"])
    }

    @Test("a $contains miss shows how the nearest element differs, not a dump")
    func containsNearest() {
        let actual: JSONValue = [["id": "a", "alpha": 1, "hidden": false], ["id": "b", "alpha": 0.5, "hidden": true]]
        let found = JSONMatcher().mismatches(expected: ["$contains": [["id": "b", "alpha": 1, "hidden": true]]],
                                             actual: actual, at: JSONPath("result.views"))
        #expect(found.count == 1)
        #expect(found.first?.got == "the nearest, result.views.1 (element 2), differs: result.views.1.alpha: expected 1, got 0.5")
    }

    @Test("the step's events and all_events differences are numbered from 1")
    func eventNumbers() throws {
        let daemon = FakeConnection { method, params in
            if method == "scene.create" { return (.success(["scene": params?["id"] ?? "x"]), []) }
            return (.success([:]), [["type": "a"], ["type": "b", "vc": "x"]])
        }
        let result = ScenarioRunner { () throws(ClientError) in daemon }.run(try scenario("""
            {"name": "e", "steps": [{"call": "go", "all_events": ["a", {"type": "b", "vc": "y"}]}]}
            """))
        #expect(result.failure?.mismatches.map(\.description) == [#"event 2: vc: expected "y", got "x""#])
        #expect(result.text.contains("  1: a\n"))
        #expect(result.text.contains("  2: b vc=x"))
    }
}
