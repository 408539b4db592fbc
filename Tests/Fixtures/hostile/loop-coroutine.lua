-- expect: failed_over instruction budget exceeded
-- Loops inside coroutines, resumed again and again after each stop.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx)
    local co = coroutine.create(function() while true do end end)
    while true do coroutine.resume(co) ; coroutine.wrap(function() while true do end end) end
  end,
}
