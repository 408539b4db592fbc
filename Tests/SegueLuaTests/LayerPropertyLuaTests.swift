import SegueKit
import Testing

@testable import SegueLua

/// Core Animation's layer geometry in Lua: `anchor_point`, `position`, `sublayer_transform`, `double_sided` read
/// and write, animate, and refuse bad input naming the property and the value.
@Suite("Layer properties in Lua")
struct LayerPropertyLuaTests {
    /// Runs `body` as an animator's animate (with `to` the incoming view) and returns the transition.
    static func run(_ body: String) throws -> (Transition, Scene, ViewController, Recorder) {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "l.lua": animatorSource(duration: "function() return 1 end", animate: body + "\nctx:complete(true)")
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "l").transition)
        return (t, scene, b, recorder)
    }

    @Test("the layer properties read their defaults; anchor_point moves the frame and keeps position = center")
    func readAndWrite() throws {
        let (t, _, b, recorder) = try Self.run("""
            local a = to.anchor_point
            segue.log(a.x .. ' ' .. a.y .. ' ' .. tostring(to.double_sided) .. ' ' .. tostring(to.sublayer_transform.a))
            local p = to.position
            segue.log(p.x .. ' ' .. p.y .. ' ' .. to.center.x .. ' ' .. to.center.y)
            to.anchor_point = { x = 0, y = 0 }
            local f = to.frame
            segue.log(f.x .. ' ' .. f.y .. ' ' .. to.position.x)
            to.position = { x = 10, y = 20 }
            segue.log(to.center.x .. ' ' .. to.center.y)
            to.sublayer_transform = segue.transform.perspective(500)
            to.double_sided = false
            """)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        #expect(recorder.messages("log") == ["0.5 0.5 true 1.0", "160.0 240.0 160.0 240.0", "160.0 240.0 160.0", "10.0 20.0"])
        // The container lays its child out at the end (frame = its bounds): with the anchor point at the top left,
        // that frame puts the position at (0, 0).
        #expect(b.view.model.frame == Rect(x: 0, y: 0, w: 320, h: 480))
        #expect(b.view.model.center == Point(x: 0, y: 0))
        #expect(b.view.model.sublayerTransform == Transform3D.perspective(500))
        #expect(!b.view.model.doubleSided)
    }

    @Test("a 3-D turn set in segue.animate is half-way a half turn, no shrink")
    func decomposedInLua() throws {
        let (t, scene, b, _) = try Self.run("""
            segue.animate({ duration = 1, curve = 'linear' }, function()
              to.transform = segue.transform.rotate3d(math.pi / 2, 0, 1, 0)
            end)
            """)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        scene.advance(by: 500_000_000)
        let half = b.view.presentation.transform.values
        let expected = Transform3D.rotation(.pi / 4, 0, 1, 0).values
        #expect(zip(half, expected).allSatisfy { abs($0 - $1) < 1e-9 }, "\(half)")
    }

    @Test("bad input raises naming the property and the value, and nothing is written")
    func badInput() throws {
        for (line, expected) in [
            ("to.anchor_point = { x = 0/0, y = 0.5 }", "view.anchor_point expects a point {x=, y=}, got {x="),
            ("to.anchor_point = { x = 1 }", "view.anchor_point expects a point {x=, y=}, got {x=1, y=nil}"),
            ("to.position = { x = math.huge, y = 0 }", "view.position expects a point {x=, y=}, got {x=inf, y=0}"),
            ("to.sublayer_transform = { m = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, math.huge, 0, 0, 0, 1 } }",
             "view.sublayer_transform expects a transform from segue.transform.* ({a,b,c,d,tx,ty} or {m={16 numbers}}), got {m[12]=inf}"),
            ("to.transform = { a = 0/0, b = 0, c = 0, d = 1, tx = 0, ty = 0 }", "view.transform expects a transform"),
            ("to.double_sided = 1", "view.double_sided expects a boolean, got 1"),
            ("to.sublayer_transform = 'flat'", "view.sublayer_transform expects a transform"),
        ] {
            let (t, _, b, _) = try Self.run(line)
            #expect(t.failedOver)
            let message = t.problems.first?.message ?? "none"
            #expect(message.contains(expected), "\(line): \(message)")
            #expect(b.view.model.anchorPoint == Point(x: 0.5, y: 0.5))
            #expect(b.view.model.sublayerTransform.isIdentity && b.view.model.doubleSided)
            #expect(b.view.model.transform.isIdentity)
        }
        // The raise propagates as any raise does: pcall catches it.
        let (t, _, _, recorder) = try Self.run("""
            local ok, err = pcall(function() to.anchor_point = { x = 0/0, y = 0 } end)
            segue.log(tostring(ok) .. ' ' .. tostring(err))
            """)
        #expect(!t.failedOver)
        #expect(recorder.messages("log").first?.hasPrefix("false ") == true)
        #expect(recorder.messages("log").first?.contains("view.anchor_point expects") == true)
    }
    @Test("the transform reader: a missing or numeric-string field and a bad m refuse; an m that is no table falls to the six fields")
    func transformReader() throws {
        for line in [
            "to.transform = { a = 1, b = 0, c = 0, d = 1, tx = 5 }",
            "to.transform = { a = 1, b = 0, c = 0, d = 1, tx = '5', ty = 0 }",
            "to.transform = { m = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, 0 } }",
            "to.transform = { m = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 0, 0, '0', 1 }, a = 1, b = 0, c = 0, d = 1, tx = 0, ty = 0 }",
        ] {
            let (t, _, b, _) = try Self.run(line)
            #expect(t.failedOver, "\(line)")
            #expect(t.problems.first?.message.contains("view.transform expects a transform") == true, "\(line)")
            #expect(b.view.model.transform.isIdentity)
        }
        let (t, _, b, _) = try Self.run("""
            to.transform = { m = 5, a = 2, b = 0, c = 0, d = 3, tx = 5, ty = 6 }
            local s = 0
            for i = 1, 50 do local r = { a = 1, b = 0, c = 0, d = 1, tx = i, ty = 0 }; s = s + r.tx end
            ctx:view("from").transform = { m = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, 0, 7, 8, 0, 1 } }
            """)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        #expect(b.view.model.transform == Transform3D(a: 2, b: 0, c: 0, d: 3, tx: 5, ty: 6))
        #expect(t.from.view.model.transform == Transform3D(a: 1, b: 0, c: 0, d: 1, tx: 7, ty: 8))
    }
}
