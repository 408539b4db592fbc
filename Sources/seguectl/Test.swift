import ArgumentParser
import Foundation
import SegueClient
import SegueCtlKit
import SegueJSON

struct Test: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run scenario files (scripted integration tests) and print N passed, N failed.",
        discussion: """
            Each scenario runs on its own connection in a fresh manual scene that the runner creates (the \
            connection's current scene, so steps may leave out "scene"; also ${scene}) and destroys afterwards. \
            A folder stands for its *.json files. The README's "Scripted integration tests" describes the format.

            Each result line ends with the scenario's time. --jobs N runs N scenarios at once, each on its own \
            connection; results are still printed in file order. --junit FILE also writes a JUnit XML report \
            (one testcase per scenario with its time; a failure carries the difference text) for CI; --tap prints \
            TAP version 13 instead of text.

            Examples:
              seguectl test Tests/Scenarios             # against the running daemon
              seguectl test --spawn Tests/Scenarios     # starts its own segued
              seguectl test --spawn --json my-test.json # a JSON report
              seguectl test --jobs 4 --junit junit.xml Tests/Scenarios
              seguectl test --filter errors Tests/Scenarios   # names containing "errors"

            Exit status: 0 every scenario passed; 1 one failed; 2 the daemon could not be reached or started, \
            a file is missing, or --filter matches no scenario.
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var output: OutputOptions

    @Argument(help: "Scenario files, or folders of them.")
    var files: [String]

    @Option(help: "Write a JUnit XML report to this file as well.")
    var junit: String?

    @Option(help: "Run only the scenarios whose name contains this text.")
    var filter: String?

    @Option(help: "Run up to N scenarios at once, each on its own connection (reported in file order).")
    var jobs = 1

    @Flag(help: "Print TAP version 13 instead of text.")
    var tap = false

    @OptionGroup var spawnOptions: SpawnOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one scenario file or folder") }
        if jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be 1…256") }
        if tap && output.json { throw ValidationError("give either --tap or --json") }
    }

    func run() throws {
        let paths: [String]
        do throws(ScenarioError) {
            paths = try ScenarioFiles.expand(files)
        } catch {
            printError("seguectl: \(error)")
            throw ExitCode(2)
        }
        let daemon = try spawnOptions.launch()
        let socket = daemon?.socket ?? connection.socket
        defer { daemon?.stop() }
        // Reach the daemon once up front: not being able to is status 2, not N failed scenarios.
        do throws(ClientError) {
            _ = try SegueClient(socketPath: socket).call("daemon.ping")
        } catch {
            printError("seguectl: \(error)")
            throw ExitCode(2)
        }
        let runner = ScenarioRunner { () throws(ClientError) in try SegueClient(socketPath: socket) }
        let entries = ScenarioRunner.entries(files: paths, filter: filter)
        if entries.isEmpty, let filter {
            printError("seguectl: no scenario's name contains '\(filter)'")
            throw ExitCode(2)
        }
        let (json, tap) = (output.json, tap)
        if tap { printLine(TAPReport.header(count: entries.count)) }
        var number = 0
        let report = runner.run(entries, jobs: jobs) { result in
            number += 1
            if tap {
                printLine(TAPReport.line(result, number: number))
            } else if !json {
                printLine(result.text(withTime: true))
            }
        }
        if let junit {
            do {
                try JUnitReport.xml(report).write(toFile: junit, atomically: true, encoding: .utf8)
            } catch {
                printError("seguectl: cannot write \(junit): \(error.localizedDescription)")
                throw ExitCode(2)
            }
        }
        printLine(json ? report.json.serialized() : (tap ? "# " : "") + report.summary)
        if report.failed > 0 { throw ExitCode(1) }
    }
}
