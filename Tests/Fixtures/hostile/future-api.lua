-- expect: load_failed written for plugin API 2
return segue.animator { api = 2, animate = function(ctx) ctx:complete(true) end }
