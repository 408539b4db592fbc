-- expect: warning ended raised
-- animationEnded raises after a clean transition.
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx) ctx.container:add(ctx:view("to")) ctx:complete(true) end,
  ended = function(completed) error("ended blew up") end,
}
