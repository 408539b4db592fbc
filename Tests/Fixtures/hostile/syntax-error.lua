-- expect: load_failed '}' expected
return segue.animator {
  animate = function(ctx) ctx:complete(true) end
