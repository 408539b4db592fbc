import Foundation
import SegueClient
import SegueJSON
import Testing

/// Calls that would loop inside one C library function, in a real daemon: at a file's top level, in `animate` and
/// in a `segue.after` timer. The wall-clock backstop is set to a minute, so what stops them is the budget; the
/// daemon answers `daemon.ping` after each.
@Suite("Library calls that loop inside C, in a real daemon", .serialized)
struct LibraryLoopTests {
    static let examples = [
        "string.rep('', 1 << 50)",
        "string.rep('', 1 << 50, '')",
        "table.move({}, 1, 1 << 50, 1, {})",
        "table.concat(setmetatable({}, { __index = type, __len = function() return 1 << 50 end }))",
        "table.insert(setmetatable({}, { __len = function() return 1 << 50 end }), 1, 'x')",
    ]

    static func config() throws -> String {
        let bundled = try String(contentsOfFile: repositoryRoot + "/config/segued.toml", encoding: .utf8)
        return bundled.replacingOccurrences(of: "# call_timeout_ms = 100", with: "call_timeout_ms = 60000")
    }

    static func files() -> [String: String] {
        var files: [String: String] = [:]
        for (i, example) in examples.enumerated() {
            files["top\(i).lua"] = "\(example)\nreturn segue.animator { animate = function(ctx) end }"
            files["anim\(i).lua"] = """
                return segue.animator { duration = 0.3, animate = function(ctx) \(example) end }
                """
            files["timer\(i).lua"] = """
                return segue.animator { duration = 0.1, animate = function(ctx)
                  segue.after(0.05, function() \(example) end)
                  ctx.container:add(ctx:view('to'))
                  ctx:complete(true)
                end }
                """
        }
        return files
    }

    @Test("the daemon starts, refuses the files that loop at load, and stops each loop with the budget error")
    func examplesInADaemon() throws {
        let daemon = try DaemonProcess(pluginFiles: Self.files(), config: try Self.config())
        let client = try daemon.client()
        // Started and serving, although five of its files loop at their top level.
        #expect(try client.call("daemon.ping") == "pong")
        let list = try client.call("plugins.list").arrayValue ?? []
        for i in Self.examples.indices {
            let top = list.first { $0["name"] == .string("top\(i)") }
            #expect(top?["status"] == "failed", "top\(i)")
            #expect(top?["error"]?.stringValue?.contains("instruction budget exceeded") == true, "top\(i)")
        }
        for (i, example) in Self.examples.enumerated() {
            try setUpContainer(client, kind: "custom")
            // The generous timeout guards a hang; it measures nothing.
            let params: JSONObject = ["container": "c", "index": 1, "animator": .string("anim\(i)")]
            let started = try client.call("container.select", params, timeoutMs: 20_000)
            let t = try client.call("transition.get", ["transition": started["transition"] ?? JSONValue.null])
            #expect(t["failed_over"] == true, "\(example)")
            let reason = t["problems"]?.arrayValue?.first?["message"]?.stringValue ?? ""
            #expect(reason.contains("instruction budget exceeded"), "\(example): \(reason.prefix(200))")
            #expect(try client.call("daemon.ping") == "pong")
            _ = try client.call("scene.destroy", [:])

            try setUpContainer(client, kind: "custom")
            let timer: JSONObject = ["container": "c", "index": 1, "animator": .string("timer\(i)")]
            _ = try client.call("container.select", timer, timeoutMs: 20_000)
            _ = try client.call("clock.advance", ["ms": 200], timeoutMs: 20_000)
            var warnings: [String] = []
            for event in client.takeEvents() where event["type"] == "plugin.warning" {
                warnings.append(event["message"]?.stringValue ?? "")
            }
            #expect(warnings.contains { $0.contains("instruction budget exceeded") }, "\(example): \(warnings)")
            #expect(try client.call("daemon.ping") == "pong")
            _ = try client.call("scene.destroy", [:])
        }
    }
}
