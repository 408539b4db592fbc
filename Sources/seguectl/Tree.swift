import ArgumentParser
import SegueClient
import SegueCtlKit
import SegueJSON

struct Tree: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print a scene's view controllers and views as an indented tree.",
        discussion: """
            One line per node. View controllers: id, kind, appearance. Views: id, frame as x,y w×h, alpha, \
            color, and hidden / transform / corner radius when set. With --presentation, a view that is on screen \
            somewhere else than its model values (it is animating) gets "| now:" and the values that differ.

            Examples:
              seguectl tree --scene main
              seguectl tree --scene main --presentation
              seguectl tree --json     # the only scene, as scene.tree returns it
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var output: OutputOptions

    @Option(help: "The scene (default: the only scene there is).", completion: Completions.scenes)
    var scene: String?

    @Flag(help: "Also show what is on screen now where it differs from the model values.")
    var presentation = false

    func run() throws {
        let id = try scene ?? onlyScene()
        var params = JSONObject([("scene", .string(id))])
        if presentation { params["presentation"] = true }
        let tree = try connection.call("scene.tree", params)
        printLine(output.json ? tree.serialized() : "scene \(id)\n" + TreePrinter.render(tree))
    }

    func onlyScene() throws -> String {
        let scenes = (try connection.call("scene.list").arrayValue ?? []).compactMap { $0["scene"]?.stringValue }
        if scenes.count == 1 { return scenes[0] }
        printError(scenes.isEmpty ? "seguectl: the daemon has no scenes"
            : "seguectl: \(scenes.count) scenes (\(scenes.joined(separator: ", "))): choose one with --scene")
        throw ExitCode(2)
    }
}
