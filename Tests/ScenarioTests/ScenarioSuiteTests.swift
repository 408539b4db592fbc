import Foundation
import SegueClient
import SegueCtlKit
import SegueJSON
import Testing

let repositoryRoot: String = {
    var parts = #filePath.split(separator: "/", omittingEmptySubsequences: false)
    parts.removeLast(3)
    return parts.joined(separator: "/")
}()

/// The built executables sit next to the test bundle.
let seguectl = DaemonLauncher.executableDirectory + "/seguectl"

/// A segued of our own with the bundled plugins and config.
func startDaemon() throws -> DaemonLauncher {
    try DaemonLauncher(segued: DaemonLauncher.siblingSegued, plugins: repositoryRoot + "/plugins",
                       config: repositoryRoot + "/config/segued.toml")
}

@Suite("The scenario suite (Tests/Scenarios) against a real segued")
struct ScenarioSuiteTests {
    @Test("every scenario in Tests/Scenarios passes")
    func suitePasses() throws {
        let daemon = try startDaemon()
        defer { daemon.stop() }
        let files = try ScenarioFiles.expand([repositoryRoot + "/Tests/Scenarios"])
        let socket = daemon.socket
        let report = ScenarioRunner { () throws(ClientError) in try SegueClient(socketPath: socket) }.run(files: files)
        #expect(report.results.count >= 5)
        #expect(report.failed == 0, "\(report.text)")
    }

    @Test("every bundled plugin has a scenario that names it")
    func scenarioPerPlugin() throws {
        let daemon = try startDaemon()
        defer { daemon.stop() }
        let list = try SegueClient(socketPath: daemon.socket).call("plugins.list").arrayValue ?? []
        let names = list.compactMap { $0["name"]?.stringValue }
        #expect(names.contains("dt-slide"))
        var texts: [String] = []
        for file in try ScenarioFiles.expand([repositoryRoot + "/Tests/Scenarios"]) {
            texts.append(try ScenarioFiles.read(file))
        }
        for name in names {
            // Named as a value: "animator": "flip", "delegate": "dt-slide-delegate", …
            let named = texts.contains { $0.contains(": \"\(name)\"") || $0.contains(":\"\(name)\"") }
            #expect(named, "no scenario in Tests/Scenarios uses the bundled plugin \(name)")
        }
    }

    @Test("every scenario file parses")
    func filesParse() throws {
        for file in try ScenarioFiles.expand([repositoryRoot + "/Tests/Scenarios"]) {
            #expect(throws: Never.self, "\(file)") { try Scenario.parse(text: try ScenarioFiles.read(file), file: file) }
        }
    }
}

@Suite("The README's scenario example")
struct ReadmeScenarioTests {
    @Test("the example in \"Scripted integration tests\" parses and passes")
    func readmeExamplePasses() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let section = try #require(readme.range(of: "## Scripted integration tests"))
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```json\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```"))
        let text = String(rest[open.upperBound..<close.lowerBound])
        let scenarios = try Scenario.parse(text: text, file: "README.md")
        let daemon = try startDaemon()
        defer { daemon.stop() }
        let socket = daemon.socket
        let runner = ScenarioRunner { () throws(ClientError) in try SegueClient(socketPath: socket) }
        for scenario in scenarios {
            let result = runner.run(scenario)
            #expect(result.passed, "\(result.text)")
            #expect(result.stepsRun == scenario.steps.count)
        }
    }

    @Test("every --filter example (README, seguectl test --help) selects some scenario of Tests/Scenarios")
    func filterExamplesSelectSomething() throws {
        let readme = try String(contentsOfFile: repositoryRoot + "/README.md", encoding: .utf8)
        let help = try String(contentsOfFile: repositoryRoot + "/Sources/seguectl/Test.swift", encoding: .utf8)
        let filters = (readme + help).split(separator: "\n").compactMap { line -> String? in
            guard line.contains("seguectl test"), line.contains("Tests/Scenarios"),
                  let flag = line.range(of: "--filter ") else { return nil }
            return line[flag.upperBound...].split(separator: " ").first.map(String.init)
        }
        #expect(filters.count >= 2, "the examples were not found: \(filters)")
        var names: [String] = []
        for file in try ScenarioFiles.expand([repositoryRoot + "/Tests/Scenarios"]) {
            names += try Scenario.parse(text: try ScenarioFiles.read(file), file: file).map(\.name)
        }
        for filter in filters {
            #expect(names.contains { $0.contains(filter) }, "no scenario's name contains '\(filter)'")
        }
    }
}
