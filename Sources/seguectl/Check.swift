import ArgumentParser
import SegueCtlKit
import SegueJSON

struct Check: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run an animator plugin through the standard battery (plugins.check); exit 1 when it fails.",
        discussion: """
            Select forward and backward, push and pop, present and dismiss, interactive finish and cancel, in a \
            private manual scene. Each failed case lists its problems with their codes (never_completed, \
            from_view_not_restored, …). Warnings — a misspelt name, curve or option (unknown_name, unknown_curve, \
            unknown_option) — are listed with their file and line; they fail the check only with --strict. A raise \
            in any callback (a timer, a completion, an interaction's or presentation's callback) is an error \
            (raised_in_callback).

            Examples:
              seguectl check dt-slide
              seguectl check my-animator --size 768x1024
              seguectl check side-panel-slide --presentation side-panel
              seguectl check default-slide
              seguectl check --strict my-animator      # warnings fail too
              seguectl check swipe-up --animator normal-dismiss   # an interaction plugin, by gestures
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var output: OutputOptions

    @Argument(help: "The animator's name (a plugin, or the built-in default-slide).", completion: Completions.plugins)
    var name: String

    @Option(help: "The private scene's size, WxH (e.g. 320x480).")
    var size: String?

    @Option(help: "A presentation plugin: present and dismiss run with it (custom style only).",
            completion: Completions.plugins)
    var presentation: String?

    @Option(help: "A delegate plugin the check's containers get (its interaction_for is asked in interactive cases).",
            completion: Completions.plugins)
    var delegate: String?

    @Option(help: "For an interaction plugin: the animator its gesture scripts drive (default: default-slide).")
    var animator: String?

    @Flag(help: "Fail on warnings too (unknown names, curves, options), not only on errors.")
    var strict = false

    func validate() throws {
        if let size, CheckSize.parse(size) == nil {
            throw ValidationError("--size must be WxH with positive numbers, e.g. 320x480")
        }
    }

    func run() throws {
        var params = JSONObject([("name", .string(name))])
        if let size, let parsed = CheckSize.parse(size) { params["size"] = parsed }
        if let presentation { params["presentation"] = .string(presentation) }
        if let delegate { params["delegate"] = .string(delegate) }
        if strict { params["strict"] = true }
        if let animator { params["animator"] = .string(animator) }
        let result = try connection.call("plugins.check", params)
        printLine(output.json ? result.serialized() : CheckReport.render(result, plugin: name))
        if !CheckReport.passed(result) { throw ExitCode(1) }
    }
}
