import SegueJSON
import Testing

@testable import SegueDaemon

/// `plugins.check` returns a typed report (SegueLua's `CheckReport`) that the daemon encodes: the lines are the ones
/// 5b8ba87 sent, when SegueLua built the JSON itself (Tests/Fixtures/check-reports.jsonl, recorded from it), with
/// issue 29's additions: `strict`, `warnings`, each problem's `severity`, and tracebacks without the host's frames.
@Suite("plugins.check's report on the wire")
struct CheckReportEncodingTests {
    @Test("the daemon writes the report as it was written before: same members, order and values")
    func sameLines() throws {
        let recorded = try String(contentsOfFile: repositoryRoot + "/Tests/Fixtures/check-reports.jsonl", encoding: .utf8)
            .split(separator: "\n").map { try JSONParser.parse(String($0)) }
        #expect(recorded.count == 2)
        let h = try Harness { $0.pluginsDir = repositoryRoot + "/Tests/Fixtures/check-ports" }
        let requests: [(Int, JSONValue)] = [
            (1, ["name": "private-animated-transition", "size": ["w": 200, "h": 300]]),
            (2, ["name": "panel-slide", "presentation": "panel"]),
        ]
        for (i, (id, params)) in requests.enumerated() {
            let line = try #require(try h.call("plugins.check", params, id: .number(Double(id))).last)
            #expect(line.serialized() == recorded[i].serialized())
        }
    }
}
