-- expect: failed_over instruction budget exceeded
-- gsub over a multi-megabyte subject, again and again.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx)
    local s = ("ab"):rep(2e6)
    while true do s:gsub("b", "c") end
  end,
}
