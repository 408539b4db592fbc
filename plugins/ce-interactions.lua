-- ce-horizontal-swipe, ce-vertical-swipe, ce-pinch: VCTransitionsLibrary's three interaction controllers
-- (Colin Eberhardt, MIT; InteractionControllers/CEHorizontalSwipeInteractionController.m,
-- CEVerticalSwipeInteractionController.m, CEPinchInteractionController.m), ported to gesture-first interaction.
--
-- The originals are wired to a view controller for an operation (pop, tab or dismiss) and decide in their
-- UIGestureRecognizerStateBegan branch whether anything happens. Here `gesture_began(g, scene_info)` decides the
-- same way, reading the operation from the scene: a presented view controller on top is dismissed; else the root
-- container (or the first container) is popped when it is a navigation stack, or moved ±1 when it holds tabs.
--   gesture.pan {phase: "began", interaction: "ce-horizontal-swipe", velocity: {x: -300, y: 0}}
-- answers the transition it started (or {transition: null, refused: true}); later samples name that transition.
--
-- As in the originals: the swipes' percent is |translation| / 200 clamped to 0…1 (and at 1 held at 0.99, the
-- originals' guard against a completion UIKit once skipped); the pinch's is 1 − scale / startScale. The
-- transition finishes when the gesture ends past half-way and cancels otherwise (or when the gesture is
-- cancelled). The completion speed is 1 − percent.

-- The operation the originals were wired for, found in the scene: "dismiss" of the top presented view
-- controller, "pop" or "tab" of the root container (or of the first container by id).
local function target(scene_info)
  local presented = scene_info.presented or {}
  for presenting, top in next, presented do
    -- The top of the chain: presented, and presenting nothing itself.
    if presented[top] == nil then
      return "dismiss", top
    end
  end
  local containers = scene_info.containers or {}
  local id = scene_info.root
  if id == nil or containers[id] == nil then
    local ids = {}
    for k in next, containers do ids[#ids + 1] = k end
    table.sort(ids)
    id = ids[1]
  end
  local c = id and containers[id]
  if c == nil then return nil end
  if c.kind == "navigation" then return "pop", id, c end
  return "tab", id, c
end

local function dismiss(vc) return { method = "modal.dismiss", params = { presented = vc } } end
local function pop(id) return { method = "nav.pop", params = { container = id } } end

-- The percent-driven half the three share: changed, ended and the completion speed.
local function swipe_changed(axis)
  return function(tr, g)
    local fraction = math.abs(g.translation[axis] / 200.0)
    fraction = math.min(math.max(fraction, 0.0), 1.0)
    tr.state.should_complete = fraction > 0.5
    if fraction >= 1.0 then fraction = 0.99 end
    tr.update(fraction)
  end
end

local function ended(tr, g)
  if not tr.state.should_complete or g.phase == "cancelled" then
    tr.cancel()
  else
    tr.finish()
  end
end

local function completion_speed(tr) return 1 - tr.percent end

local horizontal = segue.interaction {
  name = "ce-horizontal-swipe",
  version = "1.0.0",
  api = 1,
  -- popOnRightToLeft = YES, the original's default.
  gesture_began = function(g, scene_info)
    local right_to_left = g.velocity.x < 0
    local operation, id, c = target(scene_info)
    if operation == "dismiss" then
      -- For dismiss, fire regardless of the translation direction.
      return dismiss(id)
    elseif operation == "pop" then
      if right_to_left and #c.stack > 1 then return pop(id) end
    elseif operation == "tab" then
      local selected, count = c.selected or 0, #c.children
      if right_to_left then
        if selected < count - 1 then
          return { method = "container.select", params = { container = id, index = selected + 1 } }
        end
      elseif selected > 0 then
        return { method = "container.select", params = { container = id, index = selected - 1 } }
      end
    end
    return nil
  end,
  began = function(tr, g) tr.state.should_complete = false end,
  changed = swipe_changed("x"),
  ended = ended,
  completion_speed = completion_speed,
}

local vertical = segue.interaction {
  name = "ce-vertical-swipe",
  version = "1.0.0",
  api = 1,
  gesture_began = function(g, scene_info)
    local top_to_bottom = g.translation.y > 0
    local operation, id, c = target(scene_info)
    if operation == "dismiss" then return dismiss(id) end
    -- For pop, fire on top-to-bottom. A tab container: the original refuses to be wired to one.
    if operation == "pop" and top_to_bottom and #c.stack > 1 then return pop(id) end
    return nil
  end,
  began = function(tr, g) tr.state.should_complete = false end,
  changed = swipe_changed("y"),
  ended = ended,
  completion_speed = completion_speed,
}

local pinch = segue.interaction {
  name = "ce-pinch",
  version = "1.0.0",
  api = 1,
  gesture_began = function(g, scene_info)
    local operation, id, c = target(scene_info)
    if operation == "dismiss" then return dismiss(id) end
    if operation == "pop" and #c.stack > 1 then return pop(id) end
    return nil
  end,
  began = function(tr, g)
    tr.state.start_scale = g.scale or 1
    tr.state.should_complete = false
  end,
  changed = function(tr, g)
    local fraction = 1.0 - (g.scale or 1) / (tr.state.start_scale or 1)
    tr.state.should_complete = fraction > 0.5
    tr.update(fraction)
  end,
  ended = ended,
  completion_speed = completion_speed,
}

return { horizontal, vertical, pinch }
