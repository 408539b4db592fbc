import ArgumentParser
import SegueClient
import SegueJSON

struct Call: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Call one method and print its result as JSON (an error goes to stderr, exit status 1).",
        discussion: """
            Examples:
              seguectl call daemon.ping
              seguectl call scene.create '{"size":{"w":320,"h":480},"clock":"manual"}'
              seguectl call --events clock.advance '{"scene":"main","ms":300}'
            """)

    @OptionGroup var connection: Connection

    @Flag(help: """
        Print the events the request caused (lifecycle, transition, plugin and log), one per line, before the \
        result.
        """)
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
            throw failure(error)
        }
    }
}
