-- expect: load_failed duplicate plugin name 'twin'
return segue.animator { name = "twin", animate = function(ctx) ctx:complete(true) end }
