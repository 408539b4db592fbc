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

    @Test("issue 26's bad input, each a Lua error naming the property and the value, nothing written: a mask that is an ancestor, 1 001 key times, an unknown transform field")
    func badInputParagraph() throws {
        let (scene, container, _, _, recorder) = try sceneWithPlugins([
            "bad.lua": """
                return segue.animator { duration = function() return 0.1 end, animate = function(ctx)
                  local v = ctx:view('to')
                  ctx.container:add(v)
                  local outer = segue.view{frame = {x = 0, y = 0, w = 50, h = 50}}
                  local inner = segue.view{frame = {x = 0, y = 0, w = 10, h = 10}}
                  outer:add(inner)
                  local ok, err = pcall(function() inner.mask = outer end)
                  segue.log(tostring(ok) .. ' ' .. err .. ' | ' .. tostring(inner.mask))
                  local times = {} for i = 1, 1001 do times[i] = 0 end
                  ok, err = pcall(v.add_animation, v, 'k', { key_path = 'opacity', values = {0, 1}, key_times = times, duration = 1 })
                  segue.log(tostring(ok) .. ' ' .. err .. ' | ' .. #v:animation_keys())
                  ok, err = pcall(v.add_animation, v, 'k', { key_path = 'transform.rotation.w', to = 1, duration = 1 })
                  segue.log(tostring(ok) .. ' ' .. err .. ' | ' .. #v:animation_keys())
                  ok, err = pcall(v.add_animation, v, 'k', { key_path = 'transform.translation', to = 1, duration = 1 })
                  segue.log(tostring(ok) .. ' ' .. err .. ' | ' .. #v:animation_keys())
                  ctx:complete(true)
                end }
                """,
        ])
        let t = try #require(try scene.select(container, index: 1, animator: "bad").transition)
        #expect(!t.failedOver, "\(t.problems.map(\.message))")
        let logs = recorder.messages("log")
        #expect(logs.count == 4, "\(logs)")
        #expect(logs.first?.contains("false ") == true && logs.first?.contains("view.mask cannot be an ancestor of the view, got view v-") == true
                && logs.first?.hasSuffix("| nil") == true, "\(logs)")
        #expect(logs.dropFirst().first?.contains("false ") == true
                && logs.dropFirst().first?.contains("view:add_animation('k'): key_times has 1001 entries, more than 1000") == true
                && logs.dropFirst().first?.hasSuffix("| 0") == true, "\(logs)")
        #expect(logs.dropFirst(2).first?.contains("key_path 'transform.rotation.w' is no animatable key path (did you mean 'transform.rotation") == true
                && logs.dropFirst(2).first?.hasSuffix("| 0") == true, "\(logs)")
        #expect(logs.last?.contains("to must be a pair {x, y} or {w, h}, got 1") == true && logs.last?.hasSuffix("| 0") == true,
                "\(logs)")
    }
}
