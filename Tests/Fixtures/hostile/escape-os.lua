-- expect: load_failed global 'os'
-- Tries to run a command while loading: there is no os library.
os.execute("touch /tmp/segued-pwned")
return segue.animator { animate = function(ctx) ctx:complete(true) end }
