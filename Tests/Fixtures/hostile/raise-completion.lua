-- expect: warning animation completion raised
-- expect: watchdog
-- The completion block raises before it calls complete: reported, and the watchdog completes the transition.
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx)
    ctx.container:add(ctx:view("to"))
    segue.animate({ duration = 0.2 }, function() ctx:view("to").alpha = 1 end, function(finished)
      error("completion blew up")
      ctx:complete(true)
    end)
  end,
}
