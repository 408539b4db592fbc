-- expect: load_failed instruction budget exceeded
-- Loops while the file loads.
while true do end
return segue.animator { animate = function(ctx) ctx:complete(true) end }
