-- bounce-present: seed 002's BouncePresentAnimation. The presented view comes up from below the screen to its
-- final frame on a spring (0.8 s, damping 0.6, no initial velocity). Cancel-correct: it tells the context the
-- truth instead of completeTransition:YES, so an interactive presentation can be cancelled.
return segue.animator {
  name = "bounce-present",
  kinds = { "present" },  -- what it is written for: plugins.check runs those cases
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return 0.8
  end,

  animate = function(ctx)
    local to = ctx:view("to")
    local final = ctx:final_frame("to")
    to.frame = segue.offset(final, 0, ctx.container.bounds.h)
    ctx.container:add(to)
    segue.animate({ duration = ctx.duration, spring = { damping = 0.6, velocity = 0 } }, function()
      to.frame = final
    end, function(finished)
      ctx:complete(not ctx.cancelled)
    end)
  end,
}
