-- expect: load_failed global 'package'
-- Tries package.loadlib to open libc.
local f = package.loadlib("libc.so.6", "system")
return segue.animator { animate = function(ctx) ctx:complete(true) end }
