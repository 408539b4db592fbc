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
            removed); SIGHUP rescans the plugins folder.
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
        var settings = DaemonConfig()
        if let config {
            do throws(DaemonConfig.Problem) {
                settings = try DaemonConfig.load(file: config)
            } catch {
                writeStandardError("segued: \(error.message)\n")
                throw ExitCode(78)
            }
        }
        if let socket { settings.socketPath = socket }
        if let plugins { settings.pluginsDir = plugins }
        if let logLevel {
            guard DaemonConfig.logLevels.contains(logLevel) else {
                throw ValidationError("--log-level must be one of \(DaemonConfig.logLevels.joined(separator: ", "))")
            }
            settings.logLevel = logLevel
        }
        if let logFormat {
            guard logFormat == "text" || logFormat == "json" else { throw ValidationError("--log-format must be text or json") }
            settings.logFormat = logFormat
        }
        let level = Logger.Level(rawValue: settings.logLevel) ?? .info
        let json = settings.logFormat == "json"
        LoggingSystem.bootstrap { label in
            var handler: any LogHandler = json ? JSONLogHandler(label: label) : StreamLogHandler.standardError(label: label)
            handler.logLevel = level
            return handler
        }
        let logger = Logger(label: "segued")
        let daemon = Daemon(config: settings, logger: logger)
        let server = Server(daemon: daemon)
        server.installSignalHandlers()
        do throws(ServerError) {
            try server.start()
        } catch {
            writeStandardError("segued: \(error.message)\n")
            throw ExitCode(1)
        }
        server.waitUntilStopped()
    }
}
