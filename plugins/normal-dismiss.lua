-- normal-dismiss + swipe-up: seed 002's NormalDismissAnimation and its percent-driven interaction.
--
-- normal-dismiss moves the presented view down off the screen (0.4 s, linear — so a scrub maps the finger to the
-- view one to one). swipe-up is the interaction controller: a pan's vertical translation over 400 points is the
-- percent (clamped to 0…1), the dismissal finishes when the gesture ends past half-way and cancels otherwise,
-- and the completion speed is 1 − percent (the seed's; at 100 % that is 0, which the engine treats as 1 with a
-- plugin.warning). Start it the way the seed does — the gesture begins the dismissal:
--   gesture.pan {phase: "began", start: {method: "modal.dismiss",
--                params: {presented: "m", animator: "normal-dismiss", interactive: "swipe-up"}}}
local dismiss = segue.animator {
  name = "normal-dismiss",
  kinds = { "dismiss" },  -- what it is written for: plugins.check runs those cases
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return 0.4
  end,

  animate = function(ctx)
    local from = ctx:view("from")
    local start = from.frame
    segue.animate({ duration = ctx.duration, curve = "linear" }, function()
      from.frame = segue.offset(start, 0, ctx.container.bounds.h)
    end, function(finished)
      ctx:complete(not ctx.cancelled)
    end)
  end,
}

local swipe = segue.interaction {
  name = "swipe-up",
  version = "1.0.0",
  api = 1,

  began = function(tr, g)
    tr.state.should_complete = false
  end,

  changed = function(tr, g)
    local fraction = g.translation.y / 400
    fraction = math.min(math.max(fraction, 0), 1)
    tr.state.should_complete = fraction > 0.5
    tr.update(fraction)
  end,

  ended = function(tr, g)
    if not tr.state.should_complete or g.phase == "cancelled" then
      tr.cancel()
    else
      tr.finish()
    end
  end,

  completion_speed = function(tr)
    return 1 - tr.percent
  end,
}

return { dismiss, swipe }
