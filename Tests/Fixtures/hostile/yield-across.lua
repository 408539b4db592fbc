-- expect: failed_over attempt to yield
-- Yields across the host boundary: from animate itself, and from inside an animation block run in a coroutine.
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx)
    local co = coroutine.wrap(function()
      segue.animate({ duration = 0.1 }, function() coroutine.yield(1) end)
    end)
    co()
    coroutine.yield()
  end,
}
