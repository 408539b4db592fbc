-- expect: failed_over instruction budget exceeded
-- duration(ctx) never returns.
return segue.animator {
  duration = function(ctx) local n = 0 while true do n = n + 1 end end,
  animate = function(ctx) ctx:complete(true) end,
}
