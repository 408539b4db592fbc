-- expect: log wrong-types: every misuse raised
-- Calls every function with wrong argument types under pcall; each must raise, none may crash the host.
return segue.animator {
  duration = function(ctx) return 0.2 end,
  animate = function(ctx)
    local to = ctx:view("to")
    local misuses = {
      function() ctx:view(42) end,
      function() ctx:vc({}) end,
      function() ctx:initial_frame(true) end,
      function() ctx:final_frame(nil) end,
      function() ctx:complete("yes") end,
      function() ctx.kind = "push" end,
      function() to.frame = "wide" end,
      function() to.frame = { x = 0, y = 0, w = 0 / 0, h = 1 } end,
      function() to.alpha = "opaque" end,
      function() to.transform = 7 end,
      function() to.color = "red" end,
      function() to.hidden = 1 end,
      function() to.corner_radius = -1 end,
      function() to.center = {} end,
      function() to.id = "new" end,
      function() to:add(5) end,
      function() to:add(to) end,
      function() to:insert(ctx.container, "first") end,
      function() ctx.container.add(nil, to) end,
      function() segue.view(5) end,
      function() segue.view { frame = 5 } end,
      function() segue.animate("fast", function() end) end,
      function() segue.animate({ duration = -1 }, function() end) end,
      function() segue.animate({ duration = 0.1, spring = { damping = 0 } }, function() end) end,
      function() segue.animate({}, 5) end,
      function() segue.animate({}, function() end, 5) end,
      function() segue.keyframes({}, function(add) add(2, 0.5, function() end) end) end,
      function() segue.keyframes({}, function(add) add(0, 0.5, 5) end) end,
      function() segue.transition(to, 5, { duration = 1 }) end,
      function() segue.transition(to, to, { duration = 1, options = "explode" }) end,
      function() segue.after("soon", function() end) end,
      function() segue.after(1, nil) end,
      function() segue.animator(5) end,
      function() segue.transform.invert({ m = {} }) end,
      function() setmetatable({}, { __gc = function() end }) end,
      function() load(string.char(27) .. "Lua")() end,
    }
    local raised = 0
    for i, f in ipairs(misuses) do
      local ok = pcall(f)
      if not ok then raised = raised + 1 else segue.log("wrong-types: misuse " .. i .. " did not raise") end
    end
    if raised == #misuses then segue.log("wrong-types: every misuse raised") end
    -- Unknown names are warnings with the nearest valid name, not errors (API-1 plugins keep running).
    to.nonsense = 1
    segue.animate({ duration = 0.1, curve = "bouncy" }, function() end)
    ctx.container:add(to)
    to.frame = ctx:final_frame("to")
    ctx:complete(true)
  end,
}
