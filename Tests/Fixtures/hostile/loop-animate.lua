-- expect: failed_over instruction budget exceeded
-- An animator stuck in an infinite loop: the instruction budget stops it, the default animator finishes.
return segue.animator {
  duration = function(ctx) return 0.3 end,
  animate = function(ctx) while true do end end,
}
