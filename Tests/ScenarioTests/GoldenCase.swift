import Foundation
import SegueCtlKit

/// One recorded case of the golden test: a scenario (from Tests/Scenarios, or a bundled plugin's transitions from
/// Tests/Golden/cases) and the file its record lives in, Tests/Golden/<name>.jsonl.
struct GoldenCase: CustomStringConvertible, Sendable {
    /// `scenario-<file>-<n>` or `plugin-<file>-<n>` (n: the scenario's 1-based place in its file).
    let name: String
    let scenario: Scenario

    var description: String { name }
    var recordPath: String { GoldenCase.folder + "/" + name + ".jsonl" }

    static let folder = repositoryRoot + "/Tests/Golden"

    /// Every case, in a fixed order: the scenario suite, then the plugin cases.
    static let all: [GoldenCase] = {
        var out: [GoldenCase] = []
        for (prefix, folder) in [("scenario", repositoryRoot + "/Tests/Scenarios"), ("plugin", folder + "/cases")] {
            let files = ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? [])
                .filter { $0.hasSuffix(".json") }.sorted()
            for file in files {
                let base = String(file.dropLast(".json".count))
                let text = (try? ScenarioFiles.read(folder + "/" + file)) ?? ""
                // A file that does not parse gives no case here; ScenarioSuiteTests reports it.
                let scenarios = (try? Scenario.parse(text: text, file: file)) ?? []
                for (i, scenario) in scenarios.enumerated() {
                    out.append(GoldenCase(name: "\(prefix)-\(base)-\(i + 1)", scenario: scenario))
                }
            }
        }
        return out
    }()
}
