-- expect: failed_over global 'debug'
-- Tries to remove its own hook (and reach the registry) with the debug library.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx) debug.sethook() local r = debug.getregistry() ctx:complete(true) end,
}
