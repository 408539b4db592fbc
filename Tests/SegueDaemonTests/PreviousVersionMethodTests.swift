import Foundation
import SegueJSON
import Testing

@testable import SegueDaemon

@Suite("plugins.list generation and NAME@previous on the protocol")
struct PreviousVersionMethodTests {
    /// A daemon over a temporary plugins folder holding `fade.lua` at `duration`.
    static func daemon(_ dir: String) throws -> Harness {
        try Harness { $0.pluginsDir = dir }
    }

    static func fade(_ duration: Double) -> String {
        """
        return segue.animator {
          version = "1.0",
          duration = function(ctx) return \(duration) end,
          animate = function(ctx)
            ctx.container:add(ctx:view("to"))
            segue.animate({ duration = ctx.duration }, function() ctx:view("to").alpha = 1 end,
              function() ctx:complete(not ctx.cancelled) end)
          end,
        }
        """
    }

    @Test("plugins.list reports each plugin's load generation; NAME@previous runs the version before, -32001 without one")
    func previous() throws {
        let dir = NSTemporaryDirectory() + "segue-previous-" + UUID().uuidString
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        try PreviousVersionMethodTests.fade(0.25).write(toFile: dir + "/fade.lua", atomically: true, encoding: .utf8)
        let h = try PreviousVersionMethodTests.daemon(dir)
        #expect(try h.result("plugins.list")?.arrayValue?.first?["generation"] == 1)
        try h.setUpScene()
        let none = try h.call("container.select", ["container": "tabs", "index": 1, "animator": "fade@previous"]).last
        #expect(none?["error"]?["code"] == -32001 && none?["error"]?["data"]?["param"] == "animator")

        try PreviousVersionMethodTests.fade(0.5).write(toFile: dir + "/fade.lua", atomically: true, encoding: .utf8)
        #expect(try h.result("plugins.reload", ["name": "fade"])?["loaded"] == ["fade"])
        let record = try #require(try h.result("plugins.list")?.arrayValue?.first)
        #expect(record["generation"] == 2 && record["version"] == "1.0")
        #expect(record["kinds"] == nil)  // fade declares none
        let bundled = try #require(try Harness().result("plugins.list")?.arrayValue)
        #expect(bundled.first { $0["name"] == "dt-slide" }?["kinds"] == ["select", "push", "pop", "set"])
        let old = try #require(try h.result("container.select", ["container": "tabs", "index": 1, "animator": "fade@previous"]))
        #expect(old["animator"] == "fade@previous" && old["duration"] == 0.25)
        try h.call("clock.advance", ["ms": 300])
        let new = try #require(try h.result("container.select", ["container": "tabs", "index": 0, "animator": "fade"]))
        #expect(new["duration"] == 0.5)
    }
}
