-- expect: failed_over global 'io'
-- Tries to read a file from animate: there is no io library.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx) local f = io.open("/etc/passwd") ctx:complete(true) end,
}
