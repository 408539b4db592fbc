-- expect: failed_over must return a number
return segue.animator {
  duration = function(ctx) return "fast" end,
  animate = function(ctx) ctx:complete(true) end,
}
