import Foundation
import SegueJSON
import SegueKit
import Testing

@testable import SegueDaemon

/// Gradient views on the protocol (issue 26 item 4): `scene.tree`'s view node carries `colors`, `locations`,
/// `start_point`, `end_point` and `type` on gradient views only, frame events carry the parts that change, and the
/// OpenRPC document's view node lists them as optional fields of their shapes.
@Suite("Protocol: gradient views")
struct GradientProtocolTests {
    static let plugin = """
        return segue.animator { duration = function() return 1 end, animate = function(ctx)
          local g = segue.gradient_view { id = nil, frame = segue.rect(0, 0, 100, 100), colors = {'#ff0000', '#0000ff'},
            type = 'radial', start_point = {x = 0.5, y = 0.5}, end_point = {x = 1, y = 1} }
          ctx.container:add(g)
          ctx.container:add(ctx:view('to'))
          segue.animate({duration = 1, curve = 'linear'}, function()
            g.colors = {'#00ff00', '#ffffff80'}
            g.locations = {0.25, 0.75}
          end, function() ctx:complete(true) end)
        end }
        """

    func harness() throws -> Harness {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("gradient-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try GradientProtocolTests.plugin.write(to: dir.appendingPathComponent("grad.lua"), atomically: true, encoding: .utf8)
        let h = try Harness { $0.pluginsDir = dir.path }
        try h.setUpScene()
        return h
    }

    static func nodes(_ node: JSONValue?) -> [JSONValue] {
        guard let node else { return [] }
        return [node] + (node["subviews"]?.arrayValue ?? []).flatMap { nodes($0) }
    }

    @Test("scene.tree carries the gradient on gradient views only; frame events carry the parts that animate")
    func treeAndFrames() throws {
        let h = try harness()
        let before = try h.result("scene.tree", ["scene": "main"])
        try h.call("events.subscribe", ["types": ["frame"]])
        try h.call("container.select", ["container": "tabs", "index": 1, "animator": "grad"])
        let lines = try h.call("clock.advance", ["ms": 500])
        let tree = try h.result("scene.tree", ["scene": "main", "presentation": true])
        let all = GradientProtocolTests.nodes(tree?["views"])
        let gradients = all.filter { $0["colors"] != nil }
        #expect(gradients.count == 1)
        let g = try #require(gradients.first)
        #expect(g["colors"] == ["#00ff00", "#ffffff80"])
        #expect(g["locations"] == [0.25, 0.75])
        #expect(g["type"] == "radial")
        #expect(g["start_point"] == ["x": 0.5, "y": 0.5] && g["end_point"] == ["x": 1, "y": 1])
        // Half-way in the presentation: red → green, blue → white at half alpha, locations from 0, 1.
        let p = try #require(g["presentation"])
        #expect(p["colors"] == ["#808000", "#8080ffc0"], "\(p["colors"] ?? .null)")
        #expect(p["locations"] == [0.125, 0.875])
        // No other view has a gradient field: trees of scenes without gradient views read as before.
        for node in all where node["colors"] == nil {
            for key in ["locations", "start_point", "end_point", "type"] { #expect(node[key] == nil, "\(key)") }
        }
        for node in GradientProtocolTests.nodes(before?["views"]) { #expect(node["colors"] == nil && node["type"] == nil) }
        let frames = lines.filter { $0["params"]?["type"] == "frame" }
        let entries = frames.flatMap { $0["params"]?["views"]?.arrayValue ?? [] }.filter { $0["colors"] != nil }
        #expect(!entries.isEmpty)
        #expect(entries.allSatisfy { $0["colors"]?.arrayValue?.count == 2 && $0["locations"]?.arrayValue?.count == 2 })
        // A view that is no gradient view never carries a gradient field in a frame.
        let plain = frames.flatMap { $0["params"]?["views"]?.arrayValue ?? [] }.filter { $0["colors"] == nil }
        #expect(plain.allSatisfy { $0["locations"] == nil && $0["type"] == nil && $0["start_point"] == nil })
    }

    @Test("the OpenRPC view node lists the gradient fields as optional, in their shapes")
    func openRPCShape() throws {
        let h = try Harness()
        let document = try h.result("rpc.discover")
        let node = try #require(document?["components"]?["schemas"]?["view_node"])
        let properties = try #require(node["properties"])
        #expect(properties["colors"]?["type"] == "array")
        #expect(properties["colors"]?["items"]?["$ref"] == "#/components/schemas/color")
        #expect(properties["start_point"]?["$ref"] == "#/components/schemas/point")
        #expect(properties["type"]?["enum"] == ["axial", "radial", "conic"])
        #expect(properties["locations"]?["oneOf"] != nil)
        let required = node["required"]?.arrayValue ?? []
        for key in ["colors", "locations", "start_point", "end_point", "type"] { #expect(!required.contains(.string(key)), "\(key)") }
    }

    @Test("a frame view's gradient parts encode as the JSON tree does (lists, null locations, the type's name)")
    func encoderMatchesTree() {
        var full = FrameView(id: "g", changes: ViewChanges(rawValue: ViewPropertyLayout.shared.gradientParts))
        full.set(.colors, [1, 0, 0, 1, 0, 0, 1, 0.5])
        full.set(.locations, [0.25, 0.75])
        full.set(.startPoint, [0, 0.2])
        full.set(.endPoint, [1, 0])
        full.set(.gradientType, [GradientType.conic.code])
        var evenly = FrameView(id: "h", changes: [ViewChanges(.locations), .alpha])
        evenly.set(.locations, [])
        evenly.values.alpha = 0.5
        let packed = FrameViews([full, evenly])
        #expect(packed[0] == full || packed[0].value(of: .colors).elementsEqual(full.value(of: .colors)))
        let event = EngineEvent(scene: "s", seq: 1, time: 0, payload: .frame(packed))
        var out = JSONOutput()
        EventEncoder.writeLine(event, to: &out)
        let reference = JSONValue.object(JSONObject([
            ("jsonrpc", "2.0"), ("method", "event"), ("params", .object(event.params)),
        ])).serialized()
        #expect(out.string == reference)
        #expect(out.string.contains(##""colors":["#ff0000","#0000ff80"],"locations":[0.25,0.75],"start_point":{"x":0,"y":0.2},"end_point":{"x":1,"y":0},"type":"conic""##), "\(out.string)")
        #expect(out.string.contains(#""locations":null"#))
    }
}
