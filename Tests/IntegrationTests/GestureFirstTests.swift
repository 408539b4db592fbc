import Foundation
import SegueClient
import SegueJSON
import Testing

/// Gesture-first interaction, pinch samples and per-transition `info` on the real `segued`, with the bundled ports of
/// VCTransitionsLibrary's interaction controllers (plugins/ce-interactions.lua).
@Suite("Gesture-first interaction and info through the daemon", .serialized)
struct GestureFirstTests {
    /// A navigation container c with stack [a, b] as the root (b on top).
    func setUpNavigation(_ client: SegueClient) throws {
        try setUpContainer(client, kind: "navigation")
        _ = try client.call("nav.push", ["container": "c", "vc": "b", "animated": false])
        _ = client.takeEvents()
    }

    func refused(_ result: JSONValue) -> Bool { result == ["transition": .null, "refused": true] }

    @Test("ce-horizontal-swipe pops only on a right-to-left swipe, drives the pop and finishes past half-way")
    func horizontalPop() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpNavigation(client)
        let wrong = try client.call("gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe",
                                                    "velocity": ["x": 200, "y": 0]])
        #expect(refused(wrong))
        #expect(client.takeEvents().isEmpty)
        let began = try client.call("gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe",
                                                    "velocity": ["x": -200, "y": 0]])
        let t = try #require(began["transition"]?.stringValue)
        let got = try client.call("transition.get", ["transition": .string(t)])
        #expect(got["kind"] == "pop" && got["from"] == "b" && got["to"] == "a")
        // |−150| / 200 = 0.75.
        let changed = try client.call("gesture.pan", ["transition": .string(t), "phase": "changed",
                                                      "translation": ["x": -150, "y": 0]])
        #expect(changed["percent"] == 0.75)
        // Past the end: held at 0.99, as the original.
        let far = try client.call("gesture.pan", ["transition": .string(t), "phase": "changed",
                                                  "translation": ["x": -400, "y": 0]])
        #expect(far["percent"] == 0.99)
        let ended = try client.call("gesture.pan", ["transition": .string(t), "phase": "ended",
                                                    "translation": ["x": -400, "y": 0]])
        #expect(ended["state"] == "finishing")
        _ = try client.call("clock.advance", ["ms": 2000])
        #expect(try client.call("container.get", ["container": "c"])["stack"] == ["a"])
        // Only the root is left: nothing to pop, refused without a warning.
        _ = client.takeEvents()
        let atRoot = try client.call("gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe",
                                                     "velocity": ["x": -200, "y": 0]])
        #expect(refused(atRoot))
        #expect(client.takeEvents().isEmpty)
    }

    @Test("ce-horizontal-swipe on tabs: +1 on right-to-left, −1 on left-to-right, nothing at either end; a short swipe cancels")
    func horizontalTabs() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpContainer(client, kind: "tab")
        #expect(refused(try client.call("gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe",
                                                        "velocity": ["x": 300, "y": 0]])))
        let began = try client.call("gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe",
                                                    "velocity": ["x": -300, "y": 0]])
        let t = try #require(began["transition"]?.stringValue)
        #expect(try client.call("transition.get", ["transition": .string(t)])["to_index"] == 1)
        _ = try client.call("gesture.pan", ["transition": .string(t), "phase": "changed", "translation": ["x": -60, "y": 0]])
        let ended = try client.call("gesture.pan", ["transition": .string(t), "phase": "ended", "translation": ["x": -60, "y": 0]])
        #expect(ended["state"] == "cancelling")
        _ = try client.call("clock.advance", ["ms": 2000])
        #expect(try client.call("container.get", ["container": "c"])["selected"] == 0)
        // Select b for real, then the right end refuses a right-to-left swipe and a left-to-right one goes back.
        _ = try client.call("container.select", ["container": "c", "index": 1, "animated": false])
        #expect(refused(try client.call("gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe",
                                                        "velocity": ["x": -300, "y": 0]])))
        let back = try client.call("gesture.pan", ["phase": "began", "interaction": "ce-horizontal-swipe",
                                                   "velocity": ["x": 300, "y": 0]])
        let t2 = try #require(back["transition"]?.stringValue)
        #expect(try client.call("transition.get", ["transition": .string(t2)])["to_index"] == 0)
    }

    @Test("ce-vertical-swipe pops on a top-to-bottom swipe only, and refuses a tab container")
    func verticalPop() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpNavigation(client)
        #expect(refused(try client.call("gesture.pan", ["phase": "began", "interaction": "ce-vertical-swipe",
                                                        "translation": ["x": 0, "y": -5]])))
        let began = try client.call("gesture.pan", ["phase": "began", "interaction": "ce-vertical-swipe",
                                                    "translation": ["x": 0, "y": 5]])
        let t = try #require(began["transition"]?.stringValue)
        let changed = try client.call("gesture.pan", ["transition": .string(t), "phase": "changed",
                                                      "translation": ["x": 0, "y": 50]])
        #expect(changed["percent"] == 0.25)
        let cancelled = try client.call("gesture.pan", ["transition": .string(t), "phase": "cancelled",
                                                        "translation": ["x": 0, "y": 190]])
        #expect(cancelled["state"] == "cancelling")

        let tabs = try daemon.client()
        try setUpContainer(tabs, kind: "tab")
        #expect(refused(try tabs.call("gesture.pan", ["phase": "began", "interaction": "ce-vertical-swipe",
                                                      "translation": ["x": 0, "y": 5]])))
    }

    @Test("ce-pinch dismisses a presented view controller: percent 1 − scale / startScale, finished past half-way")
    func pinchDismiss() throws {
        let daemon = try DaemonProcess()
        let client = try daemon.client()
        try setUpContainer(client, kind: "custom")
        _ = try client.call("vc.create", ["id": "m"])
        _ = try client.call("modal.present", ["presenting": "c", "presented": "m", "animated": false])
        let began = try client.call("gesture.pinch", ["phase": "began", "interaction": "ce-pinch", "scale": 1.0,
                                                      "location": ["x": 100, "y": 100]])
        let t = try #require(began["transition"]?.stringValue)
        #expect(try client.call("transition.get", ["transition": .string(t)])["kind"] == "dismiss")
        let changed = try client.call("gesture.pinch", ["transition": .string(t), "phase": "changed", "scale": 0.4,
                                                        "velocity": -1.5])
        #expect(abs((changed["percent"]?.doubleValue ?? 0) - 0.6) < 1e-9)
        let ended = try client.call("gesture.pinch", ["transition": .string(t), "phase": "ended", "scale": 0.4])
        #expect(ended["state"] == "finishing")
        _ = try client.call("clock.advance", ["ms": 2000])
        #expect(try client.call("vc.get", ["vc": "c"])["presented"] == nil)
        // A pinch sample with scale 0 is refused, naming scale.
        #expect(rpcErrorCode(client, "gesture.pinch", ["phase": "began", "interaction": "ce-pinch", "scale": 0])?.param == "scale")
    }

    static let infoAnimator = """
    return segue.animator {
      name = "info-reader",
      duration = 0.2,
      animate = function(ctx)
        local info = ctx.info
        local ok = pcall(function() info.rect.x = 5 end)
        segue.log("info", info and info.rect.x, info and info.tags[2], info and #info.tags, "writable", ok)
        ctx:complete(true)
      end,
    }
    """

    @Test("info round trip: transition.get shows it, ctx.info reads a read-only copy; over 16 KiB is limit_exceeded")
    func infoRoundTrip() throws {
        let daemon = try DaemonProcess(pluginFiles: ["info-reader.lua": GestureFirstTests.infoAnimator])
        let client = try daemon.client()
        _ = try client.call("scene.create", ["size": ["w": 320, "h": 480], "clock": "manual"])
        _ = try client.call("events.subscribe", ["types": ["log", "plugin"]])
        _ = try client.call("vc.create", ["id": "a"])
        _ = try client.call("vc.create", ["id": "b"])
        _ = try client.call("container.create", ["id": "c", "kind": "custom", "children": ["a", "b"]])
        _ = try client.call("scene.set_root", ["vc": "c"])
        let info: JSONValue = ["rect": ["x": 12, "y": 40, "w": 90, "h": 90], "tags": ["thumb", "grid"]]
        let start = try client.call("container.select", ["container": "c", "index": 1, "animator": "info-reader",
                                                         "info": info])
        let got = try client.call("transition.get", ["transition": start["transition"] ?? .null])
        #expect(got["info"] == info)
        let logs = client.takeEvents().filter { $0["type"] == "log" }.compactMap { $0["message"]?.stringValue }
        #expect(logs == ["info 12 grid 2 writable false"])

        let big = String(repeating: "z", count: 17 * 1024)
        do {
            _ = try client.call("container.select", ["container": "c", "index": 0, "info": ["blob": .string(big)]])
            Issue.record("an info over 16 KiB was accepted")
        } catch {
            guard case .rpc(let code, _, let data) = error else { throw error }
            #expect(code == -32004 && data?["limit"] == "info_bytes")
        }
        #expect(try client.call("container.get", ["container": "c"])["selected"] == 1)
    }

    static let badChooser = """
    local function base(name, began)
      return segue.interaction {
        name = name,
        gesture_began = began,
        changed = function(tr, g) end,
        ended = function(tr, g) tr.cancel() end,
      }
    end
    return {
      base("raises", function(g, info) error("no choice") end),
      base("garbage", function(g, info) return 42 end),
      base("bad-method", function(g, info) return { method = "scene.destroy", params = {} } end),
      base("other-scene", function(g, info) return { method = "container.select", params = { scene = "elsewhere", container = "c", index = 1 } } end),
      base("root-pop", function(g, info) return { method = "container.select", params = { container = "c", index = 0 } } end),
      base("chooser", function(g, info)
        if info.containers.c.selected == 0 and info.root == "c" and info.containers.c.kind == "custom" then
          return { method = "container.select", params = { container = "c", index = 1 } }
        end
      end),
    }
    """

    @Test("a gesture_began that raises, returns garbage or an operation that cannot start refuses with a plugin.warning")
    func badChoices() throws {
        let daemon = try DaemonProcess(pluginFiles: ["choosers.lua": GestureFirstTests.badChooser])
        let client = try daemon.client()
        try setUpContainer(client, kind: "custom")
        for name in ["raises", "garbage", "bad-method", "other-scene", "root-pop"] {
            let result = try client.call("gesture.pan", ["phase": "began", "interaction": .string(name)])
            #expect(refused(result), "\(name)")
            let events = client.takeEvents()
            #expect(events.map { $0["type"]?.stringValue } == ["plugin.warning"], "\(name)")
            #expect(try client.call("transition.list", [:]) == [], "\(name)")
        }
        let chosen = try client.call("gesture.pan", ["phase": "began", "interaction": "chooser"])
        #expect(chosen["state"] == "interactive")
    }
}
