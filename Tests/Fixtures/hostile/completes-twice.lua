-- expect: warning more than once
-- Calls complete twice: the second is ignored with a plugin.warning.
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx)
    ctx.container:add(ctx:view("to"))
    ctx:complete(true)
    ctx:complete(true)
  end,
}
