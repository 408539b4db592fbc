-- expect: warning more than once
-- Calls complete in the animation's completion and again from a timer after the transition ended.
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx)
    ctx.container:add(ctx:view("to"))
    segue.animate({ duration = 0.2 }, function() ctx:view("to").alpha = 1 end, function() ctx:complete(true) end)
    segue.after(0.5, function() ctx:complete(true) end)
  end,
}
