import ArgumentParser
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

            Examples:
              seguectl test Tests/Scenarios             # against the running daemon
              seguectl test --spawn Tests/Scenarios     # starts its own segued
              seguectl test --spawn --json my-test.json # a JSON report

            Exit status: 0 every scenario passed; 1 one failed; 2 the daemon could not be reached or started, \
            or a file is missing.
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var output: OutputOptions

    @Argument(help: "Scenario files, or folders of them.")
    var files: [String]

    @OptionGroup var spawnOptions: SpawnOptions

    func validate() throws {
        if files.isEmpty { throw ValidationError("give at least one scenario file or folder") }
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
        let json = output.json
        let report = runner.run(files: paths) { result in
            if !json { printLine(result.text) }
        }
        printLine(json ? report.json.serialized() : report.summary)
        if report.failed > 0 { throw ExitCode(1) }
    }
}
