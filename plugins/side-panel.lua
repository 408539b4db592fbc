-- side-panel: seed 001's presentation controller and its animator.
--
-- The presentation plugin puts the presented view on the right, a third of the container's width (rounded down)
-- and its full height; a dimming view covers the container behind it, faded in alongside the presentation and
-- out alongside the dismissal (through the transition coordinator, so it is scrubbed with an interactive one);
-- `layout` keeps both right on scene.resize, also in the middle of a transition. The animator slides the panel
-- in from the right (0.5 s) and back out on dismissal.
--   modal.present {presenting: "a", presented: "panel", presentation: "side-panel", animator: "side-panel-slide"}
local function panel_frame(bounds)
  local w = math.floor(bounds.w / 3)
  return { x = bounds.w - w, y = 0, w = w, h = bounds.h }
end

local controller = segue.presentation {
  name = "side-panel",
  version = "1.0.0",
  api = 1,

  frame_of_presented_view = function(pc)
    return panel_frame(pc.container.bounds)
  end,

  will_begin = function(pc)
    local dimming = segue.view { frame = pc.container.bounds, color = "#00000080" }
    dimming.alpha = 0
    pc.container:insert(dimming, 1)
    pc.state.dimming = dimming
    if pc.coordinator then
      pc.coordinator:alongside(function() dimming.alpha = 1 end)
    else
      dimming.alpha = 1
    end
  end,

  did_end = function(pc, completed)
    if not completed and pc.state.dimming then
      pc.state.dimming:remove()
      pc.state.dimming = nil
    end
  end,

  dismissal_will_begin = function(pc)
    local dimming = pc.state.dimming
    if not dimming then return end
    if pc.coordinator then
      pc.coordinator:alongside(function() dimming.alpha = 0 end)
    else
      dimming.alpha = 0
    end
  end,

  dismissal_did_end = function(pc, completed)
    if completed and pc.state.dimming then
      pc.state.dimming:remove()
      pc.state.dimming = nil
    end
  end,

  layout = function(pc)
    if pc.state.dimming then pc.state.dimming.frame = pc.container.bounds end
    pc.presented_view.frame = panel_frame(pc.container.bounds)
  end,
}

local slide = segue.animator {
  name = "side-panel-slide",
  kinds = { "present", "dismiss" },  -- what it is written for: plugins.check runs those cases
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return 0.5
  end,

  animate = function(ctx)
    local presenting = ctx.kind == "present"
    local view = presenting and ctx:view("to") or ctx:view("from")
    local final = presenting and ctx:final_frame("to") or ctx:initial_frame("from")
    local offscreen = segue.offset(final, final.w, 0)
    if presenting then
      view.frame = offscreen
      ctx.container:add(view)
    end
    segue.animate({ duration = ctx.duration, curve = "ease_out" }, function()
      view.frame = presenting and final or offscreen
    end, function(finished)
      ctx:complete(not ctx.cancelled)
    end)
  end,
}

return { controller, slide }
