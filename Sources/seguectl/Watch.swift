import ArgumentParser
import SegueClient
import SegueJSON

struct Watch: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print events as they come, one JSON object per line.",
        discussion: """
            Examples:
              seguectl watch --scene main
              seguectl watch --scene main --types lifecycle,transition,frame --until transition.completed
            """)

    @OptionGroup var connection: Connection

    @Option(help: "Only this scene's events (and daemon-wide ones).", completion: Completions.scenes)
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
            throw failure(error)
        }
    }
}
