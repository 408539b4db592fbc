-- expect: failed_over not enough memory
-- Grows a table of strings until the memory cap stops it.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx)
    local t = {}
    while true do t[#t + 1] = ("x"):rep(65536) .. #t end
  end,
}
