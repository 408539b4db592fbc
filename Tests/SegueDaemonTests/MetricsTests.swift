import Foundation
import SegueJSON
import SegueLua
import Testing

@testable import SegueDaemon

/// `daemon.metrics`: OpenMetrics text (python/tests/test_metrics.py parses it with prometheus_client's parsers).
@Suite("daemon.metrics")
struct MetricsTests {
    /// The samples of the text: name with labels → value.
    func samples(_ text: String) -> [String: String] {
        var samples: [String: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            guard let space = line.lastIndex(of: " ") else { continue }
            samples[String(line[..<space])] = String(line[line.index(after: space)...])
        }
        return samples
    }

    @Test("counts requests, errors by code and a latency histogram per method; ends with # EOF")
    func requestFamilies() throws {
        let harness = try Harness()
        for _ in 0..<3 { try harness.call("daemon.ping") }
        try harness.call("no.such.method")
        let text = try #require(try harness.result("daemon.metrics")?["text"]?.stringValue)
        #expect(text.hasSuffix("\n# EOF\n"))
        let s = samples(text)
        #expect(s["segued_requests_total"] == "4", "the metrics request itself is counted after it is answered")
        #expect(s["segued_request_errors_total{code=\"-32601\"}"] == "1")
        #expect(s["segued_request_duration_seconds_count{method=\"daemon.ping\"}"] == "3")
        #expect(s["segued_request_duration_seconds_bucket{method=\"daemon.ping\",le=\"+Inf\"}"] == "3")
        #expect(s["segued_request_duration_seconds_bucket{method=\"daemon.ping\",le=\"10.0\"}"] == "3")
        // Buckets are cumulative: never fewer at a larger bound.
        var previous = 0
        for bound in RequestStats.bucketBounds {
            let value = try #require(s["segued_request_duration_seconds_bucket{method=\"daemon.ping\",le=\"\(bound.le)\"}"])
            let count = try #require(Int(value))
            #expect(count >= previous)
            previous = count
        }
        #expect(s.keys.contains("segued_request_duration_seconds_sum{method=\"daemon.ping\"}"))
        #expect(text.contains("# TYPE segued_request_duration_seconds histogram\n# UNIT segued_request_duration_seconds seconds\n"))
        // Every family is declared once, before its samples, and every name has the prefix.
        let types = text.split(separator: "\n").filter { $0.hasPrefix("# TYPE ") }
        #expect(Set(types).count == types.count)
        for line in text.split(separator: "\n") where line != "# EOF" {
            let name = line.hasPrefix("#") ? line.split(separator: " ")[2] : line.prefix { $0 != "{" && $0 != " " }
            #expect(name.hasPrefix("segued_"), "\(line)")
        }
    }

    @Test("scenes, transitions, plugins and plugin failures are counted")
    func engineFamilies() throws {
        let harness = try Harness()
        try harness.setUpScene()
        try harness.call("container.select", ["container": "tabs", "index": 1, "animator": "cross-dissolve"])
        try harness.call("clock.advance", ["ms": 1000])
        let text = try #require(try harness.result("daemon.metrics")?["text"]?.stringValue)
        let s = samples(text)
        #expect(s["segued_scenes"] == "1")
        #expect(s["segued_connections"] == "1")
        #expect(s["segued_transitions_started_total"] == "1")
        #expect(s["segued_transitions_ended_total{outcome=\"completed\"}"] == "1")
        #expect(s["segued_transitions_ended_total{outcome=\"cancelled\"}"] == "0")
        #expect(Int(s["segued_plugins{status=\"loaded\"}"] ?? "") ?? 0 > 5)
        #expect(s["segued_build_info{version=\"\(Daemon.version)\",lua=\"\(PluginHost.luaVersion)\"}"] == "1")
    }

    @Test("a plugin that fails to load is counted under its name at stage load; label values are escaped")
    func pluginFailures() throws {
        let folder = "/tmp/sgm-" + String(UInt64.random(in: 0..<UInt64.max), radix: 36)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        try "this is not lua".write(toFile: folder + "/broken.lua", atomically: true, encoding: .utf8)
        let harness = try Harness { $0.pluginsDir = folder }
        let text = try #require(try harness.result("daemon.metrics")?["text"]?.stringValue)
        let s = samples(text)
        #expect(s["segued_plugin_failures_total{plugin=\"broken\",stage=\"load\"}"] == "1")
        #expect(s["segued_plugin_failures_total{plugin=\"broken\",stage=\"run\"}"] == "0")
        #expect(OpenMetricsWriter.escaped("a\"b\\c\nd", quote: true) == "a\\\"b\\\\c\\nd")
        #expect(OpenMetricsWriter.number(3) == "3" && OpenMetricsWriter.number(0.25) == "0.25")
    }

    @Test("daemon.metrics takes no parameters")
    func noParams() throws {
        let harness = try Harness()
        #expect(try harness.errorCode("daemon.metrics", ["x": 1]) == -32602)
    }
}
