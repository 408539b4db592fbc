import Foundation
import SegueCtlKit
import SegueJSON
import Testing

/// Behaviour does not change (issue 13): every line the daemon sends — responses and events, frames included — for
/// the scenario suite and the bundled plugins' transitions, compared with the record in Tests/Golden.
///
/// `GOLDEN_RENEW=1 swift test --filter GoldenTests` (or scripts/golden) rewrites the record; a deliberate change
/// renews it in a commit that says why (Tests/Golden/README.md).
@Suite("Golden record: the scenario suite's and the bundled plugins' lines stay the same")
struct GoldenTests {
    static let renew = ProcessInfo.processInfo.environment["GOLDEN_RENEW"] == "1"

    @Test("the daemon sends the recorded lines, numbers within 1e-9", arguments: GoldenCase.all)
    func sameLines(_ golden: GoldenCase) throws {
        // A daemon per case: subscription numbers and scene-less sequence numbers then do not depend on which other
        // cases ran before (or on --filter).
        let daemon = try DaemonLauncher(segued: DaemonLauncher.siblingSegued, plugins: repositoryRoot + "/plugins",
                                        config: repositoryRoot + "/Tests/Golden/segued.toml")
        defer { _ = daemon.stop() }
        let lines = try GoldenRecorder.record(golden, socket: daemon.socket)
        if Self.renew {
            let text = lines.map { $0.value.serialized() + "\n" }.joined()
            try text.write(toFile: golden.recordPath, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOfFile: golden.recordPath, encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: true)
            .map { try JSONParser.parse(String($0)) }
        let differences = GoldenComparison.differences(expected: recorded, actual: lines)
        #expect(differences.isEmpty, """
            \(golden.name) (\(golden.scenario.name)) differs from Tests/Golden/\(golden.name).jsonl:
            \(differences.joined(separator: "\n"))
            """)
    }

    @Test("there are cases: every scenario file and every plugin case file gives at least one")
    func casesExist() throws {
        let names = GoldenCase.all.map(\.name)
        #expect(names.contains { $0.hasPrefix("scenario-") })
        #expect(names.contains { $0.hasPrefix("plugin-") })
        // No stray record: every .jsonl belongs to a case (a removed case's record is removed with it).
        let records = try FileManager.default.contentsOfDirectory(atPath: GoldenCase.folder)
            .filter { $0.hasSuffix(".jsonl") }
        let expected = Set(names.map { $0 + ".jsonl" })
        if !Self.renew { #expect(Set(records) == expected) }
    }

    @Test("a number differing by more than 1e-9, a missing key and an extra line are each reported")
    func comparisonReports() {
        let recorded: [JSONValue] = [["a": 1.0, "b": "x"], ["c": true]]
        let same = recorded.map { GoldenLine(value: $0, cause: "step 1 x") }
        #expect(GoldenComparison.differences(expected: recorded, actual: same).isEmpty)
        let close = [GoldenLine(value: ["a": .number(1.0 + 1e-12), "b": "x"], cause: "s"), same[1]]
        #expect(GoldenComparison.differences(expected: recorded, actual: close).isEmpty)
        let off = [GoldenLine(value: ["a": 1.001, "b": "x"], cause: "step 2 y"), same[1]]
        #expect(GoldenComparison.differences(expected: recorded, actual: off)
                == ["line 1 (step 2 y) a: expected 1, got 1.001"])
        let missing = [GoldenLine(value: ["a": 1.0], cause: "s"), same[1]]
        #expect(GoldenComparison.differences(expected: recorded, actual: missing) == [#"line 1 (s) b: expected "x", got no such key"#])
        let extra = same + [GoldenLine(value: ["d": 2.0], cause: "step 9 z")]
        #expect(GoldenComparison.differences(expected: recorded, actual: extra)
                == [#"2 lines recorded, 3 received; the first extra one (step 9 z): {"d":2}"#])
    }
}
