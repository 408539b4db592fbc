-- Seed 003's TWTSimpleAnimationController for a navigation controller, completing with completeTransition:YES
-- whatever happened (as the seed does).
return segue.animator {
  name = "flip-always-true",
  kinds = { "push", "pop" },
  duration = function(ctx) return 0.5 end,
  animate = function(ctx)
    local from, to = ctx:view("from"), ctx:view("to")
    to.frame = ctx:final_frame("to")
    segue.transition(from, to, {
      duration = ctx.duration,
      options = ctx.kind == "pop" and "flip_from_left" or "flip_from_right",
    }, function(finished)
      ctx:complete(true)
    end)
  end,
}
