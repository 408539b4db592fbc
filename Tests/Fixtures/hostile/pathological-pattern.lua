-- expect: failed_over instruction budget exceeded
-- A backtracking pattern that would take seconds in one call into the stock string library.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx)
    while true do pcall(string.find, ("a"):rep(400), ".-.-.-b") end
  end,
}
