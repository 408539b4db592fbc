-- expect: failed_over binary chunk
-- Tries to smuggle in bytecode: string.dump is gone and load takes text only.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx)
    assert(string.dump == nil and ("").dump == nil, "string.dump exists")
    assert(load("\27LuaT\0\25\147\13\10\26\10\4\8\8", "evil", "b"))
    ctx:complete(true)
  end,
}
