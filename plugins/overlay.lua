-- overlay-present / overlay-dismiss: seed 003's overlay. The presented view takes the container inset by
-- 40/40/200/40 and pops in: alpha 0 → 1 over half the duration, scale 0.3 → 1 on a spring (damping 0.55).
-- The dismissal reverses it: the view fades over ¾ of the duration after a ¼ delay (ease-in) while it scales down
-- to 0.3 on a critically damped spring over twice the duration; the fade's completion ends the transition.
-- Use them with style "overFullScreen" (the presenting view stays, as the seed's custom presentation does).
local DURATION = 0.5

local present = segue.animator {
  name = "overlay-present",
  kinds = { "present" },  -- what it is written for: plugins.check runs those cases
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return DURATION
  end,

  animate = function(ctx)
    local to = ctx:view("to")
    to.frame = segue.inset(ctx.container.bounds, 40, 40, 200, 40)
    ctx.container:add(to)
    to.alpha = 0
    to.transform = segue.transform.scale(0.3, 0.3)
    segue.animate({ duration = ctx.duration / 2 }, function()
      to.alpha = 1
    end)
    segue.animate({ duration = ctx.duration, spring = { damping = 0.55, velocity = 0 } }, function()
      to.transform = segue.transform.identity
    end, function(finished)
      ctx:complete(not ctx.cancelled)
    end)
  end,
}

local dismiss = segue.animator {
  name = "overlay-dismiss",
  kinds = { "dismiss" },  -- what it is written for: plugins.check runs those cases
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return DURATION
  end,

  animate = function(ctx)
    local from = ctx:view("from")
    local d = ctx.duration
    segue.animate({ duration = 3 * d / 4, delay = d / 4, curve = "ease_in" }, function()
      from.alpha = 0
    end, function(finished)
      ctx:complete(not ctx.cancelled)
    end)
    segue.animate({ duration = 2 * d, spring = { damping = 1, velocity = 0 } }, function()
      from.transform = segue.transform.scale(0.3, 0.3)
    end)
  end,
}

return { present, dismiss }
