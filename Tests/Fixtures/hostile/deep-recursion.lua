-- expect: failed_over not enough memory
-- Unbounded Lua recursion.
local function f(n) return f(n + 1) + 1 end
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx) f(1) end,
}
