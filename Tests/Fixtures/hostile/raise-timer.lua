-- expect: warning segue.after callback raised
-- A timer that loops forever after the transition ended: stopped and reported.
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx)
    ctx.container:add(ctx:view("to"))
    ctx:complete(true)
    segue.after(0.1, function() while true do end end)
  end,
}
