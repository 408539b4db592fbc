-- expect: failed_over stack overflow
-- Unbounded recursion through the host: animation blocks that open animation blocks.
local function nest() segue.animate({ duration = 0.1 }, nest) end
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx) nest() end,
}
