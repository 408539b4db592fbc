import SegueKit
import Testing

@testable import SegueLua

/// `view.mask` in Lua (issue 26, item 1): a view or nil; a refused one raises naming the property and the value,
/// and the write does not happen.
@Suite("Layer mask in Lua")
struct MaskLuaTests {
    @Test("view.mask sets, reads back and clears; each refusal raises and writes nothing")
    func setClearRefuse() throws {
        let (scene, container, _, b, recorder) = try sceneWithPlugins([
            "mask.lua": """
                return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                  local v = ctx:view('to')
                  local m = segue.view{frame = {x = 0, y = 0, w = 50, h = 50}}
                  v.mask = m
                  segue.log('set ' .. v.mask.id .. ' ' .. tostring(v.mask.id == m.id))
                  for _, bad in ipairs({function() v.mask = v end, function() v.mask = ctx:view('from') end,
                                        function() v.mask = 3 end}) do
                    local ok, err = pcall(bad)
                    segue.log('refused ' .. tostring(ok) .. ' ' .. err .. ' | ' .. v.mask.id)
                  end
                  v.mask = nil
                  segue.log('cleared ' .. tostring(v.mask))
                  v.mask = m
                  ctx:complete(true)
                end }
                """,
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "mask").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        let logs = recorder.messages("log")
        #expect(logs.contains { $0.contains("set v-") && $0.contains(" true") }, "\(logs)")
        let refused = logs.filter { $0.contains("refused") }
        #expect(refused.count == 3, "\(logs)")
        #expect(refused.allSatisfy { $0.contains("refused false view.mask") && $0.contains("| v-") }, "\(refused)")
        #expect(refused.first?.contains("itself") == true)
        #expect(refused.dropFirst().first?.contains("superview") == true)
        #expect(refused.last?.contains("expects a view or nil, got 3") == true)
        #expect(logs.contains { $0.contains("cleared nil") }, "\(logs)")
        #expect(b.view.mask != nil)
    }
}
