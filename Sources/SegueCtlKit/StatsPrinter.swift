import SegueJSON

/// `daemon.stats` for a person: the counters, one per line (groups on one line), then a table of request latency
/// per method (count, p50, p99, p999 in µs). Counters the daemon adds later are printed the same way.
public enum StatsPrinter {
    public static func render(_ stats: JSONValue) -> String {
        guard case .object(let o) = stats else { return Format.compact(stats, limit: 10_000) }
        var counters = TextTable(header: ["", ""])
        for (key, value) in o where key != "latency" {
            let label = key.replacingOccurrences(of: "_", with: " ")
            switch value {
            case .object(let group):
                let text = group.isEmptyObject ? (key == "errors" ? "none" : "-")
                    : group.map { "\(groupKey($0.key)) \(Format.cell($0.value))" }
                        .joined(separator: ", ")
                counters.append([label, text])
            default:
                counters.append([label, Format.cell(value)])
            }
        }
        var lines = counters.render().split(separator: "\n", omittingEmptySubsequences: false).dropFirst().map(String.init)
        if case .object(let latency)? = o["latency"], latency.count > 0 {
            var table = TextTable(header: ["METHOD", "COUNT", "P50 µs", "P99 µs", "P999 µs"], rightAligned: [1, 2, 3, 4])
            for (method, m) in latency {
                table.append([
                    method, Format.cell(m["count"]), Format.cell(m["p50_us"].map(rounded)),
                    Format.cell(m["p99_us"].map(rounded)), Format.cell(m["p999_us"].map(rounded)),
                ])
            }
            lines.append("")
            lines.append(table.render())
        }
        return lines.joined(separator: "\n")
    }

    /// `failed_over` → `failed over`; an error code `-32601` → `-32601:`.
    static func groupKey(_ key: String) -> String {
        Int(key) != nil ? key + ":" : key.replacingOccurrences(of: "_", with: " ")
    }

    static func rounded(_ v: JSONValue) -> JSONValue {
        guard let n = v.doubleValue else { return v }
        return .string(Format.fixed(n, decimals: 1))
    }
}

extension JSONObject {
    var isEmptyObject: Bool { count == 0 }
}
