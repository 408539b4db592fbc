-- flip: seed 003's TWTSimpleAnimationController for a navigation controller — a wrapper around
-- UIView.transition(from:to:duration:options:). 0.5 s; a push flips from the right, a pop from the left (for other
-- kinds: forward flips from the right, backward from the left).
-- segue.transition swaps the views in the model at once, as UIKit does; on screen the from-view turns edge-on
-- over the first half and the to-view turns in over the second (perspective m34 = -1/500).
return segue.animator {
  name = "flip",
  kinds = { "select", "push", "pop", "set" },  -- what it is written for: plugins.check runs those cases
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return 0.5
  end,

  animate = function(ctx)
    local from, to = ctx:view("from"), ctx:view("to")
    to.frame = ctx:final_frame("to")
    local backward = ctx.kind == "pop" or ctx.kind == "dismiss" or ctx.direction == "backward"
    segue.transition(from, to, {
      duration = ctx.duration,
      options = backward and "flip_from_left" or "flip_from_right",
    }, function(finished)
      ctx:complete(not ctx.cancelled)
    end)
  end,
}
