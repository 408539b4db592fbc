import ArgumentParser
import Foundation
import SegueClient
import SegueStudio
import SegueVersion

/// `segue-studio` (started by `seguectl studio`): serves the studio page on 127.0.0.1 and prints its address, token
/// included, on the first line of its output.
@main
struct SegueStudioCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "segue-studio",
        abstract: "Serve the studio page on 127.0.0.1: live plugins, playing, scrubbing, hot reload (seguectl studio).",
        version: SegueVersion.string)

    @Option(help: """
        The daemon's socket (default: $SEGUED_SOCKET, else $XDG_RUNTIME_DIR/segued.sock, else /tmp/segued-$UID.sock).
        """)
    var socket: String?

    @Option(help: "The port on 127.0.0.1 (default: a free one).")
    var port: Int = 0

    @Option(help: "How many pages may be open at once; each holds a daemon connection (default 16).")
    var maxSessions: Int = 16

    @Flag(help: "Open the page in the browser (through a private 0600 file, so the token is never on a command line).")
    var open = false

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("--port must be 0…65535") }
        guard (1...4096).contains(maxSessions) else { throw ValidationError("--max-sessions must be 1…4096") }
    }

    func run() throws {
        // A process started by another (a test runner, a service manager) may inherit SIGTERM and SIGINT blocked
        // or ignored; the studio has nothing to clean up, so both simply end it. Set before NIO's threads exist,
        // which inherit the mask.
        var none = sigset_t()
        sigemptyset(&none)
        sigprocmask(SIG_SETMASK, &none, nil)
        signal(SIGTERM, SIG_DFL)
        signal(SIGINT, SIG_DFL)
        let socketPath = SegueClient.socketPath(given: socket)
        guard let token = StudioToken.make() else {
            FileHandle.standardError.write(Data("segue-studio: cannot read /dev/urandom for a token\n".utf8))
            throw ExitCode(2)
        }
        let server: StudioServer
        do {
            server = try StudioServer(socketPath: socketPath, port: port, token: token, maxSessions: maxSessions) { message in
                FileHandle.standardError.write(Data("segue-studio: \(message)\n".utf8))
            }
        } catch {
            FileHandle.standardError.write(Data("segue-studio: cannot listen on 127.0.0.1:\(port): \(error)\n".utf8))
            throw ExitCode(2)
        }
        // Written straight to the file descriptor (not buffered), so a script reading the first line gets it now.
        FileHandle.standardOutput.write(Data((server.url + "\n").utf8))
        FileHandle.standardError.write(Data("segue-studio: serving the daemon at \(socketPath); stop with Ctrl-C\n".utf8))
        if open {
            do {
                try StudioOpener.open(url: server.url)
            } catch {
                FileHandle.standardError.write(Data("segue-studio: cannot open a browser: \(error)\n".utf8))
            }
        }
        try server.wait()
    }
}
