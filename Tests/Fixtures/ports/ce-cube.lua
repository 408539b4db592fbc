-- CECubeAnimationController of ColinEberhardt's VCTransitionsLibrary (AnimationControllers/CECubeAnimationController.m,
-- by Andrés Brun, MIT), ported as an outsider would, from docs/PLUGIN_API.md alone. CubeAnimationWayHorizontal (the
-- default); `reverse` is the backward direction (a pop). Both views turn about their shared edge: each gets its
-- anchor point on that edge (which moves it, as setAnchorPoint does), the container slides by half its width under
-- them, and each turn carries the perspective in its own m34 (-1/200). A black view at 0.8 alpha over each view
-- fades as it turns away. Kept as a fixture of the port check (Tests/SegueLuaTests/PortTests.swift).
local PERSPECTIVE = -1.0 / 200.0
local ROTATION_ANGLE = math.pi / 2

return segue.animator {
  name = "ce-cube",
  kinds = { "select", "push", "pop", "set" },
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return 1.0 -- CEReversibleAnimationController's default duration
  end,

  animate = function(ctx)
    local from, to = ctx:view("from"), ctx:view("to")
    to.frame = ctx:final_frame("to")
    local reverse = ctx.kind == "pop" or ctx.direction == "backward"
    local dir = reverse and 1 or -1
    local container = ctx.container

    local from_transform = segue.transform.rotate3d(dir * ROTATION_ANGLE, 0.0, 1.0, 0.0)
    local to_transform = segue.transform.rotate3d(-dir * ROTATION_ANGLE, 0.0, 1.0, 0.0)
    to.anchor_point = { x = dir == 1 and 0 or 1, y = 0.5 }
    from.anchor_point = { x = dir == 1 and 1 or 0, y = 0.5 }
    local width = container.frame.w
    container.transform = segue.transform.translate(dir * width / 2.0, 0)

    -- viewFromTransform.m34 = PERSPECTIVE: the 12th of the 16 row-major entries.
    from_transform.m[12] = PERSPECTIVE
    to_transform.m[12] = PERSPECTIVE
    to.transform = to_transform

    -- addOpacityToView:withColor: a black view at 0.8 alpha over the view's bounds.
    local function add_opacity(view)
      local shadow = segue.view { frame = view.bounds, color = "#000000cc" }
      view:add(shadow)
      return shadow
    end
    local from_shadow, to_shadow = add_opacity(from), add_opacity(to)
    from_shadow.alpha = 0.0
    to_shadow.alpha = 1.0

    container:add(to)

    segue.animate({ duration = ctx.duration }, function()
      container.transform = segue.transform.translate(-dir * width / 2.0, 0)
      from.transform = from_transform
      to.transform = "identity"
      from_shadow.alpha = 1.0
      to_shadow.alpha = 0.0
    end, function(finished)
      container.transform = "identity"
      from.transform = "identity"
      to.transform = "identity"
      from.anchor_point = { x = 0.5, y = 0.5 }
      to.anchor_point = { x = 0.5, y = 0.5 }
      from_shadow:remove()
      to_shadow:remove()
      if ctx.cancelled then
        to:remove()
      else
        from:remove()
      end
      ctx:complete(not ctx.cancelled)
    end)
  end,
}
