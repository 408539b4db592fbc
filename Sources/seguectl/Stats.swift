import ArgumentParser
import SegueCtlKit

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the daemon's counters and per-method request latency (daemon.stats).",
        discussion: """
            Examples:
              seguectl stats
              seguectl stats --json
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var output: OutputOptions

    func run() throws {
        let stats = try connection.call("daemon.stats")
        printLine(output.json ? stats.serialized() : StatsPrinter.render(stats))
    }
}
