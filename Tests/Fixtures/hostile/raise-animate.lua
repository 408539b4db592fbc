-- expect: failed_over half-way
-- Raises after changing things: what its call did is undone, the default finishes.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx)
    local to, from = ctx:view("to"), ctx:view("from")
    ctx.container:add(to)
    from.alpha = 0.1
    to.transform = segue.transform.scale(3)
    ctx.container:add(segue.view { frame = segue.rect(0, 0, 50, 50), color = "#ff0000" })
    segue.animate({ duration = 0.3 }, function() from.alpha = 0 end)
    error("half-way")
  end,
}
