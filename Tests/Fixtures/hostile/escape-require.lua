-- expect: load_failed global 'require'
-- Tries to load a C module.
local ffi = require("ffi")
return segue.animator { animate = function(ctx) ctx:complete(true) end }
