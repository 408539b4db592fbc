-- cross-dissolve: seed 003's tab transition. The to-view fades in over the from-view in 0.5 s.
-- Cancel-correct: the from-view's alpha is restored in the completion, and the context is told the truth.
return segue.animator {
  name = "cross-dissolve",
  kinds = { "select", "push", "pop", "set" },  -- what it is written for: plugins.check runs those cases
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return 0.5
  end,

  animate = function(ctx)
    local from, to = ctx:view("from"), ctx:view("to")
    to.frame = ctx:final_frame("to")
    to.alpha = 0
    ctx.container:add(to)

    segue.animate({ duration = ctx.duration, curve = "ease_in_out" }, function()
      to.alpha = 1
      from.alpha = 0
    end, function(finished)
      from.alpha = 1
      ctx:complete(not ctx.cancelled)
    end)
  end,
}
