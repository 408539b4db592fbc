import ArgumentParser
import SegueClient
import SegueCtlKit
import SegueJSON
import SegueVersion

#if canImport(Glibc)
import Glibc
#endif

@main
struct SegueCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seguectl",
        abstract: "Talk to segued over its Unix socket.",
        discussion: """
            Examples:
              seguectl call daemon.ping
              seguectl call scene.create '{"id":"main","size":{"w":320,"h":480}}'
              seguectl tree --scene main --presentation
              seguectl plugins
              seguectl check dt-slide
              seguectl stats
              seguectl test --spawn Tests/Scenarios
              seguectl preview flip --kind push
              seguectl filmstrip dt-slide cross-dissolve --out strips.svg
              seguectl movie flip --kind push --out flip.gif
              seguectl studio --open

            The socket is --socket PATH (before or after the subcommand), else $SEGUED_SOCKET, else \
            $XDG_RUNTIME_DIR/segued.sock, else /tmp/segued-$UID.sock. tree, plugins, check, stats and test take \
            --json to print the raw JSON result instead of text. Each invocation is a new connection.

            Exit status: 0 success; 1 the daemon answered with an error, or a check or a scenario failed; \
            2 the daemon could not be reached, or the arguments were wrong.
            """,
        version: SegueVersion.string,
        subcommands: [Call.self, Watch.self, Tree.self, Plugins.self, Check.self, Stats.self, Test.self, Preview.self,
                      FilmstripCommand.self, MovieCommand.self, Studio.self])

    /// Parses and runs like ArgumentParser's own `main`, except that a usage error exits with status 2 (as
    /// documented) rather than EX_USAGE.
    static func main() {
        do {
            var command = try parseAsRoot(SocketArgument.movedAfterSubcommand(Array(CommandLine.arguments.dropFirst())))
            try command.run()
        } catch {
            if exitCode(for: error) == .validationFailure {
                printError(fullMessage(for: error))
                Glibc.exit(2)
            }
            exit(withError: error)
        }
    }
}

/// Options every subcommand takes.
struct Connection: ParsableArguments {
    @Option(name: .customLong("socket"), help: """
        The daemon's socket (default: $SEGUED_SOCKET, else $XDG_RUNTIME_DIR/segued.sock, else /tmp/segued-$UID.sock).
        """, completion: .file())
    var socketOption: String?

    /// The socket to use: `--socket`, else `SEGUED_SOCKET`, else the daemon's own default.
    var socket: String { SocketArgument.resolve(flag: socketOption) }

    func connect() throws -> SegueClient {
        do throws(ClientError) {
            return try SegueClient(socketPath: socket)
        } catch {
            printError("seguectl: \(error)")
            throw ExitCode(2)
        }
    }

    /// Calls one method, mapping failures to the documented exit status (1: the daemon's error, 2: no answer).
    func call(_ method: String, _ params: JSONObject? = nil) throws -> JSONValue {
        let client = try connect()
        do throws(ClientError) {
            return try client.call(method, params)
        } catch {
            throw failure(error)
        }
    }
}

/// `--json` for the subcommands that print text by default.
struct OutputOptions: ParsableArguments {
    @Flag(help: "Print the raw JSON result instead of text.")
    var json = false
}

/// Prints the error and gives the exit status for it: 1 for a JSON-RPC error, 2 otherwise.
func failure(_ error: ClientError) -> ExitCode {
    printError("seguectl: \(error)")
    if case .rpc = error { return ExitCode(1) }
    return ExitCode(2)
}

func printError(_ text: String) {
    var bytes = Array((text + "\n").utf8)
    _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress, $0.count) }
}

/// Prints a line and flushes, so pipes see events as they come.
func printLine(_ text: String) {
    print(text)
    fflush(nil)
}
