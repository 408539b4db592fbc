-- expect: warning clamped
-- Declares a duration far above engine.max_duration_s, then completes at once.
return segue.animator {
  duration = function(ctx) return 1e308 end,
  animate = function(ctx) ctx.container:add(ctx:view("to")) ctx:complete(true) end,
}
