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
              seguectl test --record Tests/Scenarios    # write missing motion snapshots
              seguectl test --motion --tolerance alpha=0.01,frame=0.5 Tests/Scenarios
              seguectl test --update Tests/Scenarios/flip.json  # accept the new motion

            Motion snapshots: NAME.motion.json beside a scenario file holds each manual-clock scenario's \
            transitions (every frame's presentation values and the events). When it exists, a run compares the \
            new motion with it and, on a difference, fails the scenario and writes an SVG of the old and new \
            curves and the first differing frame (beside the --junit report, else beside the snapshot).

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

    @Flag(help: "Motion snapshots: a manual-clock scenario without one in NAME.motion.json fails (they are compared whenever the file exists).")
    var motion = false

    @Flag(help: "Write the motion snapshot of each manual-clock scenario that has none (NAME.motion.json beside the file).")
    var record = false

    @Flag(help: "Accept the new motion: rewrite every manual-clock scenario's snapshot.")
    var update = false

    @Option(help: "Motion tolerances, e.g. alpha=0.01,frame=0.5 (a property, time, or * for the rest; default 1e-6).")
    var tolerance: String?

    @OptionGroup var spawnOptions: SpawnOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one scenario file or folder") }
        if jobs < 1 || jobs > 256 { throw ValidationError("--jobs must be 1…256") }
        if tap && output.json { throw ValidationError("give either --tap or --json") }
        if record && update { throw ValidationError("give either --record or --update") }
        if let tolerance, MotionTolerance.parse(tolerance) == nil {
            throw ValidationError("--tolerance must be PROPERTY=NUMBER pairs separated by commas, e.g. alpha=0.01,frame=0.5")
        }
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
        // Its method list (rpc.discover) lets a step calling a misspelt method fail its scenario before it runs.
        var methods: Set<String>?
        do throws(ClientError) {
            let client = try SegueClient(socketPath: socket)
            _ = try client.call("daemon.ping")
            if case .array(let list)? = (try? client.call("rpc.discover"))?["methods"] {
                methods = Set(list.compactMap { $0["name"]?.stringValue })
            }
        } catch {
            printError("seguectl: \(error)")
            throw ExitCode(2)
        }
        let runner = ScenarioRunner { () throws(ClientError) in try SegueClient(socketPath: socket) }
        runner.methods = methods
        // Motion snapshots are compared whenever a scenario file has one; the flags record, update or require them.
        runner.motion = MotionOptions(
            mode: update ? .update : (record ? .record : .compare), requireSnapshot: motion,
            tolerance: tolerance.flatMap(MotionTolerance.parse) ?? MotionTolerance(),
            pictureFolder: junit.map { URL(fileURLWithPath: $0).deletingLastPathComponent().path })
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
        do throws(ScenarioError) {
            for path in try ScenarioRunner.writeMotion(report) where !json && !tap { printLine("wrote \(path)") }
        } catch {
            printError("seguectl: \(error)")
            throw ExitCode(2)
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
