-- expect: failed_over instruction budget exceeded
-- A loop that tries to swallow the stop with pcall and xpcall: once the budget is spent every instruction raises.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx)
    while true do
      pcall(function() while true do end end)
      xpcall(function() while true do end end, function(e) return e end)
    end
  end,
}
