-- expect: failed_over not enough memory
-- One huge string, then doubling concatenation under pcall.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx)
    pcall(string.rep, "x", 1e9)
    local s = "x"
    while true do s = s .. s end
  end,
}
