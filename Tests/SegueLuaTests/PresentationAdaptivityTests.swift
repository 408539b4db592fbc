import Testing

@testable import SegueKit
@testable import SegueLua

/// Issue 28 items 5 and 6 for presentation plugins: `adaptive_style(pc, traits)` and
/// `will_transition_to_size(pc, size)` with `pc.coordinator:alongside`.
@Suite("Presentation plugins: adaptivity and size transitions")
struct PresentationAdaptivityTests {
    static let panel = """
        return segue.presentation {
          name = "panel",
          frame_of_presented_view = function(pc) return { x = 10, y = 10, w = 100, h = 100 } end,
          will_begin = function(pc)
            local dim = segue.view { frame = { x = 0, y = 0, w = 320, h = 480 } }
            pc.container:add(dim)
            pc.state.dim = dim
          end,
          adaptive_style = function(pc, traits)
            if traits.horizontal == "regular" then return "fullScreen" end
            return "none"
          end,
          will_transition_to_size = function(pc, size)
            segue.log("size", size.w, size.h)
            pc.coordinator:alongside(function() pc.state.dim.alpha = 0.25 end)
          end,
        }
        """

    @Test("adaptive_style decides the frames per size class; will_transition_to_size animates alongside the resize")
    func adaptAndResize() throws {
        let (scene, c, _, _, recorder) = try sceneWithPlugins(["fade.lua": fadeAnimator, "panel.lua": Self.panel])
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        let t = try #require(try scene.present(m, from: c, style: nil, presentation: "panel", animator: "fade").transition)
        #expect(t.context?.finalFrame(for: m) == Rect(x: 10, y: 10, w: 100, h: 100))
        scene.advance(by: 1_100_000_000)
        #expect(m.presentation?.adaptiveStyle == .custom)
        try scene.resize(to: Size(w: 800, h: 600), duration: 0.5)
        #expect(m.presentation?.adaptiveStyle == .fullScreen)
        #expect(m.view.model.frame == Rect(x: 0, y: 0, w: 800, h: 600))
        let logs = recorder.events.filter { $0.type == "log" }.compactMap { $0.payload.message }
        #expect(logs.contains { $0.contains("size") && $0.contains("800") && $0.contains("600") })
        let dim = try #require(m.presentation?.containerView.subviews.first { $0.owner == nil })
        #expect(dim.model.alpha == 0.25)
        scene.advance(by: 250_000_000)
        #expect(dim.presentation.alpha > 0.25 && dim.presentation.alpha < 1)  // half-way through the alongside block
        scene.advance(by: 300_000_000)
        #expect(dim.presentation.alpha == 0.25)
        try scene.resize(to: Size(w: 320, h: 480))
        #expect(m.presentation?.adaptiveStyle == .custom)
        #expect(m.view.model.frame == Rect(x: 10, y: 10, w: 100, h: 100))
    }

    @Test("an adaptive_style answer that names no style is a warning; the presentation keeps its own")
    func badAnswer() throws {
        let (scene, c, _, _, recorder) = try sceneWithPlugins([
            "fade.lua": fadeAnimator,
            "odd.lua": """
                return segue.presentation {
                  name = "odd",
                  frame_of_presented_view = function(pc) return nil end,
                  adaptive_style = function(pc, traits) return "sideways" end,
                }
                """,
        ])
        let m = try scene.createViewController(id: "m", title: nil, color: nil)
        _ = try scene.present(m, from: c, style: nil, presentation: "odd", animator: "fade")
        #expect(m.presentation?.adaptiveStyle == .custom)
        #expect(recorder.events.contains { $0.type == "plugin.warning" && ($0.payload.message ?? "").contains("adaptive_style") })
    }
}
