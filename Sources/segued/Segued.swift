import ArgumentParser
import Logging
import SegueDaemon
import SegueTransport
import SegueVersion

#if canImport(Glibc)
import Glibc
#endif

@main
struct Segued: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segued",
        abstract: "A headless view-controller transition engine with Lua animators, driven over a Unix socket.",
        discussion: """
            With no flags, the config is $XDG_CONFIG_HOME/segued/segued.toml (else ~/.config/segued/segued.toml), \
            else the system-wide $XDG_CONFIG_DIRS/segued/segued.toml (/etc/xdg/segued/segued.toml), else the \
            built-in defaults; the plugins are $XDG_CONFIG_HOME/segued/plugins, then the system folders \
            $XDG_DATA_DIRS/segued/plugins (/usr/local/share and /usr/share; a plugin of the same name in the \
            user's folder wins); the socket is $XDG_RUNTIME_DIR/segued.sock. Paths in a config file are relative \
            to its folder. Flags override the config file (segued.toml(5) lists its keys).

            Stop with SIGTERM or SIGINT (running transitions complete, the socket is removed); SIGHUP re-reads the \
            config file and rescans the plugins folder (as daemon.reload does). Under systemd it takes a socket \
            unit's socket (LISTEN_FDS), notifies readiness and the watchdog (NOTIFY_SOCKET), and logs for the \
            journal (JOURNAL_STREAM); config/segued.service and config/segued.socket are the user units. Metrics: \
            daemon.metrics, or seguectl stats --openmetrics (seguectl(1)).
            """,
        version: SegueVersion.string)

    @Option(help: "The TOML config file (default: $XDG_CONFIG_HOME/segued/segued.toml, if it exists).")
    var config: String?

    @Option(help: "The Unix socket path (default: $XDG_RUNTIME_DIR/segued.sock, else /tmp/segued-$UID.sock).")
    var socket: String?

    @Option(help: "The user's plugins folder (default: $XDG_CONFIG_HOME/segued/plugins).")
    var plugins: String?

    @Option(help: "trace, debug, info, notice, warning, error or critical.")
    var logLevel: String?

    @Option(help: "text or json.")
    var logFormat: String?

    func run() throws {
        let overrides = ConfigOverrides(socketPath: socket, pluginsDir: plugins, logLevel: logLevel, logFormat: logFormat)
        let xdg = XDGPaths.current
        let file = config ?? DaemonConfig.discoverFile(xdg)
        let settings: DaemonConfig
        do throws(DaemonConfig.Problem) {
            settings = try DaemonConfig.resolve(file: file, overrides: overrides)
        } catch {
            writeStandardError("segued: \(error.message)\n")
            throw ExitCode(78)
        }
        let control = LogControl(level: Logger.Level(rawValue: settings.logLevel) ?? .info,
                                 json: settings.logFormat == "json")
        let journal = JournalLogHandler.standardErrorIsJournal()
        LoggingSystem.bootstrap { label in ReloadableLogHandler(label: label, control: control, journal: journal) }
        let logger = Logger(label: "segued")
        logger.info("segued \(SegueVersion.string) starting")
        if let path = settings.file {
            let how = config == nil ? " (the XDG default)" : ""
            logger.info("config from \(path)\(how)", metadata: ["config.file": "\(path)"])
        } else {
            logger.info("no config file at \(xdg.configFile): built-in defaults")
        }
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
