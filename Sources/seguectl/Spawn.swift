import ArgumentParser
import SegueClient
import SegueCtlKit
import SegueJSON

/// `--spawn` and its companions, for subcommands that can start a segued of their own.
struct SpawnOptions: ParsableArguments {
    @Flag(help: "Start a segued of its own on a temporary socket, with the bundled plugins and config; stop it after.")
    var spawn = false

    @Option(help: "The segued to start with --spawn (default: the one next to seguectl).")
    var segued: String?

    @Option(help: "The plugins folder for --spawn (default: the repository's plugins/).")
    var plugins: String?

    @Option(help: "The config file for --spawn (default: the repository's config/segued.toml).")
    var config: String?

    func validate() throws {
        if !spawn, segued != nil || plugins != nil || config != nil {
            throw ValidationError("--segued, --plugins and --config go with --spawn")
        }
    }

    /// The daemon started with --spawn (nil without it); exit status 2 when it cannot start.
    func launch() throws -> DaemonLauncher? {
        guard spawn else { return nil }
        let bundled = DaemonLauncher.bundledResources()
        let daemon: DaemonLauncher
        do throws(ScenarioError) {
            daemon = try DaemonLauncher(segued: segued ?? DaemonLauncher.siblingSegued,
                                        plugins: plugins ?? bundled?.plugins, config: config ?? bundled?.config)
        } catch {
            printError("seguectl: \(error)")
            throw ExitCode(2)
        }
        // Outside the checkout, with nothing installed, the daemon would otherwise run quietly with no animators.
        if let warning = daemon.missingPluginsWarning() { printError("seguectl: warning: \(warning)") }
        return daemon
    }

    /// A client of the daemon `launch` started, or of the one `connection` names; exit status 2 when the started
    /// daemon does not answer.
    func client(of daemon: DaemonLauncher?, else connection: Connection) throws -> SegueClient {
        guard let daemon else { return try connection.connect() }
        do throws(ClientError) { return try SegueClient(socketPath: daemon.socket) } catch {
            printError("seguectl: \(error)")
            throw ExitCode(2)
        }
    }
}

extension SegueClient {
    /// Calls one method, mapping failures to the documented exit status (1: the daemon's error, 2: no answer).
    func callOrExit(_ method: String, _ params: JSONObject) throws -> JSONValue {
        do throws(ClientError) {
            return try call(method, params, timeoutMs: 120_000)
        } catch {
            throw failure(error)
        }
    }
}
