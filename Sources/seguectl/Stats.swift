import ArgumentParser
import SegueCtlKit

struct Stats: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Print the daemon's counters and per-method request latency (daemon.stats).",
        discussion: """
            --openmetrics prints daemon.metrics instead: the same counters, gauges and request latency histograms in \
            the OpenMetrics text format, every name prefixed segued_ (docs/PROTOCOL.md lists them). segued has no \
            HTTP listener; to feed Prometheus, write the text where node exporter's textfile collector reads it, on \
            a timer, through a temporary file so the collector never reads half of one:
              seguectl stats --openmetrics > /var/lib/node_exporter/segued.prom.$$ && \\
                mv /var/lib/node_exporter/segued.prom.$$ /var/lib/node_exporter/segued.prom

            Examples:
              seguectl stats
              seguectl stats --json
              seguectl stats --openmetrics
            """)

    @OptionGroup var connection: Connection
    @OptionGroup var output: OutputOptions

    @Flag(help: "Print daemon.metrics: OpenMetrics text (ends with # EOF).")
    var openmetrics = false

    func validate() throws {
        if openmetrics && output.json { throw ValidationError("--openmetrics and --json cannot be used together") }
    }

    func run() throws {
        if openmetrics {
            let metrics = try connection.call("daemon.metrics")
            guard let text = metrics["text"]?.stringValue else {
                printError("seguectl: daemon.metrics answered without a text: \(metrics.serialized())")
                throw ExitCode(1)
            }
            // The text ends with its own newline (after # EOF).
            print(text, terminator: "")
            return
        }
        let stats = try connection.call("daemon.stats")
        printLine(output.json ? stats.serialized() : StatsPrinter.render(stats))
    }
}
