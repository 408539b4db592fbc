-- CETurnAnimationController of ColinEberhardt's VCTransitionsLibrary (AnimationControllers/CETurnAnimationController.m,
-- MIT), ported as an outsider would, from docs/PLUGIN_API.md alone: the container gets CETurn's perspective as its
-- sublayer transform (m34 = -0.002), both views the from-view's initial frame; the to-view starts turned a quarter
-- away, then the from-view turns a quarter over the first half of a keyframe block and the to-view back over the
-- second. The block runs with UIKit's default options (0: ease-in-ease-out over the whole block). flipDirection is
-- CEDirectionHorizontal (the default: turns about x); `reverse` is the backward direction (a pop), as the library's
-- navigation delegate sets it. Kept as a fixture of the port check (Tests/SegueLuaTests/PortTests.swift).
return segue.animator {
  name = "ce-turn",
  kinds = { "select", "push", "pop", "set" },
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return 1.0 -- CEReversibleAnimationController's default duration
  end,

  animate = function(ctx)
    local from, to = ctx:view("from"), ctx:view("to")
    local container = ctx.container
    container:add(to)

    -- CATransform3D transform = CATransform3DIdentity; transform.m34 = -0.002; setSublayerTransform
    container.sublayer_transform = { m = { 1, 0, 0, 0, 0, 1, 0, 0, 0, 0, 1, -0.002, 0, 0, 0, 1 } }

    local initial = ctx:initial_frame("from")
    from.frame = initial
    to.frame = initial

    local reverse = ctx.kind == "pop" or ctx.direction == "backward"
    local factor = reverse and 1.0 or -1.0
    local function rotate(angle)
      return segue.transform.rotate3d(angle, 1.0, 0.0, 0.0) -- CATransform3DMakeRotation(angle, 1, 0, 0)
    end

    to.transform = rotate(factor * -math.pi / 2)

    segue.keyframes({ duration = ctx.duration }, function(add)
      add(0.0, 0.5, function()
        from.transform = rotate(factor * math.pi / 2)
      end)
      add(0.5, 0.5, function()
        to.transform = rotate(0.0)
      end)
    end, function(finished)
      ctx:complete(not ctx.cancelled)
    end)
  end,
}
