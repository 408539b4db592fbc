-- expect: watchdog
-- Adds the to-view and never calls complete: the watchdog completes the transition.
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx) ctx.container:add(ctx:view("to")) end,
}
