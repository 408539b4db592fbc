-- expect: failed_over only "count"
-- Tries to stop the collector.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx) collectgarbage("stop") ctx:complete(true) end,
}
