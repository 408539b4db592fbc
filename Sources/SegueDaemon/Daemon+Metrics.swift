import SegueJSON
import SegueLua

/// `daemon.metrics`: the daemon's counters in the OpenMetrics text format (<https://openmetrics.io>, version 1.0.0),
/// every name prefixed `segued_`, for a monitoring system to scrape from a file: `seguectl stats --openmetrics >
/// textfile/segued.prom` on a timer, read by node exporter's textfile collector. The daemon has no HTTP listener.
///
/// Families (docs/PROTOCOL.md lists them with their labels):
/// - `segued_requests_total`, `segued_request_errors_total{code}`, and the histogram
///   `segued_request_duration_seconds{method}` with the bounds of `RequestStats.bucketBounds` (10 µs … 10 s)
/// - `segued_scenes`, `segued_connections`, `segued_plugins{status}` (gauges)
/// - `segued_transitions_started_total`, `segued_transitions_ended_total{outcome}` (completed, cancelled),
///   `segued_transitions_failed_over_total`, `segued_transitions_watchdog_total`
/// - `segued_plugin_failures_total{plugin,stage}` (`load`: the file was refused; `run`: a call failed in a scene)
/// - `segued_frames_total`, `segued_events_dropped_total`, `segued_reloads_total`, `segued_uptime_seconds`,
///   `segued_build_info{version,lua}`
extension Daemon {
    var metricsText: String {
        var out = OpenMetricsWriter()
        let stats = dispatcher.stats
        // A gauge of 1, not OpenMetrics' info type, which the Prometheus text parser (node exporter's) refuses.
        out.family("segued_build_info", type: "gauge", help: "Always 1; the labels say the daemon's version and Lua's.")
        out.sample("segued_build_info", labels: [("version", Daemon.version), ("lua", PluginHost.luaVersion)], value: 1)
        out.gauge("segued_uptime_seconds", "Seconds since the daemon started.", value: uptime, unit: "seconds")
        out.counter("segued_requests", "Requests answered (every method, errors included).", value: stats.requests)
        out.family("segued_request_errors", type: "counter", help: "Error responses, by JSON-RPC error code.")
        for (code, count) in stats.errorCounts.sorted(by: { $0.code < $1.code }) {
            out.sample("segued_request_errors_total", labels: [("code", String(code))], value: count)
        }
        out.family("segued_request_duration_seconds", type: "histogram", unit: "seconds",
                   help: "Time from a request's line read to its response written, by method.")
        // Method numbers follow name order, so the methods come out sorted by name.
        for (number, m) in stats.methods.enumerated() where m.count > 0 {
            let method = Daemon.methodTable.names[number]
            var cumulative = 0
            for (bucket, bound) in RequestStats.bucketBounds.enumerated() {
                cumulative += m.buckets[bucket]
                out.sample("segued_request_duration_seconds_bucket", labels: [("method", method), ("le", bound.le)],
                           value: cumulative)
            }
            out.sample("segued_request_duration_seconds_bucket", labels: [("method", method), ("le", "+Inf")],
                       value: m.count)
            out.sample("segued_request_duration_seconds_count", labels: [("method", method)], value: m.count)
            out.sample("segued_request_duration_seconds_sum", labels: [("method", method)],
                       text: OpenMetricsWriter.number(Double(m.totalNanoseconds) / 1e9))
        }
        out.gauge("segued_scenes", "Scenes alive.", value: Double(scenes.count))
        out.gauge("segued_connections", "Client connections open.", value: Double(connections.count))
        out.family("segued_plugins", type: "gauge", help: "Plugins known, by status (loaded, failed, unloaded).")
        var byStatus: [String: Int] = ["loaded": 0, "failed": 0, "unloaded": 0]
        for record in plugins.records { byStatus[record.status, default: 0] += 1 }
        for status in byStatus.keys.sorted() {
            out.sample("segued_plugins", labels: [("status", status)], value: byStatus[status] ?? 0)
        }
        out.counter("segued_transitions_started", "Transitions begun.", value: counters.transitionsStarted)
        out.family("segued_transitions_ended", type: "counter", help: "Transitions ended, by outcome.")
        out.sample("segued_transitions_ended_total", labels: [("outcome", "completed")],
                   value: counters.transitionsCompleted)
        out.sample("segued_transitions_ended_total", labels: [("outcome", "cancelled")],
                   value: counters.transitionsCancelled)
        out.counter("segued_transitions_failed_over",
                    "Transitions whose plugin failed and the default animator took over.",
                    value: counters.transitionsFailedOver)
        out.counter("segued_transitions_watchdog", "Transitions the watchdog ended (their animator never completed).",
                    value: counters.transitionsWatchdog)
        out.family("segued_plugin_failures", type: "counter",
                   help: "plugin.failed events by plugin: stage load (the file was refused) or run (a call failed).")
        for failure in counters.pluginFailures.sorted(by: { $0.name < $1.name }) {
            out.sample("segued_plugin_failures_total", labels: [("plugin", failure.name), ("stage", "load")],
                       value: failure.load)
            out.sample("segued_plugin_failures_total", labels: [("plugin", failure.name), ("stage", "run")],
                       value: failure.run)
        }
        out.counter("segued_frames", "Frames evaluated across all scenes.", value: scenes.framesEvaluated)
        out.counter("segued_events_dropped", "Events dropped for slow subscribers.", value: events.eventsDropped)
        out.counter("segued_reloads", "Config reloads applied (daemon.reload or SIGHUP).", value: reloads)
        return out.finish()
    }
}

/// Writes OpenMetrics text: `# TYPE`, `# UNIT`, `# HELP` before a family's samples, label values escaped, `# EOF`
/// at the end.
struct OpenMetricsWriter {
    private(set) var text = ""

    mutating func family(_ name: String, type: String, unit: String? = nil, help: String) {
        text += "# TYPE \(name) \(type)\n"
        if let unit { text += "# UNIT \(name) \(unit)\n" }
        text += "# HELP \(name) \(OpenMetricsWriter.escaped(help, quote: false))\n"
    }

    mutating func sample(_ name: String, labels: [(String, String)] = [], value: Int) {
        sample(name, labels: labels, text: String(value))
    }

    mutating func sample(_ name: String, labels: [(String, String)] = [], text value: String) {
        text += name
        if !labels.isEmpty {
            text += "{" + labels.map { "\($0.0)=\"\(OpenMetricsWriter.escaped($0.1, quote: true))\"" }
                .joined(separator: ",") + "}"
        }
        text += " \(value)\n"
    }

    /// A counter family `name` with its one sample `name_total`.
    mutating func counter(_ name: String, _ help: String, value: Int) {
        family(name, type: "counter", help: help)
        sample(name + "_total", value: value)
    }

    mutating func gauge(_ name: String, _ help: String, value: Double, unit: String? = nil) {
        family(name, type: "gauge", unit: unit, help: help)
        sample(name, text: OpenMetricsWriter.number(value))
    }

    mutating func finish() -> String {
        text += "# EOF\n"
        return text
    }

    /// A number as OpenMetrics takes it: an integer without a fraction, else Swift's shortest round-trip text.
    static func number(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value > 0 ? "+Inf" : "-Inf") }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }

    /// `\`, newline (and in a label value `"`) escaped.
    static func escaped(_ text: String, quote: Bool) -> String {
        var out = ""
        for ch in text {
            switch ch {
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\"" where quote: out += "\\\""
            default: out.append(ch)
            }
        }
        return out
    }
}
