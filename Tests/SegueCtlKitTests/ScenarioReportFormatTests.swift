import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import SegueClient
import SegueJSON
import Testing

@testable import SegueCtlKit

/// JUnit XML and TAP reports, --filter, and --jobs reporting in file order.
@Suite("Scenario reports: JUnit, TAP, filter and jobs")
struct ScenarioReportFormatTests {
    static func result(_ name: String, file: String, failure: ScenarioFailure? = nil, duration: Double) -> ScenarioResult {
        var r = ScenarioResult(name: name, file: file, stepsRun: 2, failure: failure)
        r.duration = duration
        return r
    }

    static let failure = ScenarioFailure(step: 3, method: "container.select", note: "a <note> & more",
                                         mismatches: [Mismatch(path: "result.duration", expected: "0.3", got: "0.28")])

    @Test("JUnit: one testsuite per file, one testcase per scenario with its time, a failure carrying the difference")
    func junit() throws {
        let report = ScenarioReport(results: [
            Self.result("a passes", file: "Tests/Scenarios/one.json", duration: 0.0125),
            Self.result("b \"fails\"", file: "Tests/Scenarios/one.json", failure: Self.failure, duration: 0.5),
            Self.result("c", file: "./two.json", duration: 1),
        ])
        let xml = JUnitReport.xml(report)
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n"))
        #expect(xml.contains(#"<testsuites name="seguectl test" tests="3" failures="1" errors="0" time="1.5125">"#))
        #expect(xml.contains(#"<testsuite name="Tests/Scenarios/one.json" tests="2" failures="1" errors="0" skipped="0" time="0.5125">"#))
        #expect(xml.contains(#"<testcase name="a passes" classname="Tests.Scenarios.one" file="Tests/Scenarios/one.json" time="0.0125"/>"#))
        #expect(xml.contains(#"<testcase name="b &quot;fails&quot;" classname="Tests.Scenarios.one""#))
        #expect(xml.contains(#"<failure message="step 3 container.select: result.duration: expected 0.3, got 0.28" type="mismatch">"#
            + "step 3 container.select (a &lt;note&gt; &amp; more):\n  result.duration: expected 0.3, got 0.28</failure>"))
        #expect(xml.contains(#"classname="two" file="./two.json" time="1"/>"#))
        #expect(xml.hasSuffix("</testsuites>\n"))
        // Well-formed: Foundation's parser reads it.
        let parser = XMLParser(data: Data(xml.utf8))
        #expect(parser.parse(), "\(parser.parserError.map { "\($0)" } ?? "")")
    }

    @Test("JUnit escaping: markup characters become entities, control characters XML cannot carry become U+FFFD")
    func escaping() {
        #expect(JUnitReport.escape("a<b>&\"c'\t\n\u{01}\u{1F}é") == "a&lt;b&gt;&amp;&quot;c&apos;\t\n\u{FFFD}\u{FFFD}é")
        let xml = JUnitReport.xml(ScenarioReport(results: [
            Self.result("bell\u{07}", file: "x.json", failure: ScenarioFailure(message: "got \u{00}"), duration: 0),
        ]))
        #expect(XMLParser(data: Data(xml.utf8)).parse())
        #expect(xml.contains(#"type="error">got \#u{FFFD}</failure>"#))
    }

    @Test("TAP: the plan, ok / not ok with the time, and the difference as a YAML block")
    func tap() {
        #expect(TAPReport.header(count: 2) == "TAP version 13\n1..2")
        #expect(TAPReport.line(Self.result("a # b", file: "x.json", duration: 0.012), number: 1) == "ok 1 - a \\# b # time=12ms")
        #expect(TAPReport.line(Self.result("b", file: "x.json", failure: Self.failure, duration: 0.0005), number: 2) == """
            not ok 2 - b # time=0.5ms
              ---
              message: |
                step 3 container.select (a <note> & more):
                  result.duration: expected 0.3, got 0.28
              file: "x.json"
              ...
            """)
    }

    @Test("text output ends each scenario's first line with its time; the plain text stays without it")
    func timedText() {
        let pass = Self.result("ok", file: "ok", duration: 0.0421)
        #expect(pass.text == "PASS  ok")
        #expect(pass.text(withTime: true) == "PASS  ok  42 ms")
        let fail = Self.result("bad", file: "t.json", failure: ScenarioFailure(message: "boom"), duration: 2.5)
        #expect(fail.text(withTime: true) == "FAIL  bad  (t.json)  2.5 s\n      boom")
        #expect(Self.result("x", file: "x", duration: 0.00123).text(withTime: true) == "PASS  x  1.2 ms")
        #expect(pass.json["time"] == 0.0421)
    }

    /// A scenario file with three scenarios, each one request besides set-up.
    static func threeScenarios() throws -> String {
        let path = NSTemporaryDirectory() + "segue-three-\(UUID().uuidString).json"
        try """
            [{"name": "first alpha", "steps": [{"call": "daemon.ping"}]},
             {"name": "second beta", "steps": [{"call": "daemon.ping"}]},
             {"name": "third alpha", "steps": [{"call": "daemon.ping"}]}]
            """.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test("--filter keeps the scenarios whose name contains the text; an unreadable file is kept")
    func filter() throws {
        let file = try Self.threeScenarios()
        let entries = ScenarioRunner.entries(files: [file, "/nonexistent.json"], filter: "alpha")
        let names = entries.map { entry -> String in
            switch entry {
            case .scenario(let s): s.name
            case .invalid(let r): r.name
            }
        }
        #expect(names == ["first alpha", "third alpha", "/nonexistent.json"])
        #expect(ScenarioRunner.entries(files: [file], filter: "gamma").isEmpty)
    }

    @Test("--jobs: scenarios run at once on their own connections, and are reported in file order")
    func jobsReportInFileOrder() throws {
        let file = try Self.threeScenarios()
        // The first scenario cannot finish until the third has: with three jobs, the third finishes first.
        let thirdDone = DispatchSemaphore(value: 0)
        let log = Log()
        let runner = ScenarioRunner { () throws(ClientError) in
            FakeConnection { method, params in
                let scene = params?["scene"]?.stringValue ?? params?["id"]?.stringValue ?? ""
                if method == "scene.create", scene.hasSuffix("-1") {
                    _ = thirdDone.wait(timeout: .now() + 10)
                }
                if method == "scene.destroy" {
                    log.append("finished " + String(scene.suffix(1)))
                    if scene.hasSuffix("-3") { thirdDone.signal() }
                }
                return (.success(method == "daemon.ping" ? "pong" : [:]), [])
            }
        }
        let report = runner.run(files: [file], jobs: 3) { result in log.append("reported " + result.name) }
        #expect(report.results.map(\.name) == ["first alpha", "second beta", "third alpha"])
        #expect(report.passed == 3)
        let lines = log.lines
        #expect(lines.filter { $0.hasPrefix("reported") } == ["reported first alpha", "reported second beta", "reported third alpha"])
        let third = try #require(lines.firstIndex(of: "finished 3"))
        let first = try #require(lines.firstIndex(of: "finished 1"))
        #expect(third < first, "the third scenario finished before the first: \(lines)")
        #expect(lines.firstIndex(of: "reported third alpha") ?? 0 > first)
    }

    @Test("--jobs 1 and --jobs 4 give the same report")
    func jobsSameReport() throws {
        let file = try Self.threeScenarios()
        let connect: ScenarioRunner.Connect = { () throws(ClientError) in
            FakeConnection { method, _ in (.success(method == "daemon.ping" ? "pong" : [:]), []) }
        }
        let one = ScenarioRunner(connect: connect).run(files: [file, file], jobs: 1)
        let four = ScenarioRunner(connect: connect).run(files: [file, file], jobs: 4)
        #expect(one.results.map(\.name) == four.results.map(\.name))
        #expect(four.results.count == 6 && four.passed == 6)
    }
}

/// Lines appended from several threads.
final class Log: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ line: String) {
        lock.lock()
        storage.append(line)
        lock.unlock()
    }
    var lines: [String] {
        lock.lock()
        defer { lock.unlock() }
        return storage
    }
}
