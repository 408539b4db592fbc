-- Seed 000's PrivateAnimatedTransition, as the seed writes it: the completion puts the from-view's transform back
-- but not its alpha, which the animation took to 0.
return segue.animator {
  name = "private-animated-transition",
  duration = function(ctx) return 1 end,
  animate = function(ctx)
    local from, to = ctx:view("from"), ctx:view("to")
    local going_right = ctx:initial_frame("to").x < ctx:final_frame("to").x
    local distance = ctx.container.bounds.w + 16
    local travel = segue.transform.translate(going_right and distance or -distance, 0)
    ctx.container:add(to)
    to.alpha = 0
    to.transform = segue.transform.translate(going_right and -distance or distance, 0)
    segue.animate({ duration = ctx.duration, spring = { damping = 0.75, velocity = 0.5 } }, function()
      if from then
        from.transform = travel
        from.alpha = 0
      end
      to.transform = segue.transform.identity
      to.alpha = 1
    end, function(finished)
      if from then from.transform = segue.transform.identity end
      ctx:complete(not ctx.cancelled)
    end)
  end,
}
