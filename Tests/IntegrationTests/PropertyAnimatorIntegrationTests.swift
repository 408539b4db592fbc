import Foundation
import SegueClient
import SegueJSON
import Testing

/// Issue 27 items 1 and 2 through the real `segued`: a transition driven by its animator's interruptible property
/// animator, grabbed mid-flight, scrubbed, cancelled (reversed and continued) over the socket.
@Suite("Property animators through the daemon", .serialized)
struct PropertyAnimatorIntegrationTests {
    static let slide = #"""
    return segue.animator {
      name = "pa-slide",
      duration = 1,
      interruptible_animator = function(ctx)
        local to = ctx:view("to")
        ctx.container:add(to)
        to.frame = ctx:initial_frame("to")
        local pa = segue.property_animator { duration = 1, curve = "linear" }
        pa:add_animations(function() to.frame = ctx:final_frame("to") end)
        pa:add_completion(function(position)
          segue.log("position", position)
          ctx:complete(position == "end")
        end)
        return pa
      end,
    }
    """#

    @Test("grabbed mid-flight, scrubbed, cancelled: the interruptible animator runs back and the transition is cancelled")
    func grabbedAndCancelled() throws {
        let daemon = try DaemonProcess(pluginFiles: ["pa-slide.lua": Self.slide])
        let client = try daemon.client()
        _ = try client.call("scene.create", ["size": ["w": 320, "h": 480], "clock": "manual"])
        _ = try client.call("events.subscribe", ["types": ["transition", "plugin", "log"]])
        _ = try client.call("vc.create", ["id": "a", "color": "#ff0000"])
        _ = try client.call("vc.create", ["id": "b", "color": "#0000ff"])
        _ = try client.call("container.create", ["id": "c", "kind": "custom", "children": ["a", "b"]])
        _ = try client.call("scene.set_root", ["vc": "c"])
        let start = try client.call("container.select", ["container": "c", "index": 1, "animator": "pa-slide"])
        let t = try #require(start["transition"]?.stringValue)
        _ = try client.call("clock.advance", ["ms": 400])
        #expect(try client.call("transition.get", ["transition": .string(t)])["percent"] == 0.4)
        #expect(try client.call("transition.pause", ["transition": .string(t)])["state"] == "interactive")
        _ = try client.call("transition.update", ["transition": .string(t), "percent": 0.25])
        let x = findView(try client.call("scene.tree", ["presentation": true])["views"], "b.view")?["presentation"]?["frame"]?["x"]
        #expect(x?.doubleValue == 240)
        #expect(try client.call("transition.cancel", ["transition": .string(t), "speed": 1])["state"] == "cancelling")
        _ = try client.call("clock.advance", ["ms": 300])
        #expect(try client.call("transition.get", ["transition": .string(t)])["state"] == "cancelled")
        #expect(try client.call("container.get", ["container": "c"])["selected"] == 0)
        let logs = client.takeEvents().filter { $0["type"] == "log" }.compactMap { $0["message"]?.stringValue }
        #expect(logs.contains("position start"))
    }
}
