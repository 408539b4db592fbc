-- expect: completed
-- Defines "twin" (loads first, by file name order).
return segue.animator { name = "twin", duration = 0.1,
  animate = function(ctx) ctx.container:add(ctx:view("to")) ctx:complete(true) end }
