-- Seed 001: its presentation controller (a panel on the right half) and ExampleAnimatedTransitioning, which slides
-- the panel in from the right and, on dismissal, from finalFrame(for: fromVC) out to the right. The seed calls
-- completeTransition(true) whatever happened; panel-slide-truthful is the same animator completing truthfully.
local function panel_frame(bounds)
  return { x = bounds.w / 2, y = 0, w = bounds.w / 2, h = bounds.h }
end

local controller = segue.presentation {
  name = "panel",
  frame_of_presented_view = function(pc) return panel_frame(pc.container.bounds) end,
}

local function slide(name, truthful)
  return segue.animator {
    name = name,
    kinds = { "present", "dismiss" },
    duration = function(ctx) return 0.5 end,
    animate = function(ctx)
      local presenting = ctx.kind == "present"
      local view = presenting and ctx:view("to") or ctx:view("from")
      local final = presenting and ctx:final_frame("to") or ctx:final_frame("from")
      local offscreen = segue.offset(final, final.w, 0)
      if presenting then ctx.container:add(view) end
      view.frame = presenting and offscreen or final
      segue.animate({ duration = ctx.duration, spring = { damping = 1, velocity = 5 } }, function()
        view.frame = presenting and final or offscreen
      end, function(finished)
        if truthful then
          if not presenting and not ctx.cancelled then view:remove() end
          ctx:complete(not ctx.cancelled)
        else
          if not presenting then view:remove() end
          ctx:complete(true)
        end
      end)
    end,
  }
end

return { controller, slide("panel-slide", false), slide("panel-slide-truthful", true) }
