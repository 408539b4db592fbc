import ArgumentParser
import SegueCtlKit

#if canImport(Glibc)
import Glibc
#endif

/// `seguectl studio`: starts `segue-studio` from beside seguectl (its own executable, so seguectl neither builds
/// nor loads SwiftNIO's HTTP stack) in this process's place.
struct Studio: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Serve the studio: a live page on 127.0.0.1 that plays, scrubs and hot-reloads animators.",
        discussion: """
            Prints the page's address, with its secret token, on the first line; every request without the token \
            is refused (403). --open writes a private redirect file (0600) and opens that, so the token is never on \
            a command line. Stop it with Ctrl-C.

            Examples:
              seguectl studio --open
              seguectl studio --port 8700 --socket /tmp/s.sock
            """)

    @OptionGroup var connection: Connection

    @Option(help: "The port on 127.0.0.1 (default: a free one).")
    var port: Int?

    @Flag(help: "Open the page in the browser (xdg-open, or $BROWSER) through a private redirect file.")
    var open = false

    @Option(help: "How many pages may be open at once; each holds a daemon connection (default 16).")
    var maxSessions: Int?

    @Option(help: "The segue-studio to run (default: the one next to seguectl).")
    var studio: String?

    func run() throws {
        let path = studio ?? DaemonLauncher.executableDirectory + "/segue-studio"
        var arguments = [path, "--socket", connection.socket]
        if let port { arguments += ["--port", String(port)] }
        if let maxSessions { arguments += ["--max-sessions", String(maxSessions)] }
        if open { arguments.append("--open") }
        let argv = arguments.map { strdup($0) } + [nil]
        execv(path, argv)
        // Only reached when exec failed.
        let reason = String(cString: strerror(errno))
        printError("seguectl: cannot start \(path): \(reason) (build it with `swift build --product segue-studio`)")
        throw ExitCode(2)
    }
}
