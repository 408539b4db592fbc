-- expect: load_failed __gc metamethods are not allowed
-- A finalizer runs with hooks off: a looping one would hang the state, so __gc is refused.
setmetatable({}, { __gc = function() while true do end end })
return segue.animator { animate = function(ctx) ctx:complete(true) end }
