import ArgumentParser
import SegueClient
import SegueJSON

#if canImport(Glibc)
import Glibc
#endif

/// Options every subcommand takes.
struct Connection: ParsableArguments {
    @Option(help: "The daemon's socket (default: $XDG_RUNTIME_DIR/segued.sock, else /tmp/segued-$UID.sock).")
    var socket: String = SegueClient.defaultSocketPath

    func connect() throws -> SegueClient {
        do throws(ClientError) {
            return try SegueClient(socketPath: socket)
        } catch {
            printError("seguectl: \(error)")
            throw ExitCode(2)
        }
    }
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

@main
struct SegueCtl: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "seguectl",
        abstract: "Talk to segued over its Unix socket.",
        discussion: """
            Exit status: 0 on success, 1 when the daemon answered with an error, 2 when it could not be reached \
            or the arguments were wrong.
            """,
        subcommands: [Call.self, Watch.self])
}

struct Call: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call one method and print its result as JSON (an error goes to stderr, exit status 1).",
        discussion: """
            Example: seguectl call scene.create '{"size":{"w":320,"h":480},"clock":"manual"}'
            """)

    @OptionGroup var connection: Connection

    @Flag(help: "Print the events the request caused (lifecycle and transition), one per line, before the result.")
    var events = false

    @Argument(help: "The method, e.g. daemon.ping.")
    var method: String

    @Argument(help: "The parameters as a JSON object.")
    var params: String?

    func run() throws {
        var object: JSONObject?
        if let params {
            guard case .object(let o)? = try? JSONParser.parse(params) else {
                printError("seguectl: PARAMS must be a JSON object, e.g. '{\"scene\":\"main\"}'")
                throw ExitCode(2)
            }
            object = o
        }
        let client = try connection.connect()
        do throws(ClientError) {
            if events {
                var subscribe = JSONObject([("types", ["lifecycle", "transition", "plugin", "log"])])
                if let scene = object?["scene"], method != "scene.create" { subscribe["scene"] = scene }
                _ = try client.call("events.subscribe", subscribe)
            }
            let result = try client.call(method, object)
            for event in client.takeEvents() { printLine(event.serialized()) }
            printLine(result.serialized())
        } catch {
            for event in client.takeEvents() { printLine(event.serialized()) }
            printError("seguectl: \(error)")
            if case .rpc = error { throw ExitCode(1) }
            throw ExitCode(2)
        }
    }
}

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(abstract: "Print events as they come, one JSON object per line.")

    @OptionGroup var connection: Connection

    @Option(help: "Only this scene's events (and daemon-wide ones).")
    var scene: String?

    @Option(help: "Comma-separated: lifecycle, transition, plugin, frame, log, * or event types.")
    var types: String = "lifecycle,transition,plugin,log"

    @Option(help: "Exit after printing an event of this type (e.g. transition.completed).")
    var until: String?

    func run() throws {
        let client = try connection.connect()
        var params = JSONObject([("types", .array(types.split(separator: ",").map { .string(String($0)) }))])
        if let scene { params["scene"] = .string(scene) }
        do throws(ClientError) {
            _ = try client.call("events.subscribe", params)
            while let event = try client.nextEvent() {
                printLine(event.serialized())
                if let until, event["type"]?.stringValue == until { return }
            }
        } catch {
            printError("seguectl: \(error)")
            if case .rpc = error { throw ExitCode(1) }
            throw ExitCode(2)
        }
    }
}
