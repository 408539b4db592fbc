-- dt-slide: seed 004's DTTransitionAnimator. Both views slide together over 0.28 s with ease-in-out; the
-- direction comes from the indices (to above from: the new page comes in from the right).
-- Cancel-correct: transforms are reset whatever happened, and the context is told the truth.
return segue.animator {
  name = "dt-slide",
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return 0.28
  end,

  animate = function(ctx)
    local from, to = ctx:view("from"), ctx:view("to")
    local container = ctx.container
    local width = container.bounds.w
    local forward = ctx.direction ~= "backward"

    to.frame = container.bounds
    container:add(to)
    to.transform = segue.transform.translate(forward and width or -width, 0)
    from.transform = segue.transform.identity

    segue.animate({ duration = ctx.duration, curve = "ease_in_out" }, function()
      to.transform = segue.transform.identity
      from.transform = segue.transform.translate(forward and -width or width, 0)
    end, function(finished)
      to.transform = segue.transform.identity
      from.transform = segue.transform.identity
      ctx:complete(not ctx.cancelled)
    end)
  end,
}
