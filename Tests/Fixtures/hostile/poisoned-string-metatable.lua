-- expect: failed_over poisoned
-- Poisons the string metatable of its own state only: other plugins (and scenes) are unaffected.
getmetatable("").__index = function() error("poisoned") end
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx) local s = ("x"):upper() ctx:complete(true) end,
}
