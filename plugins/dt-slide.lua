-- dt-slide: seed 004's DTTransitionAnimator and its DTTransitionDelegate. Both views slide together over 0.28 s
-- with ease-in-out; the direction comes from the indices (to above from: the new page comes in from the right).
-- Cancel-correct: transforms are reset whatever happened, and the context is told the truth.
--
-- The file returns two plugins: the animator `dt-slide`, and the delegate `dt-slide-delegate`, which chooses it by
-- index as the seed's dt_animationControllerForContainerViewController:…atIndex:… does. Give a container the
-- delegate (`container.create {…, delegate = "dt-slide-delegate"}` or `container.set_delegate`) and every select
-- between indexed pages slides, without naming an animator in each request.
local animator = segue.animator {
  name = "dt-slide",
  kinds = { "select", "push", "pop", "set" },  -- what it is written for: plugins.check runs those cases
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

local delegate = segue.delegate {
  name = "dt-slide-delegate",
  version = "1.0.0",
  api = 1,

  -- The seed: "fromIndex and toIndex only decide the direction" — any move between two indices slides.
  animator_for = function(op)
    if op.from_index ~= nil and op.to_index ~= nil and op.from_index ~= op.to_index then
      return "dt-slide"
    end
    return nil
  end,
}

return { animator, delegate }
