-- objcio-animator: the third-party `Animator` seed 000 (objc.io issue 12) drops into its container unchanged —
-- objc.io issue 5's animator. The to-view fades in over 0.25 s while the from-view shrinks to a tenth of its
-- size; the from-view's transform is reset at the end.
-- Cancel-correct: the seed calls completeTransition:![transitionContext transitionWasCancelled], and so do we;
-- the from-view's transform is reset whether or not the transition finished.
return segue.animator {
  name = "objcio-animator",
  kinds = { "select", "push", "pop", "set" },  -- what it is written for: plugins.check runs those cases
  version = "1.0.0",
  api = 1,

  duration = function(ctx)
    return 0.25
  end,

  animate = function(ctx)
    local from, to = ctx:view("from"), ctx:view("to")
    to.frame = ctx:final_frame("to")
    ctx.container:add(to)
    to.alpha = 0

    segue.animate({ duration = ctx.duration }, function()
      from.transform = segue.transform.scale(0.1, 0.1)
      to.alpha = 1
    end, function(finished)
      from.transform = segue.transform.identity
      ctx:complete(not ctx.cancelled)
    end)
  end,
}
