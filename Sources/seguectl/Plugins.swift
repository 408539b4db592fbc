import ArgumentParser
import SegueCtlKit

struct Plugins: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List the plugins: name, kind, version, status, file and load error.",
        discussion: """
            Examples:
              seguectl plugins
              seguectl plugins --json  # all of plugins.list: load time, memory, calls
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var output: OutputOptions

    func run() throws {
        let list = try connection.call("plugins.list")
        printLine(output.json ? list.serialized() : PluginTable.render(list))
    }
}
