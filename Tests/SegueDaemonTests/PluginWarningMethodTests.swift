import Foundation
import SegueJSON
import Testing

@testable import SegueDaemon

/// Issue 29 on the protocol: plugins.check's warnings and `strict`, plugin.warning's code, file and line, and the
/// raises of a transition's plugins in transition.get's problems.
@Suite("Plugin warnings and raises on the protocol")
struct PluginWarningMethodTests {
    static func folder() throws -> String {
        let dir = NSTemporaryDirectory() + "segue-warn-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try """
            return segue.animator {
              kinds = { 'select' },
              duration = function() return 0.1 end,
              animate = function(ctx)
                local to = ctx:view('to')
                ctx.container:add(to)
                to.alpah = 0.5
                segue.after(0.02, function() error('boom') end)
                segue.animate({ duration = 0.1 }, function() to.alpha = 1 end, function() ctx:complete(not ctx.cancelled) end)
              end,
            }
            """.write(toFile: dir + "/oops.lua", atomically: true, encoding: .utf8)
        try """
            return segue.animator {
              kinds = { 'select' },
              duration = function() return 0.1 end,
              animate = function(ctx)
                local to = ctx:view('to')
                ctx.container:add(to)
                to.alpah = 0.5
                segue.animate({ duration = 0.1 }, function() to.alpha = 1 end, function() ctx:complete(not ctx.cancelled) end)
              end,
            }
            """.write(toFile: dir + "/typo.lua", atomically: true, encoding: .utf8)
        return dir
    }

    @Test("plugins.check: warnings with file, line and severity pass; strict fails on them; raises are errors")
    func check() throws {
        let dir = try Self.folder()
        let h = try Harness { $0.pluginsDir = dir }
        let plain = try #require(try h.result("plugins.check", ["name": "typo"]))
        #expect(plain["passed"] == true && plain["strict"] == false)
        #expect((plain["warnings"]?.intValue ?? 0) >= 1)
        let problem = plain["cases"]?.arrayValue?.first?["problems"]?.arrayValue?.first
        #expect(problem?["code"] == "unknown_name" && problem?["severity"] == "warning")
        #expect(problem?["file"] == "typo.lua" && problem?["line"] == 7)
        let strict = try #require(try h.result("plugins.check", ["name": "typo", "strict": true]))
        #expect(strict["passed"] == false && strict["strict"] == true)
        #expect(try h.errorCode("plugins.check", ["name": "typo", "strict": "yes"]) == -32602)
        let raising = try #require(try h.result("plugins.check", ["name": "oops"]))
        #expect(raising["passed"] == false)
        let codes = (raising["cases"]?.arrayValue?.first?["problems"]?.arrayValue ?? []).compactMap { $0["code"]?.stringValue }
        #expect(codes.contains("raised_in_callback"), "\(codes)")
    }

    @Test("plugin.warning carries code, file and line; transition.get lists the raise with a count")
    func liveScene() throws {
        let dir = try Self.folder()
        let h = try Harness { $0.pluginsDir = dir }
        try h.call("scene.create", ["id": "s", "size": ["w": 320, "h": 480], "clock": "manual"])
        try h.call("events.subscribe", ["types": ["plugin"]])
        try h.call("vc.create", ["id": "a"])
        try h.call("vc.create", ["id": "b"])
        try h.call("container.create", ["id": "c", "kind": "custom", "children": ["a", "b"]])
        try h.call("scene.set_root", ["vc": "c"])
        let select = try h.call("container.select", ["container": "c", "index": 1, "animator": "oops"])
        let warning = select.first { $0["params"]?["type"] == "plugin.warning" }?["params"]
        #expect(warning?["code"] == "unknown_name" && warning?["file"] == "oops.lua" && warning?["line"] == 7, "\(select)")
        let advance = try h.call("clock.advance", ["ms": 300])
        let raised = advance.first { $0["params"]?["code"] == "raised_in_callback" }?["params"]
        #expect(raised?["line"] == 8 && raised?["message"]?.stringValue?.hasPrefix("segue.after callback raised: oops.lua:8: boom") == true, "\(advance)")
        let t = try #require(try h.result("transition.get", ["transition": "t-1"]))
        let problems = t["problems"]?.arrayValue ?? []
        #expect(problems.contains { $0["code"] == "raised_in_callback" && $0["count"] == 1 }, "\(problems)")
    }
}
