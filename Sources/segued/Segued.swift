import ArgumentParser
import Logging
import SegueDaemon

#if canImport(Glibc)
import Glibc
#endif

@main
struct Segued: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segued",
        abstract: "A headless view-controller transition engine with Lua animators, driven over a Unix socket.",
        discussion: """
            Flags override the config file. Stop with SIGTERM or SIGINT (running transitions complete, the socket is \
            removed); SIGHUP re-reads the config file and rescans the plugins folder (as daemon.reload does).
            """)

    @Option(help: "The TOML config file (every key documented in config/segued.toml).")
    var config: String?

    @Option(help: "The Unix socket path (default: $XDG_RUNTIME_DIR/segued.sock, else /tmp/segued-$UID.sock).")
    var socket: String?

    @Option(help: "The plugins folder.")
    var plugins: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Option(help: "text or json.")
    var logFormat: String?

    func run() throws {
        let overrides = ConfigOverrides(socketPath: socket, pluginsDir: plugins, logLevel: logLevel, logFormat: logFormat)
        let settings: DaemonConfig
        do throws(DaemonConfig.Problem) {
            settings = try DaemonConfig.resolve(file: config, overrides: overrides)
        } catch {
            writeStandardError("segued: \(error.message)\n")
            throw ExitCode(78)
        }
        let control = LogControl(level: Logger.Level(rawValue: settings.logLevel) ?? .info, json: settings.logFormat == "json")
        LoggingSystem.bootstrap { label in ReloadableLogHandler(label: label, control: control) }
        let logger = Logger(label: "segued")
        let daemon = Daemon(config: settings, logger: logger)
        daemon.overrides = overrides
        daemon.logControl = control
        let server: Server
        do throws(ServerError) {
            server = try Server(daemon: daemon)
            server.installSignalHandlers()
            server.startStallDetector()
            try server.start()
        } catch {
            writeStandardError("segued: \(error.message)\n")
            throw ExitCode(1)
        }
        server.waitUntilStopped()
    }
}
