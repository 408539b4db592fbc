-- expect: load_failed not a plugin
return { animate = function(ctx) end }
